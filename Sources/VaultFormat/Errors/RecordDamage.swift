/// A check one record of the vault failed once its row verified: its kind, its name index, its
/// body, or the record it belongs to.
public enum RecordDamage: Equatable, Sendable {
  /// The row's kind (as stored) is none the format has.
  case unknownKind(Int64)
  /// The name index of an entry or a tombstone (named) is not its name's.
  case nameIndex(name: String)
  /// The record under an entry's name index is not an entry.
  case notAnEntry
  /// The entry under the name index of `name` names another entry.
  case entryOfAnotherName(String)
  /// An entry's body is not a well-formed entry.
  case malformedEntryMetadata
  /// A tombstone's body is not a well-formed tombstone.
  case malformedTombstone
  /// A kept revision's body or place is not a well-formed revision's.
  case malformedRevision
  /// A settings record has another record id, or a name index.
  case misplacedSettings
  /// The settings record's body is not settings within their bounds.
  case malformedSettings
  /// A counter record's body is malformed, or its record id is not its name's.
  case malformedCounter
  /// A counter record (by its record id) has a name of no known form.
  case counterOfUnknownName(recordID: [UInt8])
  /// This device's sync record's body is malformed.
  case malformedSyncRecord
  /// Revision `revision` of the entry `name` is kept, but the vault holds no such entry.
  case orphanRevision(name: String, revision: Int64)
  /// The one-time code counter of the entry `entryID` (a record id) is kept, but the vault holds
  /// no such entry.
  case orphanCounter(entryID: [UInt8])
  /// `count` chunk rows belong to no entry or kept revision.
  case orphanChunks(count: Int64)
}
