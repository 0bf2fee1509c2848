/// What an integrity check found: which stored object failed which check.
///
/// Every case names the object (a record by its id, an entry by its name, a file by its path)
/// and the check it failed; the command line gives the words (`DamageWords`). Thrown as
/// `VaultError.integrity`.
public enum Damage: Equatable, Sendable {
  // MARK: Core, agent, journal

  /// A key or keyslot of the header does not match what opened it or what this device recorded.
  case keys(KeyDamage)
  /// The biometric seal opened, and what it holds is malformed.
  case biometricSealMalformed
  /// The vault's tables hold what no record of this version accounts for.
  case tables(TableDamage)
  /// A journal entry (its record id in hex) failed a check.
  case journalEntry(id: String, JournalEntryDamage)
  /// A pending journal row (its record id in hex) is refused, and `more` other rows are too.
  case pendingJournalEntry(id: String, JournalRefusal, more: Int)
  /// A session file, or the vault id it was issued for, failed a check.
  case session(SessionDamage)
  /// A `vault` export failed a check of its messages.
  case export(ExportDamage)
}
