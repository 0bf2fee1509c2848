/// Why an export is refused: its passphrase, a file that is no readable export, or an entry or
/// journal entry the format does not allow (which one, which rule).
///
/// Each is refused input (the command line's `ExportWords`); nothing is written past the
/// refused item. A content that does not have its stored length is damage
/// (`Damage.exportedContent`), not this.
public enum ExportError: Error, Equatable, Sendable {
  /// The passphrase was refused.
  case passphrase(PassphraseFault)
  /// The file does not start with the magic `VAULTEXP`.
  case notAnExport
  /// The file is of export version `found`; this build reads `reads`.
  case unsupportedVersion(found: UInt8, reads: UInt8)
  /// The header's Argon2id parameters are exactly no profile's.
  case notAProfile(opsLimit: UInt64, memLimit: UInt64)

  /// An entry was given after a journal entry: a `vault` export holds its entries first.
  case entryAfterJournal
  /// The entry `name` was given after one whose name is not below it in UTF-8 byte order: a
  /// `vault` export holds its entries in ascending order of their names, each once.
  case notInOrder(name: String)
  /// The entry `name` has a name, a time or a length the `vault` format does not allow.
  case badMetadata(name: String)
  /// A journal entry's text has `bytes` bytes, outside 1 to `JournalStore.maximumByteCount`.
  case journalEntrySize(bytes: Int)
  /// The entry `name` is too large to hold in memory: a CSV export of it needs `content_b64`.
  case largeNeedsBase64(name: String)
  /// A `vault` export was asked for without a passphrase.
  case noPassphrase

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
