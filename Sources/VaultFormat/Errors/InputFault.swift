/// Why input was refused before anything was stored: which name, value or limit.
///
/// Thrown as `VaultError.invalidInput`; the command line gives the words (`InputWords`).
public enum InputFault: Equatable, Sendable {
  // MARK: Header, keyslots, devices, files, format 1, biometry

  /// A PIN that is no PIN at all (`PINFault`).
  case pin(PINFault)
  /// A typed recovery code that is not one (`RecoveryCodeFault`).
  case recoveryCode(RecoveryCodeFault)
  /// The text is not a vault id (32 hex digits).
  case notAVaultID(String)

  // MARK: Core, agent, journal

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
