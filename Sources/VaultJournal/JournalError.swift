import VaultFormat

/// A journal entry ID or DATE that names nothing the journal can look up.
public enum JournalError: Error, Equatable, Sendable {
  /// The word (as given) is not a DATE form, or a DATE out of range (`JournalDate.forms`).
  case invalidDate(String)
  /// The word (as given) is neither 1 to 32 hex digits nor a DATE.
  case neitherIDNorDate(String)
  /// The ID prefix (as given) matches `matches` entries.
  case ambiguousID(String, matches: Int)
}
