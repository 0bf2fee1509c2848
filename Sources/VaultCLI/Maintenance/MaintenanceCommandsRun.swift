import VaultCore
import VaultFormat

/// `check` and `backup`.
enum MaintenanceCommandsRun {
  static func check(_ context: Context) throws {
    let acceptOlder = context.flag(Keys.acceptOlder)
    let unlocked = try context.open(
      acceptOlder ? .acceptOlderState : .use(reason: "check the vault"))
    let report = try IntegrityCheck.verify(unlocked.vault, masterKey: unlocked.masterKey)
    if let (remembered, accepted) = unlocked.acceptedState, remembered != accepted {
      Output.error(
        "Accepted the vault's state at generation \(accepted)"
          + (remembered.map { " (this device had seen generation \($0))" } ?? "") + ".")
    }
    JournalCommandsRun.warnOfGaps(report.missing)
    Output.print(
      "ok: header, \(report.entries) entr\(report.entries == 1 ? "y" : "ies") "
        + "(\(report.chunks) chunk\(report.chunks == 1 ? "" : "s")), "
        + "\(report.journal) journal entr\(report.journal == 1 ? "y" : "ies")"
        + (report.revisions > 0
          ? ", \(report.revisions) kept revision\(report.revisions == 1 ? "" : "s")" : "")
        + (report.removed > 0
          ? ", \(report.removed) removed entr\(report.removed == 1 ? "y" : "ies")" : "") + "\n")
  }

  static func backup(_ context: Context) throws {
    let path = try context.argument(Keys.backupPath).path
    try OutputFile.refuseOwnFiles(
      path, vaultPath: context.vaultPath, environment: context.environment)
    let vault = try context.openVault()
    try vault.backup(to: path)
    Output.error(
      "Wrote a copy of \(Output.printable(vault.path)) to \(Output.printable(path)).")
  }
}
