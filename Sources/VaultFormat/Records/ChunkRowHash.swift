import VaultCrypto

/// How a vault's chunks' aggregate hashes a `chunks` row (`vault(5)` STATE, header field
/// `chunk_hash`).
public enum ChunkHash: String, Codable, Sendable {
  /// By its place, its box's length and its box's 16-byte authentication tag (table id 3):
  /// every vault made or written since release 0.6.0.
  case tag
}

/// The row hashes of `chunks` rows under one rule and one key: the whole row (table id 2) when
/// the header has no `chunk_hash`, or the tag hash (table id 3) under `ChunkHash.tag`.
///
/// The tag is the last 16 bytes of the box: the Poly1305 tag of its XChaCha20-Poly1305 box or
/// of its secretstream message, a MAC under a key only the master key's holder has, so a box
/// changed in any byte that keeps its tag does not open.
struct ChunkRowHash {
  /// The rule; nil for the whole row.
  let rule: ChunkHash?
  private let hasher: RowHash.Hasher

  /// Bytes of a box's authentication tag.
  static let tagByteCount = 16
  /// The table id of the tag hash.
  static let tagTable: UInt8 = 3

  /// Hashing under `rule` with the master key's `.rows` subkey `rowKey`.
  init(rule: ChunkHash?, rowKey: SymmetricKey) {
    self.rule = rule
    hasher = RowHash.Hasher(key: rowKey)
  }

  /// The columns a `SELECT … FROM chunks` reads for `hash(selected:)`: under the tag rule only
  /// the box's length and its last 16 bytes, not its 64 KiB.
  var selectColumns: String {
    rule == .tag
      ? "record_id, revision, idx, length(box), substr(box, -16)" : ChunkRow.selectColumns
  }

  /// A box too short to end in a tag (the tag rule): `StateDamage.chunkTooShort` as it reaches
  /// the user.
  struct TooShort: Error, Equatable {}

  /// The 32-byte hash of `row`.
  ///
  /// - Throws: `TooShort` for a box too short to end in a tag (tag rule).
  func hash(_ row: ChunkRow) throws -> [UInt8] {
    guard rule == .tag else { return hasher.hash(table: RowHash.chunks, columns: row.columns) }
    return try tagHash(
      recordID: row.recordID, revision: row.revision, index: row.index, length: row.box.count,
      tag: Array(row.box.suffix(Self.tagByteCount)))
  }

  /// The hash of a row read with `selectColumns`.
  ///
  /// - Throws: `VaultError.integrity` for a malformed row; `TooShort`.
  func hash(selected values: [SQLiteDatabase.Value]) throws -> [UInt8] {
    guard rule == .tag else { return try hash(ChunkRow(values)) }
    guard values.count == 5, let recordID = values[0].blob, let revision = values[1].integer,
      revision >= 1, let index = values[2].integer, index >= 0, let length = values[3].integer,
      let tag = values[4].blob
    else { throw VaultError.integrity(.malformedRow(.chunks)) }
    return try tagHash(
      recordID: recordID, revision: revision, index: index, length: Int(length), tag: tag)
  }

  private func tagHash(recordID: [UInt8], revision: Int64, index: Int64, length: Int, tag: [UInt8])
    throws -> [UInt8]
  {
    guard length > Self.tagByteCount, tag.count == Self.tagByteCount else { throw TooShort() }
    return hasher.hash(
      table: Self.tagTable,
      columns: [
        .blob(recordID), .integer(revision), .integer(index), .integer(Int64(length)), .blob(tag),
      ])
  }
}
