import VaultFormat

/// The table entries of `history`, `restore`, `purge` and `settings`, kept beside the main
/// table in `VaultCommands.swift`.
extension VaultCommands {
  static let history = HistoryCommand.spec

  static let restore = RestoreCommand.spec

  static let purge = PurgeCommand.spec

  static let settings = SettingsCommand.spec
}
