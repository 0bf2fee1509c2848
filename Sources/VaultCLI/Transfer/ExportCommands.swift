import VaultCrypto
import VaultFormat

/// The table entry of `export`, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let exportEntries = ExportCommand.spec
}
