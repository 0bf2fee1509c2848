import VaultCrypto

/// A row of one table as the format-2 aggregate sees it: an unambiguous encoding of its columns and
/// the keyed hash that is added to, or subtracted from, the table's `Aggregate`.
public enum RowHash {
  /// The table id of `records`.
  public static let records: UInt8 = 1
  /// The table id of `chunks`.
  public static let chunks: UInt8 = 2

  /// One column's value.
  public enum Column: Equatable, Sendable {
    /// A 64-bit signed integer.
    case integer(Int64)
    /// Bytes, at most `UInt32.max` of them.
    case blob([UInt8])
    /// SQL NULL.
    case null
  }

  /// The row's bytes: `table`, then per column a tag and its value: `0x00` for null; `0x01` and 8
  /// bytes of big-endian two's complement for an integer; `0x02`, a 4-byte big-endian length and
  /// the bytes for a blob.
  ///
  /// The tags and the length prefix make the encoding injective for a given table. Traps for a
  /// blob longer than `UInt32.max` bytes.
  public static func encode(table: UInt8, columns: [Column]) -> [UInt8] {
    var out: [UInt8] = [table]
    for column in columns {
      switch column {
      case .null:
        out.append(0x00)
      case .integer(let value):
        out.append(0x01)
        withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) }
      case .blob(let bytes):
        precondition(bytes.count <= Int(UInt32.max), "a blob column is at most 2^32 − 1 bytes")
        out.append(0x02)
        withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: bytes)
      }
    }
    return out
  }

  /// The row's 32-byte hash: BLAKE2b-256 (`crypto_generichash`, RFC 7693) keyed with `key` of
  /// `"vault.row.v2" || encode(table:columns:)`.
  ///
  /// `key` is the master key's `.rows` subkey, so that only a holder of the master key can make a
  /// row hash that sums to a given aggregate.
  public static func hash(key: SymmetricKey, table: UInt8, columns: [Column]) -> [UInt8] {
    GenericHash.keyed(
      key: key.bytes, parts: [DomainLabel.row.bytes, encode(table: table, columns: columns)])
  }

  /// Row hashes under one key with one reused guarded state (`GenericHash.Hasher`).
  public final class Hasher {
    private let hasher: GenericHash.Hasher

    /// A hasher for the master key's `.rows` subkey `key`.
    public init(key: SymmetricKey) { hasher = GenericHash.Hasher(key: key.bytes) }

    /// The same value as `RowHash.hash(key:table:columns:)` of a `records` row's five columns
    /// as SQLite holds them (`lookup` nil for NULL), encoded as `encode` does without an array.
    func hashRecord(
      recordID: UnsafeRawBufferPointer, lookup: UnsafeRawBufferPointer?, kind: Int64,
      revision: Int64, box: UnsafeRawBufferPointer
    ) -> [UInt8] {
      hasher.hash { update in
        DomainLabel.row.bytes.withUnsafeBytes(update)
        func byte(_ value: UInt8) { withUnsafeBytes(of: value, update) }
        func blob(_ bytes: UnsafeRawBufferPointer) {
          byte(0x02)
          withUnsafeBytes(of: UInt32(bytes.count).bigEndian, update)
          update(bytes)
        }
        func integer(_ value: Int64) {
          byte(0x01)
          withUnsafeBytes(of: value.bigEndian, update)
        }
        byte(RowHash.records)
        blob(recordID)
        if let lookup { blob(lookup) } else { byte(0x00) }
        integer(kind)
        integer(revision)
        blob(box)
      }
    }

    /// The same value as `RowHash.hash(key:table:columns:)`.
    public func hash(table: UInt8, columns: [Column]) -> [UInt8] {
      hasher.hash([DomainLabel.row.bytes, RowHash.encode(table: table, columns: columns)])
    }
  }
}
