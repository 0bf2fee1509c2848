/// Why a row of `pending` (`vault(5)` JOURNAL) is refused: it is never mixed into the journal,
/// only reported.
public enum JournalRefusal: Equatable, Sendable {
  /// The row's record id or box is malformed.
  case malformedRow
  /// Its entry failed a check.
  indirect case damaged(Damage)
  /// Its entry failed a check that still says itself in words (`VaultError.integrityText`);
  /// transitional, removed with that case.
  case damagedText(String)
  /// It is a copy of an entry the journal holds already.
  case copyOfFoldedEntry
  /// Its writer's sequence number (`sequence`) was used already: a replayed entry.
  case sequenceUsed(UInt64)
}
