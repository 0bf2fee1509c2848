/// A check a journal entry failed: its signed record's layout and bindings
/// (`SignedJournalRecord`, format 1's `JournalRecord`), or its row in the vault.
public enum JournalEntryDamage: Equatable, Sendable {
  /// The record does not start with its magic, or is shorter than its fixed fields.
  case malformed
  /// The record names another vault.
  case copiedFromAnotherVault
  /// The record names another entry id than its row's.
  case copiedFromAnotherEntry
  /// The record's sequence number or revision is 0.
  case zeroSequenceOrRevision
  /// The record's time is not a stamp as written.
  case malformedTime
  /// The record's length is not its padded text's and its signature's.
  case wrongLength
  /// The padding after the text is not all zero.
  case nonzeroPadding
  /// No writer key the header has for the record's writer verifies its signature.
  case signatureDoesNotVerify
  /// The box of the journal row `recordID` does not open under the journal key.
  case failedAuthentication(recordID: [UInt8])
  /// The header has no writer key for the writer of the journal row `recordID`.
  case signedByNoAuthorizedWriter(recordID: [UInt8])
  /// The folded journal row `recordID` has another revision than its record says.
  case storedUnderAnotherRevision(recordID: [UInt8])
  /// A `pending` row's record id or box is not of the form a journal row has.
  case malformedRow
  /// A pending entry that is a copy of one already folded into the journal.
  case copyOfFoldedEntry
  /// A pending entry whose writer's sequence number `sequence` was already used (replayed).
  case sequenceReused(UInt64)
}
