import VaultCrypto

/// The contents of a session file: one fixed-size binary record (`vault(5)`, SESSIONS).
///
/// `"VSES" || u8(2) || vault id (16) || boot (16) || path (16) || u64be(created ms) ||
/// u64be(last used ms) || u32be(idle s) || u32be(hard s)`, 77 bytes, then the 72-byte box of the
/// master key whose associated data holds all of them. Nothing in it is text, so reading it on
/// every `vault get` parses nothing.
struct SessionRecord: Equatable {
  /// The first four bytes.
  static let magic = Array("VSES".utf8)
  /// The record's version (the JSON files of releases 0.1 and 0.2 were the first).
  static let version: UInt8 = 2
  /// Bytes before the box: every field the box's associated data covers.
  static let prefixByteCount = 77
  /// The box of a 32-byte key: nonce, ciphertext, tag.
  static let boxByteCount = Nonce.byteCount + SymmetricKey.byteCount + AEAD.tagByteCount
  /// The whole record.
  static let byteCount = prefixByteCount + boxByteCount
  /// The largest boot-clock time a record may hold, in milliseconds (about 317 years).
  static let maximumTime: UInt64 = 10_000_000_000_000

  /// The vault id (16 bytes).
  var vaultID: [UInt8]
  /// BLAKE2b-16 of the boot id (`SessionStore.bootHash`).
  var boot: [UInt8]
  /// BLAKE2b-16 of the vault file's absolute path (`SessionStore.pathHash`).
  var path: [UInt8]
  /// Boot-clock milliseconds when the session was issued.
  var created: UInt64
  /// Boot-clock milliseconds of the last renewal.
  var lastUsed: UInt64
  /// Idle timeout, seconds.
  var idle: UInt32
  /// Hard limit, seconds.
  var hard: UInt32
  /// `seal(token_key, associated data, master key)`, `boxByteCount` bytes.
  var box: [UInt8]

  /// What a session file's bytes turned out to be.
  enum Parsed: Equatable {
    /// A well-formed record (its box not yet opened).
    case record(SessionRecord)
    /// A JSON object: a session of release 0.1 or 0.2, never parsed.
    case olderRelease
    /// Anything else: another size, magic or version, or a field out of bounds.
    case malformed
  }

  /// Reads `bytes` as a record, checking every bound before any arithmetic on the fields.
  static func parse(_ bytes: [UInt8]) -> Parsed {
    if bytes.first == UInt8(ascii: "{") { return .olderRelease }
    guard bytes.count == byteCount, Array(bytes[0..<4]) == magic, bytes[4] == version else {
      return .malformed
    }
    let record = SessionRecord(
      vaultID: Array(bytes[5..<21]), boot: Array(bytes[21..<37]), path: Array(bytes[37..<53]),
      created: integer(bytes, at: 53, count: 8), lastUsed: integer(bytes, at: 61, count: 8),
      idle: UInt32(integer(bytes, at: 69, count: 4)),
      hard: UInt32(integer(bytes, at: 73, count: 4)), box: Array(bytes[prefixByteCount...]))
    return record.isWellFormed ? .record(record) : .malformed
  }

  /// True when the timers are within what `SessionStore.issue` writes: times up to
  /// `maximumTime`, `created` not after `lastUsed`, `idle` and `hard` from 1 s to the hard limit.
  var isWellFormed: Bool {
    let limits = UInt32(1)...UInt32(SessionStore.hardLimit)
    return created <= Self.maximumTime && lastUsed <= Self.maximumTime && created <= lastUsed
      && limits.contains(idle) && limits.contains(hard)
  }

  /// The 77 bytes before the box, in file order.
  var prefix: [UInt8] {
    Self.magic + [Self.version] + vaultID + boot + path + Self.bigEndian(created)
      + Self.bigEndian(lastUsed) + Self.bigEndian(idle) + Self.bigEndian(hard)
  }

  /// The file's bytes.
  var bytes: [UInt8] { prefix + box }

  private static func integer(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
    bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
  }

  private static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
  }
}
