import VaultCore
import VaultFormat
import VaultSecrets

/// The table entries of `run` and `inject`, which hand secrets to other programs, kept beside
/// the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let runCommand = RunCommand.spec

  static let inject = InjectCommand.spec

  static let audit = AuditCommand.spec
}
