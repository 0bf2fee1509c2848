import VaultCore
import VaultFormat

/// `vault purge`.
struct PurgeCommand: VaultCommand {
  static let about = CommandAbout(
    "purge", "Remove an entry and its history for good, or every kept revision.",
    discussion: """
      'vault purge NAME' removes the entry (or what is kept of a removed one) and every \
      revision of it; a tombstone without content stays, so that a later sync does not bring \
      it back. 'vault purge --history' drops every kept revision of every entry; current \
      versions stay. Both then rewrite the file (VACUUM, with freed pages zeroed), so it \
      shrinks. The versions of an entry renamed since are in its history under its new name: \
      purge that name. Neither reaches other copies: backups, copies made with 'vault backup', \
      another machine's copy, the file system's or the disk's own retained blocks.
      """)

  @FlagParameter(Keys.purgeHistory) var purgeHistory
  @OptionalArgument(Keys.purgeName) var purgeName

  func run(_ context: Context) throws -> Int32 {
    let name = purgeName
    let everyHistory = purgeHistory
    guard (name == nil) != (!everyHistory) else {
      throw UsageError(
        message: everyHistory
          ? "give either NAME or --history, not both" : "give NAME or --history",
        path: context.path)
    }
    let store = try context.open(
      .use(reason: name.map { "purge '\($0)'" } ?? "purge every kept revision")
    ).entries
    let purged = try name.map { try store.purge($0) } ?? store.purgeHistory()
    let what =
      name.map { "'\(Output.printable($0.value))' and " } ?? ""
    Output.error(
      "Purged \(what)\(purged.revisions) kept revision\(purged.revisions == 1 ? "" : "s")"
        + " (\(purged.chunks) content chunk\(purged.chunks == 1 ? "" : "s"));"
        + (purged.compacted
          ? " the file went from \(purged.sizeBefore) to \(purged.sizeAfter) bytes."
          : " another command held the file, so it was not rewritten yet: run 'vault purge"
            + " --history' again to shrink it.")
        + " Backups and other copies still hold what they held.")
    return ExitCode.success.rawValue
  }
}
