/// How a journal entry was asked for, when none matches (`VaultError.journalEntryNotFound`).
public enum JournalLookup: Equatable, Sendable {
  /// By an ID prefix, as the user gave it.
  case id(String)
  /// By the local date it was written on.
  case day(CivilDate)
}
