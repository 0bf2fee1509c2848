/// Why entries or journal entries cannot be written in an export: which entry, which rule of the
/// format.
///
/// Nothing is written past the refused item. The command line gives the words (`TransferWords`); each is refused input (exit 5). A content
/// that does not have its stored length is damage (`Damage.exportedContent`), not this.
public enum ExportError: Error, Equatable, Sendable {
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
}
