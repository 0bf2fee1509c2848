/// The kinds of format-2 records (`vault(5)`, RECORDS).
public enum RecordKind: Int64, CaseIterable, Sendable {
  /// A secret.
  case entry = 1
  /// A kept earlier version of an entry.
  case revision = 2
  /// A removed entry.
  case tombstone = 3
  /// A journal entry.
  case journal = 4
  /// The vault's settings.
  case settings = 5
  /// A number that only grows.
  case counter = 6
  /// A device's record of its last sync; never in the sync repository.
  case sync = 7
}

/// One row of `records` exactly as stored: what the aggregate hashes.
package struct RecordRow: Equatable {
  /// The longest box a reader fetches: a journal entry of the largest size sealed, with room to
  /// spare (every other record is far smaller).
  static let maximumBoxSize = SignedJournalRecord.maximumTextByteCount + 64 * 1024

  /// 16 bytes; the first is the bucket.
  package var recordID: [UInt8]
  /// The name index, or nil (NULL).
  package var lookup: [UInt8]?
  /// The kind column.
  package var kind: Int64
  /// The revision column.
  package var revision: Int64
  /// The sealed box.
  package var box: [UInt8]
  /// SQLite's rowid of the row as read (nil for a row not yet stored); never hashed.
  package var rowid: Int64?

  /// The bucket (0–255) the row's hash is summed into.
  ///
  /// The first byte of its name index, or of its record id when it has none: an entry is found
  /// through its name's bucket alone.
  package var bucket: Int { Int(lookup?.first ?? recordID.first ?? 0) }

  /// The columns in schema order, as `RowHash` takes them.
  package var columns: [RowHash.Column] {
    [
      .blob(recordID), lookup.map { .blob($0) } ?? .null, .integer(kind), .integer(revision),
      .blob(box),
    ]
  }

  /// The columns a row is read with: the five stored columns, then the rowid.
  static let selectColumns = "record_id, lookup, kind, revision, box, rowid"
  /// The five stored columns, for an INSERT.
  static let storedColumns = "record_id, lookup, kind, revision, box"

  /// Parses a row read with `selectColumns`, exactly as stored.
  ///
  /// - Throws: `VaultError.integrity` for a value of the wrong type or a record id that is not
  ///   16 bytes.
  init(_ values: [SQLiteDatabase.Value]) throws {
    guard values.count == 6, let recordID = values[0].blob, recordID.count == 16,
      let kind = values[2].integer, let revision = values[3].integer, revision >= 1,
      let box = values[4].blob
    else { throw VaultError.integrity(.malformedRow(.records)) }
    let lookup: [UInt8]?
    switch values[1] {
    case .blob(let bytes) where bytes.count == 32: lookup = bytes
    case .null: lookup = nil
    default: throw VaultError.integrity(.malformedRow(.records))
    }
    self.init(recordID: recordID, lookup: lookup, kind: kind, revision: revision, box: box)
    rowid = values[5].integer
  }

  /// Parses a row read with `selectColumns` as SQLite holds it, with the checks of
  /// `init(_ values:)` (one copy of each blob, no array of values in between).
  ///
  /// - Throws: as `init(_ values:)`.
  init(_ row: RawRow) throws {
    guard let recordID = row.blob(0), recordID.count == 16, let kind = row.integer(2),
      let revision = row.integer(3), revision >= 1, let box = row.blob(4)
    else { throw VaultError.integrity(.malformedRow(.records)) }
    let lookup: [UInt8]?
    if row.isNull(1) {
      lookup = nil
    } else if let bytes = row.blob(1), bytes.count == 32 {
      lookup = Array(bytes)
    } else {
      throw VaultError.integrity(.malformedRow(.records))
    }
    self.init(
      recordID: Array(recordID), lookup: lookup, kind: kind, revision: revision, box: Array(box))
    rowid = row.integer(5)
  }

  package init(recordID: [UInt8], lookup: [UInt8]?, kind: Int64, revision: Int64, box: [UInt8]) {
    self.recordID = recordID
    self.lookup = lookup
    self.kind = kind
    self.revision = revision
    self.box = box
  }

  /// The SQL parameters of an INSERT of all five columns.
  var parameters: [SQLiteDatabase.Value] {
    [
      .blob(recordID), lookup.map { .blob($0) } ?? .null, .integer(kind), .integer(revision),
      .blob(box),
    ]
  }

  /// The bounds of bucket `bucket` for `record_id >= ? AND record_id < ?` (the upper bound nil
  /// for bucket 255).
  static func bucketRange(_ bucket: Int) -> (lower: [UInt8], upper: [UInt8]?) {
    ([UInt8(bucket)], bucket < 255 ? [UInt8(bucket + 1)] : nil)
  }
}

/// One content of a record: its chunks are the rows of `chunks` with this record id and
/// revision.
package struct ContentVersion: Hashable {
  /// The value of each stored property, in order.
  package init(recordID: [UInt8], revision: Int64) {
    self.recordID = recordID
    self.revision = revision
  }

  package var recordID: [UInt8]
  package var revision: Int64
}

/// One row of `chunks` exactly as stored.
package struct ChunkRow: Equatable, Sendable {
  var recordID: [UInt8]
  var revision: Int64
  var index: Int64
  var box: [UInt8]

  var columns: [RowHash.Column] {
    [.blob(recordID), .integer(revision), .integer(index), .blob(box)]
  }

  static let selectColumns = "record_id, revision, idx, box"

  /// Parses a row read with `selectColumns`.
  ///
  /// - Throws: `VaultError.integrity` for a value of the wrong type.
  init(_ values: [SQLiteDatabase.Value]) throws {
    guard values.count == 4, let recordID = values[0].blob, let revision = values[1].integer,
      revision >= 1, let index = values[2].integer, index >= 0, let box = values[3].blob
    else { throw VaultError.integrity(.malformedRow(.chunks)) }
    self.init(recordID: recordID, revision: revision, index: index, box: box)
  }

  package init(recordID: [UInt8], revision: Int64, index: Int64, box: [UInt8]) {
    self.recordID = recordID
    self.revision = revision
    self.index = index
    self.box = box
  }
}
