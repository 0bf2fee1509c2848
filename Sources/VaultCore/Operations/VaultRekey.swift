import FoundationEssentials
import Glibc
import VaultAgent
import VaultCrypto
import VaultFormat
import VaultJournal

extension Vault {
  /// What a master-key rotation did.
  public struct Rekeyed: Sendable {
    /// The new master key.
    public let masterKey: SymmetricKey
    /// Records sealed again (every kind).
    public let records: Int
    /// Content chunks sealed again.
    public let chunks: Int
    /// Device records whose master box was sealed again (this one included).
    public let devices: Int
    /// Their ids, hex, in the header's order.
    public let deviceIDs: [String]
    /// Pending journal rows no journal key opened, dropped (nobody could read them).
    public let droppedPending: Int
    /// The commit the rotation was pushed as, when the vault syncs (nil otherwise).
    public let published: String?
  }

  /// Replaces the master key in one `BEGIN IMMEDIATE` transaction.
  ///
  /// See `vault(5)`, MASTER-KEY ROTATION. After verifying everything under `old` (as `IntegrityCheck`), every record and
  /// chunk is sealed again under subkeys of a new random master key, every journal entry to a new
  /// journal key pair, the new master key to every device's public key (no PIN needed), this
  /// device gets a new writer key, the recovery slot a new code, and the state chain a link
  /// that follows the old newest one. After the commit every session is revoked.
  ///
  /// With `publisher` (a vault that syncs), the rotation is pushed before it commits here
  /// (`RotationPublisher`, VaultSync's `SyncRotationPublisher`): a remote that moved since this device's last sync, or a push
  /// that fails, leaves the old key.
  ///
  /// Every device record's enrollment is verified under the slot's enrollment key first, and
  /// signed again with the new code's (`vault(5)` ENROLLMENT); the link other devices take the
  /// new key by is authorized with the code in force.
  ///
  /// - Parameters:
  ///   - recoveryCode: the new code (canonical form), already shown and typed back.
  ///   - currentCode: the code in force (canonical form), which a header with enrollments and
  ///     another device than this one needs (`needsCurrentCode`); nil otherwise.
  ///   - publisher: what pushes the rotation to the vault's sync remote, nil when it does not
  ///     sync.
  /// - Returns: the new key and what was sealed again.
  /// - Throws: what `IntegrityCheck.verify` throws (nothing is changed then);
  ///   `VaultError.integrity` for a device record not enrolled; `.wrongRecoveryCode` for a
  ///   `currentCode` that is not the code in force, `.invalidInput` when it is needed and
  ///   missing; `.vaultChanged` when another command changed the header meanwhile, or the sync
  ///   remote moved; `.syncFailed`; `.storage`.
  package func rekey(
    masterKey old: SymmetricKey, recoveryCode: SecureBytes, currentCode: SecureBytes? = nil,
    publisher: (any RotationPublisher)? = nil
  ) throws -> Rekeyed {
    let new = SymmetricKey.random()
    let deviceState = try device.read()
    guard let own = header.device(for: deviceState.deviceSecret) else {
      throw VaultError.otherDevice
    }
    let authorizer = try rotationAuthorizer(currentCode: currentCode)
    let enrollment = try Enrollment.key(code: recoveryCode, vaultID: vaultID)
    let writer = try KeyHandoff.writer(
      deviceSecret: deviceState.deviceSecret, vaultID: vaultID, newKey: new)
    let signer = try currentWriter(own, deviceState)
    let rotation = Rotation(
      old: old, new: new, own: own, deviceState: deviceState, enrollment: enrollment,
      writer: writer, journal: SealedBox.keyPair())
    var updated = try rotatedHeader(
      rotation, recoveryCode: recoveryCode, signer: signer, authorizer: authorizer)
    let done = try commitRotation(rotation, header: &updated, publisher: publisher)
    if environment.crashPoint == "rekey-after-commit" { kill(getpid(), SIGKILL) }
    if environment.crashPoint == "rekey-interrupt-after-commit" { kill(getpid(), SIGINT) }
    header = updated
    headerBody = done.body
    headerMAC = done.mac
    verifiedState = done.next
    try device.update { state in
      recordAuthenticatedHeader(in: &state)
      if let next = done.next {
        state.states[vaultID.hex] = RememberedState(generation: next.generation, mac: next.mac)
      }
      let sequence = state.writers[vaultID.hex]?.sequence ?? 0
      state.writers[vaultID.hex] = WriterRecord(
        deviceID: own.deviceID, secretKey: rotation.writer.secretKey, sequence: sequence)
    }
    SessionLedger(environment: environment).revokeAll(
      vaultID: vaultID, vaultPath: path, reason: .rotation)
    return Rekeyed(
      masterKey: new, records: done.records, chunks: done.chunks,
      devices: updated.devices.count, deviceIDs: updated.devices.map(\.deviceIDBytes.hex),
      droppedPending: done.droppedPending, published: done.published)
  }

  /// The keys one rotation makes, and this device as it was before.
  private struct Rotation {
    let old: SymmetricKey
    let new: SymmetricKey
    /// This device's record in the header.
    let own: DeviceRecord
    let deviceState: DeviceState
    /// The new code's enrollment key pair.
    let enrollment: SigningKeyPair
    /// This device's new writer key.
    let writer: SigningKeyPair
    /// The new journal key pair.
    let journal: (publicKey: [UInt8], secretKey: SecureBytes)
  }

  /// What the transaction of a rotation wrote.
  private struct CommittedRotation {
    var body: [UInt8] = []
    var mac: [UInt8] = []
    var next: StateLink?
    var records = 0
    var chunks = 0
    var droppedPending = 0
    var published: String?
  }

  /// The code in force's enrollment key, which authorizes the link other devices take the new
  /// key by.
  ///
  /// Only the code in force admits devices, so a record it did not enroll is never sealed the
  /// key. Nil for a vault without enrollments, or one only this device holds.
  ///
  /// - Throws: `.integrity` for a device record not enrolled; `.wrongRecoveryCode` for a
  ///   `currentCode` that is not the code in force; `RekeyError.codeInForceNeeded` when it is
  ///   needed and missing.
  private func rotationAuthorizer(currentCode: SecureBytes?) throws -> SigningKeyPair? {
    guard header.enrollmentKey != nil else { return nil }
    try header.verifyEnrollments()
    if let currentCode { return try checkedEnrollmentKey(code: currentCode) }
    if needsCurrentCode {
      throw RekeyError.codeInForceNeeded
    }
    return nil
  }

  /// This device's writer key as the header knows it: the link other devices take the new key
  /// by is signed with the writer key they know.
  ///
  /// - Throws: `.integrity` when the device state's writer key is not the header's.
  private func currentWriter(_ own: DeviceRecord, _ deviceState: DeviceState) throws
    -> SigningKeyPair
  {
    guard let held = deviceState.writers[vaultID.hex], held.deviceID == own.deviceID,
      let signer = try? held.keyPair(), signer.publicKey.base64 == own.writerKey
    else {
      throw VaultError.integrity(.keys(.writerKeyNotHeaders))
    }
    return signer
  }

  /// The header under the new key: every device's master box sealed again, the recovery slot of
  /// the new code and the devices enrolled by it, this device's new writer key and slot tag, the
  /// new journal keys, and the signed handoff link (the rotations and retired writers are the
  /// transaction's to set).
  private func rotatedHeader(
    _ rotation: Rotation, recoveryCode: SecureBytes, signer: SigningKeyPair,
    authorizer: SigningKeyPair?
  ) throws -> Header {
    let (old, new) = (rotation.old, rotation.new)
    var updated = header
    updated.devices = try header.devices.map {
      try $0.resealed(masterKey: new, from: old, vaultID: vaultID)
    }
    updated.recovery = try RecoverySlot.make(
      code: recoveryCode, masterKey: new, vaultID: vaultID, kdf: header.kdf)
    updated = updated.enrolled(by: rotation.enrollment)
    var mine = try rotation.own.resealed(masterKey: new, from: old, vaultID: vaultID)
    mine.writerKey = rotation.writer.publicKey.base64
    mine.slotTag = DeviceRecord.slotTag(
      deviceSecret: rotation.deviceState.deviceSecret, vaultID: vaultID, kdf: header.kdf,
      record: mine)
    updated.setDevice(Enrollment.enrolled(mine, by: rotation.enrollment, vaultID: vaultID))
    updated.journalPublicKey = rotation.journal.publicKey.base64
    updated.journalSecretKey =
      JournalStore.sealSecretKey(rotation.journal.secretKey, masterKey: new, vaultID: vaultID)
      .base64
    updated.handoffs = Array(
      ((header.handoffs ?? []) + [
        KeyHandoff.make(
          from: old, to: new, vaultID: vaultID, deviceID: rotation.own.deviceIDBytes,
          signer: signer, newWriterKey: rotation.writer.publicKey,
          newEnrollmentKey: rotation.enrollment.publicKey, authorizer: authorizer)
      ]).suffix(Header.maximumHandoffs))
    return updated
  }

  /// The one transaction of a rotation.
  ///
  /// Everything is verified under the old key, then every record, pending journal entry and
  /// chunk sealed again under the new one, the header replaced, the rotation published when the
  /// vault syncs, and a state link added that follows the old newest one. `header` gets the
  /// rotations and retired writer keys the state needs.
  ///
  /// - Throws: as `rekey`.
  private func commitRotation(
    _ rotation: Rotation, header updated: inout Header, publisher: (any RotationPublisher)?
  ) throws -> CommittedRotation {
    let (old, new) = (rotation.old, rotation.new)
    var done = CommittedRotation()
    try db.transaction {
      let base = try StateSnapshot.load(db, vaultID: vaultID, masterKey: old)
      if let verified = verifiedState {
        try requireDescendant(of: verified, base: base, masterKey: old)
      }
      // The old key stays reachable from the new one for the states kept under it, so a device
      // that saw any of them can walk back to it; rotations no kept state needs are dropped.
      updated.rotations = KeyRotation.following(
        header.rotations, from: old, to: new, vaultID: vaultID, after: base.link.generation)
      _ = try IntegrityCheck.verify(self, masterKey: old, refusingPending: false)
      let rows = try base.allRows(db: db, rowKey: old.derive(.rows))
      let sealing = try Resealing(
        vault: self, old: old, new: new, journalPublicKey: rotation.journal.publicKey)
      updated.retiredWriters = try retiredWritersKept(rotation, rows: rows, sealing: sealing)
      // Every chunk is hashed afresh under the new key, by its tag.
      updated.chunkHash = .tag
      done.body = try updated.encoded()
      done.mac = Header.mac(done.body, masterKey: new)
      let (resealedPending, dropped) = try sealing.pendingRows()
      let versions = try EntryStore(vault: self, masterKey: old).contentVersions(rows)
      let resealedRows = try rows.map(sealing.record)
      done.droppedPending = dropped
      // Chunks are sealed again in place, one content and one piece at a time.
      try db.execute("DELETE FROM records; DELETE FROM pending;")
      try db.query(
        "UPDATE header SET body = ?, mac = ? WHERE id = 1 AND body = ? AND mac = ?",
        [.blob(done.body), .blob(done.mac), .blob(headerBody), .blob(headerMAC)])
      guard db.changes == 1 else {
        throw VaultError.vaultChanged(.headerChangedFirst)
      }
      let write = StateWrite(db: db, vaultID: vaultID, masterKey: new, base: nil)
      write.setHeaderBody(done.body)
      for row in resealedRows { try write.insert(row) }
      let resealedChunks = try sealing.chunks(versions, in: write)
      for values in resealedPending {
        try db.query("INSERT INTO pending (record_id, box) VALUES (?, ?)", values)
      }
      let syncID = SyncRecord.recordID(
        deviceID: rotation.own.deviceIDBytes, indexKey: new.derive(.nameIndex))
      if let publisher, let syncRow = try write.unnamedRecord(syncID) {
        done.published = try publisher.publishRotation(
          of: self, masterKey: new, in: write, syncRow: syncRow)
      }
      done.next = try write.finish(masterKey: new, after: base.link)
      (done.records, done.chunks) = (resealedRows.count, resealedChunks)
      if environment.crashPoint == "rekey-before-commit" { kill(getpid(), SIGKILL) }
    }
    return done
  }

  /// The retired writer keys to keep: of the header's and this device's old one, only those
  /// that signed a journal entry still in the vault.
  ///
  /// - Returns: nil when none is.
  /// - Throws: `RekeyError.retiredWritersInUse` when more than the header holds are needed.
  private func retiredWritersKept(_ rotation: Rotation, rows: [RecordRow], sealing: Resealing)
    throws -> [RetiredWriter]?
  {
    let retiring =
      (header.retiredWriters ?? []) + [
        RetiredWriter(deviceID: rotation.own.deviceID, writerKey: rotation.own.writerKey)
      ]
    let kept = try sealing.writersInUse(retiring, rows: rows)
    guard kept.count <= Header.maximumRetiredWriters else {
      throw RekeyError.retiredWritersInUse(maximum: Header.maximumRetiredWriters)
    }
    return kept.isEmpty ? nil : kept
  }
}

extension Vault {
  /// Brings this device's own record up to date with the key at hand.
  ///
  /// A slot tag in the form of release 0.2.0 is written in the current form, and a writer key that is not the one this
  /// device holds (a rotation killed between its commit and the device's update) is replaced by
  /// a new one. Writes the header only when something changed.
  ///
  /// - Throws: `VaultError.vaultChanged`, `.storage`.
  func refreshOwnRecord(masterKey: SymmetricKey) throws {
    let state = try device.read()
    guard let own = header.device(for: state.deviceSecret) else { return }
    var record = own
    if let writer = state.writers[vaultID.hex], writer.deviceID == own.deviceID,
      let pair = try? writer.keyPair(), pair.publicKey.base64 != own.writerKey
    {
      let fresh = Signing.generate()
      try device.update {
        $0.writers[vaultID.hex] = WriterRecord(
          deviceID: own.deviceID, secretKey: fresh.secretKey, sequence: writer.sequence)
      }
      record.writerKey = fresh.publicKey.base64
    }
    if own.checkSlotTag(deviceSecret: state.deviceSecret, vaultID: vaultID, kdf: header.kdf)
      == .legacy
    {
      record.slotTag = DeviceRecord.slotTag(
        deviceSecret: state.deviceSecret, vaultID: vaultID, kdf: header.kdf, record: record)
    }
    guard record != own else { return }
    var updated = header
    updated.setDevice(record)
    try writeHeader(updated, masterKey: masterKey)
  }
}

/// The sealing of one vault's rows again under a new master key, as `Vault.rekey` does it.
package struct Resealing {
  let vault: Vault
  let oldBoxes: RecordBox
  let newBoxes: RecordBox
  let oldIndex: SymmetricKey
  let newIndex: SymmetricKey
  let journalSecretKey: SecureBytes
  let journalPublicKeyOld: [UInt8]
  let journalPublicKey: [UInt8]

  package init(vault: Vault, old: SymmetricKey, new: SymmetricKey, journalPublicKey: [UInt8]) throws
  {
    self.vault = vault
    oldBoxes = RecordBox(vaultID: vault.vaultID, masterKey: old)
    newBoxes = RecordBox(vaultID: vault.vaultID, masterKey: new)
    oldIndex = old.derive(.nameIndex)
    newIndex = new.derive(.nameIndex)
    let journal = try JournalStore(vault: vault, masterKey: old)
    journalSecretKey = journal.secretKey
    journalPublicKeyOld = journal.publicKey
    self.journalPublicKey = journalPublicKey
  }

  /// `row` sealed under the new key: its box, and its lookup or (for a counter) record id
  /// computed again from the new name-index subkey.
  package func record(_ row: RecordRow) throws -> RecordRow {
    guard let kind = RecordKind(rawValue: row.kind) else {
      throw VaultError.integrity(.record(.unknownKind(row.kind)))
    }
    if kind == .journal {
      var out = row
      out.box = try journalBox(row.box, recordID: row.recordID)
      out.rowid = nil
      return out
    }
    let what = "record \(row.recordID.hex.prefix(8))"
    let opened = try oldBoxes.open(row, kind: kind, what: what)
    // Entries, tombstones and counters are found by their `name` (everything was verified by
    // the integrity check of the same transaction).
    struct Named: Decodable { var name: String }
    func name() throws -> String {
      guard
        let named = try? opened.body.withBytes({
          try JSONDecoder().decode(Named.self, from: Data($0))
        })
      else { throw VaultError.integrity(.tables(.malformedRecord(id: row.recordID.hex))) }
      return named.name
    }
    var out = RecordRow(
      recordID: row.recordID, lookup: row.lookup, kind: row.kind, revision: row.revision, box: [])
    switch kind {
    case .entry, .tombstone:
      out.lookup = try lookup(name())
    case .counter:
      out.recordID = GenericHash.keyed(
        key: newIndex.bytes, parts: [DomainLabel.counterID.bytes, Array(try name().utf8)],
        outputLength: 16)
    case .revision, .settings, .journal: break
    case .sync:
      // Every file of the sync repository is named and sealed under the new key: the next push
      // replaces the whole tree.
      out.recordID = SyncRecord.recordID(deviceID: opened.deviceID, indexKey: newIndex)
      var record = try SyncRecord(decoding: opened.body)
      record.full = true
      var body = try record.encoded()
      defer { wipe(&body) }
      out.box = newBoxes.seal(
        body, recordID: out.recordID, kind: kind, revision: row.revision,
        deviceID: opened.deviceID, hlc: opened.hlc)
      return out
    }
    var body = opened.body.unprotectedBytes
    defer { wipe(&body) }
    out.box = newBoxes.seal(
      body, recordID: out.recordID, kind: kind, revision: row.revision, deviceID: opened.deviceID,
      hlc: opened.hlc)
    return out
  }

  private func lookup(_ name: String) throws -> [UInt8] {
    GenericHash.keyed(
      key: newIndex.bytes, parts: [DomainLabel.name.bytes, Array(try EntryName(name).value.utf8)])
  }

  /// The writer keys of `candidates` that verify the signature of at least one journal entry
  /// among `rows`.
  ///
  /// - Throws: `VaultError.integrity` when a journal entry does not open.
  func writersInUse(_ candidates: [RetiredWriter], rows: [RecordRow]) throws -> [RetiredWriter] {
    var used: [RetiredWriter] = []
    var left = candidates
    for row in rows where row.kind == RecordKind.journal.rawValue && !left.isEmpty {
      let plain = try open(row.box, recordID: row.recordID)
      left.removeAll { candidate in
        guard let key = try? [UInt8](base64: candidate.writerKey, count: 32, field: "writer_key")
        else { return true }
        let signed =
          (try? SignedJournalRecord.decodeVerified(
            plain, vaultID: vault.vaultID, entryID: row.recordID
          ) { writer in writer.base64 == candidate.deviceID ? [key] : [] }) != nil
        if signed { used.append(candidate) }
        return signed
      }
    }
    return candidates.filter { used.contains($0) }
  }

  private func open(_ box: [UInt8], recordID: [UInt8]) throws -> SecureBytes {
    do {
      return try SealedBox.open(
        box, publicKey: journalPublicKeyOld, secretKey: journalSecretKey, what: "journal entry")
    } catch {
      throw VaultError.integrity(.journalEntry(.failedAuthentication(recordID: recordID)))
    }
  }

  /// The pending journal rows sealed to the new journal key, ready to insert again.
  ///
  /// A row the old journal key opens is carried over (and still refused by `check` when no
  /// authorized writer signed it); one it does not open, nobody can read: dropped.
  ///
  /// - Returns: each row's values (record id, box), and how many were dropped.
  /// - Throws: `VaultError.storage` when the rows cannot be read.
  package func pendingRows() throws -> (rows: [[SQLiteDatabase.Value]], dropped: Int) {
    let pending = try vault.db.query("SELECT record_id, box FROM pending")
    let rows = pending.compactMap { values -> [SQLiteDatabase.Value]? in
      guard let id = values[0].blob, let box = values[1].blob,
        let resealed = try? journalBox(box, recordID: id)
      else { return nil }
      return [.blob(id), .blob(resealed)]
    }
    return (rows, pending.count - rows.count)
  }

  /// A journal entry's sealed box opened with the old journal key and sealed to the new one.
  package func journalBox(_ box: [UInt8], recordID: [UInt8]) throws -> [UInt8] {
    try open(box, recordID: recordID).withBytes { SealedBox.seal($0, to: journalPublicKey) }
  }

  /// Seals every chunk again under the new key in place (same record id, revision and index)
  /// in `write`, which starts from no aggregate: each content version of `versions` in its
  /// layout, a stream as a new stream piece by piece.
  ///
  /// - Returns: the number of chunks sealed again.
  /// - Throws: `VaultError.integrity` when a chunk does not open or a chunk belongs to no
  ///   version.
  package func chunks(_ versions: [ContentVersion: EntryMetadata], in write: StateWrite) throws
    -> Int
  {
    var count = 0
    let reader = ContentChunks(db: vault.db, boxes: oldBoxes)
    let select = try vault.db.prepare(
      "SELECT box FROM chunks WHERE record_id = ? AND revision = ? AND idx = ?"
        + " AND length(box) <= \(ContentChunks.maximumBoxSize)")
    for (version, metadata) in versions {
      let what = "the content of '\(metadata.name)'"
      if metadata.streamed {
        let sealer = StreamSealer(
          boxes: newBoxes, recordID: version.recordID, revision: version.revision,
          contentID: metadata.contentID ?? []
        ) {
          try write.resealInPlace($0)
          count += 1
        }
        try reader.read(
          recordID: version.recordID, revision: version.revision, contentID: metadata.contentID,
          length: metadata.length, streamed: true, name: metadata.name
        ) { try sealer.append($0) }
        _ = try sealer.finish()
        continue
      }
      let total = metadata.chunks
      for index in 0..<total {
        guard
          let box = try select.first([
            .blob(version.recordID), .integer(version.revision), .integer(Int64(index)),
          ])?.first?.blob
        else {
          throw VaultError.integrity(.content(name: metadata.name, .missingOrExtraChunks))
        }
        let ad = oldBoxes.chunkAD(
          recordID: version.recordID, revision: version.revision, index: index,
          final: index == total - 1, contentID: metadata.contentID)
        let plain = try AEAD.open(box, key: oldBoxes.key, associatedData: ad, what: what)
        try write.resealInPlace(
          ChunkRow(
            recordID: version.recordID, revision: version.revision, index: Int64(index),
            box: plain.withBytes { AEAD.seal($0, key: newBoxes.key, associatedData: ad) }))
        count += 1
      }
    }
    let stored = try vault.db.query("SELECT count(*) FROM chunks").first?.first?.integer
    guard stored == Int64(count) else {
      throw VaultError.integrity(.tables(.chunksOfNoVersion))
    }
    return count
  }
}
