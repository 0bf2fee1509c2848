import VaultFormat

/// The table entry of `otp`, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let otp = OneTimeCodeCommand.spec
}
