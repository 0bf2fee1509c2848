/// Why input was refused before anything was stored: which name, value or limit.
///
/// Thrown as `VaultError.invalidInput`; the command line gives the words (`InputWords`).
public enum InputFault: Equatable, Sendable {
  // MARK: Core, agent, journal

  /// A PIN that is no PIN, or too short to be set.
  case pin(PINFault)
  /// An item of an import has the name `name`, which the item at `at` has already.
  case nameGivenTwice(name: String, at: String)
  /// As `nameGivenTwice`, and no `NAME (N)` for it is a valid name to rename it to.
  case noFreeName(name: String, at: String)
  /// The content is empty.
  case emptyContent
  /// The journal entry is empty.
  case emptyJournalEntry
  /// The journal entry is larger than a journal entry may be (16 MiB).
  case journalEntryTooLarge
}
