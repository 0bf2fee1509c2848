import VaultFormat

/// The table entries of `set` and `unset`, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let setField = SetCommand.spec

  static let unsetField = UnsetCommand.spec
}
