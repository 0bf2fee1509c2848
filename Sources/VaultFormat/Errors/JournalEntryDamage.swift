/// Which check a journal entry (`vault(5)` JOURNAL) failed.
///
/// Thrown as `VaultError.integrity(.journalEntry(id:_:))`, with the entry's record id.
public enum JournalEntryDamage: Equatable, Sendable {
  /// Its sealed box does not open under the journal key.
  case failedAuthentication
  /// No writer key of the header (a device's, or a retired one) signed it.
  case signedByNoAuthorizedWriter
  /// Its record is stored under another revision than the one it was signed with.
  case storedUnderAnotherRevision
}
