import VaultCrypto

/// What an integrity check found: which stored object failed which check.
///
/// Every case names the object (a record by its id, an entry by its name, a file by its path)
/// and the check it failed; the command line gives the words (`DamageWords`). Thrown as
/// `VaultError.integrity`.
public enum Damage: Equatable, Sendable {
  // MARK: Transfer

  /// The content of the entry `name`, read for an export, has `read` bytes, not the `stored`
  /// length its metadata records.
  case exportedContent(name: String, stored: Int, read: Int)

  // MARK: Sync

  /// A record or content file of the sync repository, at `path` in its tree, is damaged.
  case syncFile(path: String, SyncFileDamage)
  /// The sync repository's state file is damaged or belongs to another vault.
  case syncState(SyncStateDamage)
  /// A content a record of the vault names has no chunks in the vault (met when a sync pushes
  /// it).
  case contentWithoutChunks
  /// A HOTP counter record opened, but its body holds no counter value (met when a sync merges
  /// it).
  case malformedCounter

  // MARK: Header, keyslots, devices, files, format 1, biometry

  /// A box or stream a primitive refused: `object` as the caller names it ("the vault header",
  /// "the content of 'x'"), and what was wrong with it.
  case sealed(object: String, SealedDamage)
  /// A value of fixed length (a nonce, a signing key or its seed) had `found` bytes, not
  /// `expected`.
  case wrongLength(CryptoError.Material, expected: Int, found: Int)
  /// A stored Ed25519 secret key whose public half is not the one its seed makes.
  case signingKeyMismatch
  /// The file at `path` is not a vault file (not SQLite, or another application's id).
  case notAVaultFile(path: String)
  /// The vault file's SQLite header has byte `byte` set to `found`, where the format writes
  /// `expected`.
  case sqliteHeader(byte: Int, found: UInt8, expected: UInt8)
  /// The vault header's MAC does not verify under the master key: the file was edited.
  case headerFailedAuthentication
  /// A format-1 vault file failed a check (`FormatOneDamage`).
  case formatOne(FormatOneDamage)
  /// The recovery slot failed a check (`RecoverySlotDamage`).
  case recoverySlot(RecoverySlotDamage)
  /// A master-key rotation of the remote (its handoffs) failed a check (`HandoffDamage`).
  case handoff(HandoffDamage)
  /// A device record, its enrollment, or this device's own files failed a check
  /// (`DeviceDamage`).
  case device(DeviceDamage)
  /// The simulated sensor's state, kept in the device state (`vault(5)`), failed a check
  /// (`SensorDamage`); it is damage of that stored file, so it is an integrity failure.
  case simulatedSensor(SensorDamage)

  // MARK: Core, agent, journal

  /// A key or keyslot of the header does not match what opened it or what this device recorded.
  case keys(KeyDamage)
  /// The biometric seal opened, and what it holds is malformed.
  case biometricSealMalformed
  /// The vault's tables hold what no record of this version accounts for.
  case tables(TableDamage)
  /// A session file, or the vault id it was issued for, failed a check.
  case session(SessionDamage)
  /// A `vault` export failed a check of its messages.
  case export(ExportDamage)

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
