/// A passphrase or a file refused by the `vault` export format before any message is opened.
public enum ExportError: Error, Equatable, Sendable {
  /// The passphrase was refused.
  case passphrase(PassphraseFault)
  /// The file does not start with the magic `VAULTEXP`.
  case notAnExport
  /// The file is of export version `found`; this build reads `reads`.
  case unsupportedVersion(found: UInt8, reads: UInt8)
  /// The header's Argon2id parameters are exactly no profile's.
  case notAProfile(opsLimit: UInt64, memLimit: UInt64)

  /// Why a passphrase of an export was refused.
  public enum PassphraseFault: Equatable, Sendable {
    /// It is empty.
    case empty
    /// It contains a control character.
    case controlCharacter
    /// It is not valid UTF-8.
    case notUTF8
    /// It is longer than `maximumBytes` bytes.
    case tooLong(maximumBytes: Int)
    /// A new one has `length` characters, fewer than `minimum`.
    case tooShort(length: Int, minimum: Int)
    /// A new one is estimated at `bits` bits, fewer than `minimum`.
    case weak(bits: Int, minimum: Int)
  }
}
