import VaultCore
import VaultFormat

/// `vault check`.
struct CheckCommand: VaultCommand {
  static let about = CommandAbout(
    "check", "Verify the vault's state and every record, and report any damage.",
    discussion: """
      Unlocks, then verifies the header MAC, the state and its aggregate of every row (so \
      a deleted, added or rolled-back row is found), every entry's metadata and content \
      chunks, every journal entry and its writer's signature, and the journal entries \
      still pending. Prints a one-line summary; the first damage exits 17, naming it. \
      With --accept-older, a file older than the state this device last saw (a backup \
      restored on purpose) is verified with the PIN and accepted as the latest.
      """)

  @FlagParameter(Keys.acceptOlder) var acceptOlder

  func run(_ context: Context) throws -> Int32 {
    let unlocked = try context.open(
      acceptOlder ? .acceptOlderState : .use(reason: "check the vault"))
    let report = try IntegrityCheck.verify(unlocked.vault, masterKey: unlocked.masterKey)
    if let (remembered, accepted) = unlocked.acceptedState, remembered != accepted {
      Output.error(
        "Accepted the vault's state at generation \(accepted)"
          + (remembered.map { " (this device had seen generation \($0))" } ?? "") + ".")
    }
    JournalWarnings.warnOfGaps(report.missing)
    Output.print(
      "ok: header, \(report.entries) entr\(report.entries == 1 ? "y" : "ies") "
        + "(\(report.chunks) chunk\(report.chunks == 1 ? "" : "s")), "
        + "\(report.journal) journal entr\(report.journal == 1 ? "y" : "ies")"
        + (report.revisions > 0
          ? ", \(report.revisions) kept revision\(report.revisions == 1 ? "" : "s")" : "")
        + (report.removed > 0
          ? ", \(report.removed) removed entr\(report.removed == 1 ? "y" : "ies")" : "") + "\n")
    return ExitCode.success.rawValue
  }
}
