/// What an integrity check found: which stored object failed which check.
///
/// Every case names the object (a record by its id, an entry by its name, a file by its path)
/// and the check it failed; the command line gives the words (`DamageWords`). Thrown as
/// `VaultError.integrity`.
public enum Damage: Equatable, Sendable {
  // MARK: Records, state, SQLite, entries

  /// The vault's state does not authenticate what the file holds (`StateDamage`).
  case state(StateDamage)
  /// A row of one of the vault's tables has a value of the wrong type or size.
  case malformedRow(VaultTable)
  /// SQLite found the file damaged, or its schema is not the format's (`DatabaseDamage`).
  case database(DatabaseDamage)
  /// A record failed a check of its own (`RecordDamage`).
  case record(RecordDamage)
  /// A record's box opened, but its plaintext's layout or padding is wrong.
  ///
  /// `object` is the record as its reader names it, the noun `CryptoError` carries when the
  /// same box does not open (`a counter record`, `the tombstone 0a1b2c3d`).
  case malformedBox(object: String)
  /// The content of the entry `name` failed a check of its chunks (`ContentDamage`).
  case content(name: String, ContentDamage)
  /// A journal entry failed a check of its record or its row (`JournalEntryDamage`).
  case journalEntry(JournalEntryDamage)
  /// The pending journal entry `hexID` (its record id, hex) is refused for `reason`; `others`
  /// more pending entries are refused too.
  indirect case pendingJournalEntryRefused(hexID: String, reason: Damage, others: Int)
}
