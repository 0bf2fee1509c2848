import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

extension VaultSync {
  /// What the remote's state file says of a rotation made elsewhere: nil when it opens under
  /// this device's key, has no `handoff`, or its newest link ends at this device's key (the
  /// sync verifies it then as any remote).
  func rotationElsewhere(_ remote: String) throws -> (
    state: [UInt8], handoff: SyncStateFile.Handoff
  )? {
    guard let bytes = try stateFileBytes(of: remote),
      let publicPart = try? SyncStateFile.readPublic(bytes), publicPart.vaultID == vault.vaultID,
      let handoff = publicPart.handoff, let last = handoff.links.last,
      last.next != KeyHandoff.commitment(masterKey, vaultID: vault.vaultID).base64,
      (try? SyncStateFile.open(bytes, codec: codec)) == nil
    else { return nil }
    return (bytes, handoff)
  }

  /// Takes the master key another device rotated to (`vault(5)` Taking a rotation): walks the
  /// signed links from this device's key, opens the box sealed to this device, verifies the
  /// remote's whole tree under the new key, then seals this vault again under it in one write,
  /// keeping as the remote's file every record and content the base and the remote share, and
  /// commits the base so translated, which becomes the base.
  ///
  /// - Returns: the new key, and a line for each revocation made here that the rotation did not
  ///   carry (`vault(5)` Taking a rotation).
  /// - Throws: `VaultError.rotatedElsewhere` when no PIN unlock opened this device's secret key
  ///   in this process; `.syncRefused` for a chain or remote that does not verify, or one that
  ///   revoked this device; `.conflict` when this device rotated the key too and has not pushed
  ///   it; the errors of a write.
  func takeRotation(
    _ remote: String, state stateBytes: [UInt8], handoff: SyncStateFile.Handoff,
    record: SyncRecord?
  ) throws -> (key: SymmetricKey, notes: [String]) {
    let signer = handoff.links.last.flatMap { try? [UInt8](base64: $0.deviceID, field: "") }
    let signerName = "by device \(signer.map { String($0.hex.prefix(8)) } ?? "?")"
    guard let record else {
      throw VaultError.syncRefused(
        "its master key was rotated \(signerName) and this device never synced; run 'vault"
          + " sync clone' into a new vault file")
    }
    if record.full {
      throw VaultError.conflict(
        "this device and another (\(signerName)) both rotated the vault's master key since the"
          + " last sync; nothing was changed")
    }
    guard let secretKey = vault.deviceSecretKey else {
      throw VaultError.rotatedElsewhere(signerName)
    }
    guard let own = vault.localDevice else {
      throw VaultError.locked("this device has no record in the vault's header")
    }
    let vaultID = vault.vaultID
    let deviceState = try vault.device.read()
    guard let enrollmentKey = vault.header.enrollmentKey else {
      throw VaultError.syncRefused(Self.notEnrolled)
    }
    let (new, newEnrollmentKey) = try Self.refusing {
      () throws -> (key: SymmetricKey, enrollmentKey: [UInt8]) in
      guard handoff.links.count <= Header.maximumHandoffs,
        handoff.masterBoxes.count <= Header.maximumDevices
      else {
        throw VaultError.integrity("its state file's handoff is longer than any vault writes")
      }
      var trusted: [String: [UInt8]] = [:]
      for device in vault.header.devices {
        trusted[device.deviceID] = try? [UInt8](
          base64: device.writerKey, count: 32, field: "writer_key")
      }
      return try KeyHandoff.walk(
        handoff.links, from: masterKey, vaultID: vaultID, trusted: trusted,
        enrollmentKey: enrollmentKey,
        ownWriter: { deviceID, next in
          guard deviceID == own.deviceID else { return nil }
          return try? KeyHandoff.writer(
            deviceSecret: deviceState.deviceSecret, vaultID: vaultID, next: next
          ).publicKey
        },
        masterBoxes: handoff.masterBoxes
      ) { box in
        var candidate = own
        candidate.masterBox = box
        return try? candidate.openMasterKey(secretKey: secretKey, vaultID: vaultID)
      }
    }
    let newCodec = SyncFiles(vaultID: vaultID, masterKey: new)
    let tree = try Self.readWhole(
      remote, stateBytes: stateBytes, codec: newCodec, masterKey: new, repository: repository)
    guard tree.state.vector.includes(record.vector) else {
      throw VaultError.syncRefused(Self.older(than: record.base))
    }
    // Everything the new key must open is checked before anything is written: the devices the
    // new code enrolled, the journal key pair, and every record of the tree.
    try Self.refusing {
      guard let enrolled = tree.header.enrollmentKey,
        constantTimeEqual(enrolled, newEnrollmentKey)
      else {
        throw VaultError.integrity(
          "its header's enrollment key is not the one its newest rotation authorized")
      }
      try tree.header.verifyEnrollments()
      let journalBox = try [UInt8](
        base64: tree.header.journalSecretKey, field: "journal_secret_key")
      let journalSecret = try AEAD.open(
        journalBox, key: new.derive(.journal),
        associatedData: DomainLabel.journalKey.bytes + vaultID.bytes,
        what: "the journal key of the remote's header")
      let journalPublic = try [UInt8](
        base64: tree.header.journalPublicKey, count: SealedBox.publicKeyByteCount,
        field: "journal_public_key")
      let probe = [UInt8](repeating: 7, count: 16).withUnsafeBytes {
        SealedBox.seal($0, to: journalPublic)
      }
      guard
        (try? SealedBox.open(
          probe, publicKey: journalPublic, secretKey: journalSecret, what: "journal entry")) != nil
      else { throw VaultError.integrity("the journal keys of the remote's header do not match") }
      let checker = RecordBox(vaultID: vaultID, masterKey: new)
      for file in tree.records {
        guard let kind = RecordKind(rawValue: file.row.kind) else {
          throw VaultError.integrity("it holds a record of an unknown kind")
        }
        if kind == .journal {
          guard
            (try? SealedBox.open(
              file.row.box, publicKey: journalPublic, secretKey: journalSecret,
              what: "journal entry"))
              != nil
          else { throw VaultError.integrity("a journal entry of the remote does not open") }
        } else {
          _ = try checker.open(file.row, kind: kind, what: "a record of the remote")
        }
      }
    }
    if tree.header.revokedDevices?.contains(own.deviceID) == true {
      throw VaultError.syncRefused(
        "another device revoked this one (\(own.deviceIDBytes.hex.prefix(8))) from the vault")
    }
    // A rotation carries every device the code admitted and did not revoke: one it dropped was
    // dropped by whoever held the new key, and taking it would shut that device out.
    let revokedThere = Set(tree.header.revokedDevices ?? [])
    if let dropped = vault.header.devices.first(where: {
      $0.deviceID != own.deviceID && tree.header.device(id: $0.deviceID) == nil
        && !revokedThere.contains($0.deviceID)
    }) {
      throw VaultError.syncRefused(
        "its header dropped the device record \(dropped.deviceIDBytes.hex.prefix(8)) without a"
          + " revocation (a device that held the master key removed it)")
    }
    guard let theirsOfMine = tree.header.device(id: own.deviceID) else {
      throw VaultError.syncRefused("its header has no record of this device")
    }
    // A rotation this device made and pushed, killed before it recorded it: the writer key it
    // gave this device is made again from the device secret.
    let derived = try KeyHandoff.writer(
      deviceSecret: deviceState.deviceSecret, vaultID: vaultID, newKey: new)
    let ownWriter = theirsOfMine.writerKey == derived.publicKey.base64 ? derived : nil
    // The base as this device synced it, under the old key.
    let baseFiles = try repository.changes(from: nil, to: record.base).filter {
      Self.isSynced($0.path)
    }
    let baseBlobs = try repository.read(baseFiles.compactMap(\.newBlob))
    var baseRows: [[UInt8]: RecordRow] = [:]
    var baseContents: [SyncFiles.Content] = []
    for file in baseFiles {
      guard let blob = file.newBlob, let bytes = baseBlobs[blob] else {
        throw VaultError.syncFailed("git did not give the file \(file.path)")
      }
      if file.path.hasPrefix(SyncFiles.recordsFolder + "/") {
        let row = try codec.openRecord(path: file.path, bytes: bytes)
        baseRows[row.recordID] = row
      } else {
        baseContents.append(try codec.openContent(path: file.path, bytes: bytes))
      }
    }
    var remoteRows: [[UInt8]: (path: String, bytes: [UInt8], row: RecordRow)] = [:]
    for file in tree.records { remoteRows[file.row.recordID] = file }
    var remoteContents: [String: (bytes: [UInt8], content: SyncFiles.Content)] = [:]
    for file in tree.contents { remoteContents[file.path] = (file.bytes, file.content) }
    let newBoxes = RecordBox(vaultID: vaultID, masterKey: new)
    guard let journalKey = try? [UInt8](base64: tree.header.journalPublicKey, count: 32, field: "")
    else { throw VaultError.syncRefused("its header's journal key is malformed") }
    // The translated base: a record file the remote holds unchanged is the remote's.
    var translated: [[UInt8]: (path: String, bytes: [UInt8], row: RecordRow)] = [:]
    var next: StateLink?
    var unpublished: [String] = []
    var headerBody: [UInt8] = []
    var headerMAC: [UInt8] = []
    try vault.db.transaction {
      let base = try StateSnapshot.load(vault.db, vaultID: vaultID, masterKey: masterKey)
      if let verified = vault.verifiedState {
        try vault.requireDescendant(of: verified, base: base, masterKey: masterKey)
      }
      let sealing = try Resealing(
        vault: vault, old: masterKey, new: new, journalPublicKey: journalKey)
      for (id, row) in baseRows {
        let resealed = try sealing.record(row)
        if let theirs = remoteRows[resealed.recordID],
          Self.sameVersion(row, boxes, theirs.row, newBoxes)
        {
          translated[id] = theirs
        } else {
          let (path, bytes) = newCodec.sealRecord(resealed)
          translated[id] = (path, bytes, resealed)
        }
      }
      let rows = try base.allRows(db: vault.db, rowKey: masterKey.derive(.rows)).filter {
        $0.kind != RecordKind.sync.rawValue
      }
      let localRows = try rows.map { row -> RecordRow in
        if let before = baseRows[row.recordID], row.isStored(as: before),
          let same = translated[row.recordID]
        {
          return same.row
        }
        return try sealing.record(row)
      }
      let versions = try EntryStore(vault: vault, masterKey: masterKey).contentVersions(rows)
      var header = tree.header
      // This device's own record, its biometric seal moved to the new key (the rotating
      // device sealed its copy of this record's again, but this one is the one in force here).
      var mine = try own.resealedBiometry(masterKey: new, from: masterKey, vaultID: vaultID)
      mine.masterBox = theirsOfMine.masterBox
      mine.enrollment = theirsOfMine.enrollment
      mine.enrollmentSerial = theirsOfMine.enrollmentSerial
      if ownWriter != nil {
        mine.writerKey = theirsOfMine.writerKey
        mine.slotTag = DeviceRecord.slotTag(
          deviceSecret: deviceState.deviceSecret, vaultID: vaultID, kdf: header.kdf, record: mine)
      }
      header.setDevice(mine)
      // A revocation made here and not yet pushed was signed with the old code's key, which the
      // new one does not verify: it is not carried, and the user is told to make it again.
      let carried = Set(header.revokedDevices ?? [])
      unpublished = (vault.header.revokedDevices ?? []).filter { !carried.contains($0) }
      header.rotations = KeyRotation.following(
        vault.header.rotations, from: masterKey, to: new, vaultID: vaultID,
        after: base.link.generation)
      header.chunkHash = .tag
      // This device's record as the new code enrolled it (its key pair unchanged here).
      try Self.refusing { try header.verifyEnrollments() }
      headerBody = try header.encoded()
      headerMAC = Header.mac(headerBody, masterKey: new)
      let pending = try vault.db.query("SELECT record_id, box FROM pending")
      let resealedPending = pending.compactMap { values -> [SQLiteDatabase.Value]? in
        guard let id = values[0].blob, let box = values[1].blob,
          let resealed = try? sealing.journalBox(box, recordID: id)
        else { return nil }
        return [.blob(id), .blob(resealed)]
      }
      // Contents the remote holds at the same place are the remote's boxes; the others are
      // sealed again here.
      var held: [ContentVersion: EntryMetadata] = [:]
      var taken: [ContentVersion: SyncFiles.Content] = [:]
      for (version, metadata) in versions {
        let path = newCodec.contentPath(
          recordID: version.recordID, revision: version.revision, contentID: metadata.contentID)
        if let theirs = remoteContents[path] {
          taken[version] = theirs.content
        } else {
          held[version] = metadata
        }
      }
      for version in taken.keys {
        try vault.db.query(
          "DELETE FROM chunks WHERE record_id = ? AND revision = ?",
          [.blob(version.recordID), .integer(version.revision)])
      }
      try vault.db.execute("DELETE FROM records; DELETE FROM pending;")
      try vault.db.query(
        "UPDATE header SET body = ?, mac = ? WHERE id = 1 AND body = ? AND mac = ?",
        [.blob(headerBody), .blob(headerMAC), .blob(vault.headerBody), .blob(vault.headerMAC)])
      guard vault.db.changes == 1 else {
        throw VaultError.vaultChanged("another command changed its header first")
      }
      let write = StateWrite(db: vault.db, vaultID: vaultID, masterKey: new, base: nil)
      write.setHeaderBody(headerBody)
      for row in localRows { try write.insert(row) }
      _ = try sealing.chunks(held, in: write)
      for (_, content) in taken {
        for (index, box) in content.boxes.enumerated() {
          try write.insert(
            ChunkRow(
              recordID: content.recordID, revision: content.revision, index: Int64(index),
              box: box))
        }
      }
      for values in resealedPending {
        try vault.db.query("INSERT INTO pending (record_id, box) VALUES (?, ?)", values)
      }
      // The translated base, committed after the base: the files of the base the remote holds
      // unchanged are the remote's, the others sealed again (a content from the chunks here).
      var files: [(path: String, bytes: [UInt8])] = translated.values.map { ($0.path, $0.bytes) }
      for content in baseContents {
        let path = newCodec.contentPath(
          recordID: content.recordID, revision: content.revision, contentID: content.contentID)
        if let theirs = remoteContents[path] {
          files.append((path, theirs.bytes))
          continue
        }
        let boxes = try vault.db.query(
          "SELECT box FROM chunks WHERE record_id = ? AND revision = ? ORDER BY idx",
          [.blob(content.recordID), .integer(content.revision)]
        ).compactMap { $0[0].blob }
        guard boxes.count == content.boxes.count else { continue }
        var resealed = content
        resealed.boxes = boxes
        files.append((path, newCodec.sealContent(resealed, path: path)))
      }
      var sum = Aggregate.zero
      for file in files { sum.add(newCodec.hash(path: file.path, bytes: file.bytes)) }
      let published = try Header.published(headerBody)
      let state = SyncStateFile(
        publicPart: SyncStateFile.Public(header), header: published,
        headerMAC: Header.mac(published, masterKey: new), files: sum.bytes,
        vector: record.vector)
      files.append((SyncFiles.statePath, try state.encoded(with: newCodec)))
      files.append((SyncFiles.attributes.path, Array(SyncFiles.attributes.text.utf8)))
      let commit = try repository.commit(
        after: record.base, replacingAll: true, writing: files.sorted { $0.path < $1.path },
        removing: [])
      try repository.keep(commit)
      let syncID = SyncRecord.recordID(deviceID: deviceID, indexKey: new.derive(.nameIndex))
      let translatedRecord = SyncRecord(
        base: commit, files: sum.bytes, vector: record.vector,
        buckets: write.buckets.flatMap(\.bytes), marked: Array(0..<StateSnapshot.bucketCount),
        full: false, header: nil)
      var body = try translatedRecord.encoded()
      defer { wipe(&body) }
      let hlc = RecordBox.hlc(now: vault.environment.clock.wallNow, after: nil)
      try write.insert(
        RecordRow(
          recordID: syncID, lookup: nil, kind: RecordKind.sync.rawValue, revision: 1,
          box: newBoxes.seal(
            body, recordID: syncID, kind: .sync, revision: 1, deviceID: deviceID, hlc: hlc)))
      next = try write.finish(masterKey: new, after: base.link)
      if vault.environment.crashPoint == "take-rotation-before-commit" { kill(getpid(), SIGKILL) }
    }
    try vault.adopt(header: headerBody, mac: headerMAC, state: next)
    if let ownWriter {
      try vault.device.update {
        let sequence = $0.writers[vaultID.hex]?.sequence ?? 0
        $0.writers[vaultID.hex] = WriterRecord(
          deviceID: own.deviceID, secretKey: ownWriter.secretKey, sequence: sequence)
      }
    }
    try SessionStore(environment: vault.environment).revokeAll(
      vaultID: vaultID, vaultPath: vault.path, reason: .rotation)
    let notes = unpublished.map { id in
      let short = Header.shortHex(id)
      return "vault: note: the revocation of device \(short) made here before the rotation"
        + " \(signerName) did not reach the vault: revoke it again ('vault sync revoke \(short)')"
    }
    return (new, notes)
  }

  /// True when `old` (sealed under `oldBoxes`) and `new` (under `newBoxes`) are one version.
  ///
  /// The same record id (for a counter, the same name), kind and revision, and for a record
  /// that can change in place the same writing device, clock and body. Journal entries and
  /// revisions never change in place.
  static func sameVersion(
    _ old: RecordRow, _ oldBoxes: RecordBox, _ new: RecordRow, _ newBoxes: RecordBox
  ) -> Bool {
    guard old.kind == new.kind, old.revision == new.revision,
      let kind = RecordKind(rawValue: old.kind)
    else { return false }
    if kind == .journal || kind == .revision { return old.recordID == new.recordID }
    guard let a = try? oldBoxes.open(old, kind: kind, what: "a record"),
      let b = try? newBoxes.open(new, kind: kind, what: "a record")
    else { return false }
    return a.deviceID == b.deviceID && a.hlc == b.hlc
      && a.body.withBytes { x in b.body.withBytes { y in constantTimeEqual(Array(x), Array(y)) } }
  }
}

extension Vault {
  /// Records a header and state written under a new master key by this process (a rotation
  /// taken from another device): the file's header as this `Vault` knows it, and on the device
  /// the header as authenticated and the state as the latest seen.
  ///
  /// - Throws: `.storage` when the device state cannot be written.
  func adopt(header body: [UInt8], mac: [UInt8], state: StateLink?) throws {
    header = try Header.parse(body)
    headerBody = body
    headerMAC = mac
    verifiedState = state
    try device.update { device in
      recordAuthenticatedHeader(in: &device)
      if let state {
        device.states[vaultID.hex] = RememberedState(generation: state.generation, mac: state.mac)
      }
    }
  }
}

extension VaultSync {
  /// Publishes a master-key rotation from inside its transaction, before it commits.
  ///
  /// See `vault(5)` Taking a rotation: the whole tree under the new key, committed after the
  /// remote's commit, which must still be this device's base, and pushed; then this device's
  /// sync record names the pushed commit. So the rotation commits here only once the remote has
  /// it, and no other device can push under the old key in between.
  ///
  /// This sync is under the new key; `write` holds the rotated rows, `syncRow` this device's
  /// sync record sealed again.
  ///
  /// - Returns: the pushed commit.
  /// - Throws: `VaultError.remoteMoved` when the remote moved since the base (sync, then
  ///   rotate again: nothing is changed); `.syncFailed` when git or the remote fails.
  func publishRotation(in write: StateWrite, syncRow: RecordRow) throws -> String {
    let record = try openRecord(syncRow)
    let remote = try repository.fetch()
    guard remote == record.base else {
      throw VaultError.remoteMoved(
        "the sync remote moved since this device's last sync; nothing was rotated (the old"
          + " recovery code still works)")
    }
    try write.delete(syncRow)
    let local = try localChanges(in: write, record: nil, syncRow: nil, base: nil)
    guard
      let push = try pushPlan(
        local, in: write, target: remote, full: true, incoming: nil, record: record)
    else { throw VaultError.storage("a rotation left nothing to push") }
    let commit = try repository.commit(
      after: remote, replacingAll: true, writing: push.writing, removing: push.removing)
    switch try repository.push(commit, over: remote) {
    case .pushed: break
    case .moved:
      throw VaultError.remoteMoved(
        "the sync remote moved while the rotation was pushed; nothing was rotated (the old"
          + " recovery code still works)")
    case .locked(let path, let age):
      throw VaultError.syncFailed(
        Self.lockInTheWay(path: path, age: age) + "; nothing was rotated (the old recovery code"
          + " still works)")
    }
    crash(at: "rekey-after-push")
    let next = SyncRecord(
      base: commit, files: push.files, vector: push.vector,
      buckets: write.buckets.flatMap(\.bytes), marked: [], full: false,
      header: SyncRecord.headerDigest(write.headerBody))
    try write.insert(try sealRecord(next, replacing: syncRow))
    return commit
  }
}
