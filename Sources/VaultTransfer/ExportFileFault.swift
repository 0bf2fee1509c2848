/// A record of a `vault` export whose message opened but which the format does not allow
/// (`vault(5)` EXPORT FORMAT), or a content that ends or cannot be held.
///
/// Facts about the export's own bytes: unlike a message that does not open
/// (`VaultError.integrity`), these are read from plaintext the passphrase opened.
public enum ExportFileFault: Equatable, Sendable {
  /// An entry record follows a journal entry record.
  case entryAfterJournal
  /// The end record counts `entries` and `journal` entries; the export holds `heldEntries` and
  /// `heldJournal`.
  case endCounts(entries: UInt64, journal: UInt64, heldEntries: Int, heldJournal: Int)
  /// A record's kind byte is `kind`, which is no kind.
  case unknownKind(UInt8)
  /// An entry's flags byte is `flags`.
  case flags(UInt8)
  /// An entry's name has `bytes` bytes, outside 1 to `EntryName.maximumByteCount`.
  case nameLength(Int)
  /// An entry's name is not UTF-8.
  case nameNotUTF8
  /// The entry name `name` is not in NFC.
  case nameNotNFC(String)
  /// The entry name `name` does not come after the one before it.
  case nameOutOfOrder(String)
  /// The times of the entry `name` are not ISO 8601 UTC.
  case timesNotUTC(name: String)
  /// The content of the entry `name` has `bytes` bytes, outside what an export holds.
  case contentLength(name: String, bytes: UInt64)
  /// A journal entry's stamp is not `YYYY-MM-DDTHH:MM:SS+HH:MM`.
  case stampMalformed
  /// A journal entry's text has `bytes` bytes, outside what a journal entry holds.
  case journalTextLength(Int)
  /// A byte after the end record is not zero.
  case paddingNotZero
  /// The padding after the end record has `found` bytes, not `expected`.
  case paddingLength(found: Int, expected: Int)
  /// The plaintext ends inside a record.
  case endsInsideRecord
  /// A large entry's content ends before its length.
  case contentEndsEarly
  /// The content of the entry `name` (`bytes` bytes) cannot be held in memory.
  case contentNotHeld(name: String, bytes: Int)
}
