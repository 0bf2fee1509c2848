/// Why a DEVICE word names no device a command can act on (`Vault.device(named:)`,
/// `Vault.requireOther`): the facts, which the command line words.
public enum DeviceNameError: Error, Equatable, Sendable {
  /// The word is not 4 to 32 hex digits.
  case notHexDigits
  /// The digits start the id of a device revoked already.
  case revokedAlready(digits: String)
  /// No device record's id starts with the digits.
  case noDevice(digits: String)
  /// `count` device records' ids start with the digits.
  case ambiguous(digits: String, count: Int)
  /// The device named is the one the command runs on.
  case thisDevice
}
