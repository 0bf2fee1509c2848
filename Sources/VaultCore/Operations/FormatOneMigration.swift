import FoundationEssentials
import Glibc
import VaultCrypto
import VaultFormat

/// Migrates a format-1 vault to format 2 in place, at its first unlock (`vault(5)`, Migration).
///
/// The file is first copied beside itself (`PATH.format1`, 0600, durably); then one
/// `BEGIN IMMEDIATE` transaction reads and verifies every format-1 record with the key, drops the
/// three tables, creates format 2's and writes every record and the first state. Only after the
/// commit is the copy removed. A migration killed before the commit leaves format 1 and the copy;
/// the next unlock replaces the copy and begins again.
public enum FormatOneMigration {
  /// The suffix of the copy kept beside the vault while it migrates.
  public static let copySuffix = ".format1"

  /// The PIN keyslot the migrated device record keeps, or nil after a recovery (the device
  /// record then gets a keyslot no PIN opens, replaced by the PIN the recovery sets next).
  struct Slot {
    let salt: Salt
    let kek: SymmetricKey
  }

  /// Migrates `old` with its verified `masterKey`.
  ///
  /// - Returns: the vault, reopened in format 2, its state verified.
  /// - Throws: `VaultError.integrity` when a format-1 record does not verify (nothing is
  ///   changed); `.storage` on failure (the file stays format 1).
  static func migrate(_ old: FormatOneVault, masterKey: SymmetricKey, slot: Slot?) throws -> Vault {
    let copy = old.path + copySuffix
    if FileManager.default.fileExists(atPath: copy) { unlink(copy) }
    try Vault.createExclusively(copy) { temporary in try old.db.backup(to: temporary) }

    let deviceID = SecureBytes.random(count: 16).unprotectedBytes
    // Format 1 could not tell who wrote a journal entry: the migrated ones are signed by a key
    // made for this migration and discarded after it, and are shown as from format 1.
    let importer = Signing.generate()
    let header = try header(
      of: old, masterKey: masterKey, slot: slot, deviceID: deviceID, importer: importer)
    let body = try header.encoded()
    let first = try old.db.transaction { () -> StateLink in
      let (entries, journal) = try old.readAll(masterKey: masterKey)
      try old.db.execute(
        """
        DROP TABLE chunks;
        DROP TABLE entries;
        DROP TABLE header;
        """)
      try old.db.execute(Schema.v2)
      try old.db.query(
        "INSERT INTO header (id, body, mac) VALUES (1, ?, ?)",
        [.blob(body), .blob(Header.mac(body, masterKey: masterKey))])
      let change = StateWrite(db: old.db, vaultID: old.vaultID, masterKey: masterKey, base: nil)
      change.setHeaderBody(body)
      try insert(
        entries, into: change, vaultID: old.vaultID, masterKey: masterKey, deviceID: deviceID,
        now: old.environment.clock.wallNow)
      try insert(journal, into: change, header: header, importer: importer)
      try old.db.execute("PRAGMA user_version = \(Vault.schemaVersion)")
      return try change.finish(masterKey: masterKey)
    }
    // The device records the state first, so a format-1 copy is refused from now on; then the
    // copy goes.
    let vault = try Vault.open(path: old.path, environment: old.environment)
    try old.device.update { state in
      vault.recordAuthenticatedHeader(in: &state)
      vault.remember(first, in: &state)
    }
    unlink(copy)
    PrivateFiles.syncDirectory(PrivateFiles.parentFolder(of: old.path))
    vault.verifiedState = first
    return vault
  }

  /// The format-2 header of `old`: one device record (this device's, `deviceID`, with a writer
  /// key made now and the PIN keyslot of `slot`), the recovery slot and journal keys as they
  /// were, and `importer`'s public key as the writer of the migrated journal.
  ///
  /// - Throws: `VaultError.malformedHeader` when format 1's header has no recovery slot;
  ///   `.storage` when the device state cannot be written.
  private static func header(
    of old: FormatOneVault, masterKey: SymmetricKey, slot: Slot?, deviceID: [UInt8],
    importer: SigningKeyPair
  ) throws -> Header {
    let store = old.device
    let deviceSecret = try store.read().deviceSecret
    let vaultID = old.vaultID
    let writer = try store.update { try Vault.writer(for: vaultID, deviceID: deviceID, in: &$0) }
    let device = DeviceRecord.make(
      deviceID: deviceID, deviceSecret: deviceSecret, vaultID: vaultID, kdf: old.header.kdf,
      salt: slot?.salt ?? Salt.random(), kek: slot?.kek ?? SymmetricKey.random(),
      masterKey: masterKey, writerKey: writer.publicKey,
      biometry: try biometry(of: old, masterKey: masterKey, deviceID: deviceID))
    guard let recovery = old.header.keyslot(.recovery) else {
      throw VaultError.malformedHeader(.keyslots(.noRecoverySlot))
    }
    var header = Header(
      format: Header.currentFormat, vaultID: vaultID, kdf: old.header.kdf,
      policy: old.header.policy, devices: [device],
      recovery: RecoverySlot(
        salt: recovery.salt, wrapped: recovery.wrapped, verifier: nil, tag: nil,
        enrollmentKey: nil),
      journalPublicKey: old.header.journalPublicKey,
      journalSecretKey: old.header.journalSecretKey, formatOneWriter: nil, chunkHash: .tag)
    header.formatOneWriter = importer.publicKey.base64
    return header
  }

  /// Writes each format-1 entry as a format-2 entry record (revision 1, a new record and
  /// content id) and its content chunks.
  ///
  /// - Throws: `VaultError.invalidInput` for a name format 2 refuses; `.storage`.
  private static func insert(
    _ entries: [FormatOneVault.Entry], into change: StateWrite, vaultID: VaultID,
    masterKey: SymmetricKey, deviceID: [UInt8], now: Double
  ) throws {
    let boxes = RecordBox(vaultID: vaultID, masterKey: masterKey)
    let indexKey = masterKey.derive(.nameIndex)
    for entry in entries {
      let recordID = SecureBytes.random(count: 16).unprotectedBytes
      let name = try EntryName(entry.name)
      let contentID = EntryStore.newContentID()
      var json = try JSONEncoder.sorted.encodedBytes(
        EntryStore.Body(
          name: name.value, created: entry.created, updated: entry.updated,
          guarded: entry.guarded, length: entry.content.count, contentRevision: 1,
          contentID: contentID.base64))
      defer { wipe(&json) }
      try change.insert(
        RecordRow(
          recordID: recordID,
          lookup: GenericHash.keyed(
            key: indexKey.bytes, parts: [DomainLabel.name.bytes, Array(name.value.utf8)]),
          kind: RecordKind.entry.rawValue, revision: 1,
          box: boxes.seal(
            json, recordID: recordID, kind: .entry, revision: 1, deviceID: deviceID,
            hlc: RecordBox.hlc(now: now, after: nil))))
      for chunk in boxes.sealChunks(
        entry.content, recordID: recordID, revision: 1, chunkSize: EntryStore.chunkSize,
        contentID: contentID)
      {
        try change.insert(chunk)
      }
    }
  }

  /// Writes each format-1 journal entry as a signed journal record of the format-1 writer
  /// (sequence numbers from 1), sealed to the header's journal key.
  ///
  /// - Throws: `VaultError.malformedHeader` for a journal key that is not 32 bytes; `.storage`.
  private static func insert(
    _ journal: [FormatOneVault.JournalItem], into change: StateWrite, header: Header,
    importer: SigningKeyPair
  ) throws {
    let journalKey = try [UInt8](
      base64: header.journalPublicKey, count: 32, field: "journal_public_key")
    var signed: UInt64 = 0
    for item in journal {
      signed += 1
      let record = try SignedJournalRecord(
        vaultID: header.vaultID, entryID: item.id, writerID: Header.formatOneWriterID,
        sequence: signed, revision: 1, stamp: item.stamp, text: item.text)
      let box = record.encode(signingWith: importer).withBytes {
        SealedBox.seal($0, to: journalKey)
      }
      try change.insert(
        RecordRow(
          recordID: item.id, lookup: nil, kind: RecordKind.journal.rawValue, revision: 1,
          box: box))
    }
  }

  /// The format-1 biometric record, its seal opened and sealed again to the device.
  private static func biometry(
    of old: FormatOneVault, masterKey: SymmetricKey, deviceID: [UInt8]
  ) throws -> BiometryRecord? {
    guard var record = old.header.biometry else { return nil }
    guard let seal = record.seal else { return record }
    let plain = try AEAD.open(
      [UInt8](base64: seal, field: "seal"), key: masterKey.derive(.biometry),
      associatedData: DomainLabel.biometry.bytes + old.vaultID.bytes, what: "the biometric seal")
    record.seal =
      plain.withBytes {
        AEAD.seal(
          $0, key: masterKey.derive(.biometry),
          associatedData: BiometricSeal.associatedData(old.vaultID, deviceID: deviceID))
      }.base64
    return record
  }
}
