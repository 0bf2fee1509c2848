import VaultCore
import VaultFormat

/// `check` and `backup`.
struct BackupCommand: VaultCommand {
  static let about = CommandAbout(
    "backup", "Write a consistent copy of the vault file (still encrypted) to PATH.",
    discussion: """
      Uses SQLite's online backup, so the copy is consistent even while other commands \
      write. Needs no PIN: the copy is as encrypted as the vault, and its PIN keyslot is \
      bound to this device; on another machine, open it with 'vault recover'. Never \
      overwrites a file.
      """)

  @ArgumentParameter(Keys.backupPath) var backupPath

  func run(_ context: Context) throws -> Int32 {
    let path = backupPath.path
    try OutputFile.refuseOwnFiles(
      path, vaultPath: context.vaultPath, environment: context.environment)
    let vault = try context.openVault()
    try vault.backup(to: path)
    Output.error(
      "Wrote a copy of \(Output.printable(vault.path)) to \(Output.printable(path)).")
    return ExitCode.success.rawValue
  }

}
