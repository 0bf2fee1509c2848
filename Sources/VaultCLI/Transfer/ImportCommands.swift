import VaultFormat
import VaultTransfer

/// The table entry of `import`, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let importEntries = ImportCommand.spec
}
