import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

extension VaultSync {
  /// What the write of a take made: the new header and state, and the revocations it did not
  /// carry.
  struct TakenRotation {
    var headerBody: [UInt8] = []
    var headerMAC: [UInt8] = []
    var next: StateLink?
    var unpublished: [String] = []
  }

  /// The one transaction of a take: this vault sealed again under the new key (the records and
  /// contents the remote holds unchanged taken as the remote's), the header the remote carries
  /// with this device's record, the pending journal entries, and the base translated and
  /// committed as the new base.
  ///
  /// - Throws: `.vaultChanged` when another command changed the header first; the errors of a
  ///   write and of git.
  func commitTaken(_ take: RotationTake) throws -> TakenRotation {
    var done = TakenRotation()
    let vaultID = vault.vaultID
    let new = take.masterKey
    guard
      let journalKey = try? [UInt8](base64: take.tree.header.journalPublicKey, count: 32, field: "")
    else { throw SyncError.refused(.journalKeyMalformed) }
    var remoteRows: [[UInt8]: (path: String, bytes: [UInt8], row: RecordRow)] = [:]
    for file in take.tree.records { remoteRows[file.row.recordID] = file }
    var remoteContents: [String: (bytes: [UInt8], content: SyncFiles.Content)] = [:]
    for file in take.tree.contents { remoteContents[file.path] = (file.bytes, file.content) }
    try vault.db.transaction {
      let base = try StateSnapshot.load(vault.db, vaultID: vaultID, masterKey: masterKey)
      if let verified = vault.verifiedState {
        try vault.requireDescendant(of: verified, base: base, masterKey: masterKey)
      }
      let sealing = try Resealing(
        vault: vault, old: masterKey, new: new, journalPublicKey: journalKey)
      let translated = try translateBase(take, remoteRows: remoteRows, sealing: sealing)
      let rows = try base.allRows(db: vault.db, rowKey: masterKey.derive(.rows)).filter {
        $0.kind != RecordKind.sync.rawValue
      }
      let localRows = try rows.map { row -> RecordRow in
        if let before = take.base.rows[row.recordID], row.isStored(as: before),
          let same = translated[row.recordID]
        {
          return same.row
        }
        return try sealing.record(row)
      }
      let versions = try EntryStore(vault: vault, masterKey: masterKey).contentVersions(rows)
      var header: Header
      (header, done.unpublished) = try takenHeader(take, after: base.link.generation)
      done.headerBody = try header.encoded()
      done.headerMAC = Header.mac(done.headerBody, masterKey: new)
      let resealedPending = try sealing.pendingRows().rows
      // Contents the remote holds at the same place are the remote's boxes; the others are
      // sealed again here.
      var held: [ContentVersion: EntryMetadata] = [:]
      var taken: [ContentVersion: SyncFiles.Content] = [:]
      for (version, metadata) in versions {
        let path = take.codec.contentPath(
          recordID: version.recordID, revision: version.revision, contentID: metadata.contentID)
        if let theirs = remoteContents[path] {
          taken[version] = theirs.content
        } else {
          held[version] = metadata
        }
      }
      let write = try replaceContents(
        done, localRows: localRows, held: held, taken: taken, pending: resealedPending,
        sealing: sealing, masterKey: new)
      let (commit, files) = try commitTranslatedBase(
        take, translated: translated, header: header, headerBody: done.headerBody,
        remoteContents: remoteContents)
      try insertSyncRecord(take, commit: commit, files: files, in: write)
      done.next = try write.finish(masterKey: new, after: base.link)
      if vault.environment.crashPoint == "take-rotation-before-commit" { kill(getpid(), SIGKILL) }
    }
    return done
  }

  /// The base's records under the new key: a record file the remote holds unchanged is the
  /// remote's, any other is sealed again here.
  private func translateBase(
    _ take: RotationTake, remoteRows: [[UInt8]: (path: String, bytes: [UInt8], row: RecordRow)],
    sealing: Resealing
  ) throws -> [[UInt8]: (path: String, bytes: [UInt8], row: RecordRow)] {
    var translated: [[UInt8]: (path: String, bytes: [UInt8], row: RecordRow)] = [:]
    for (id, row) in take.base.rows {
      let resealed = try sealing.record(row)
      if let theirs = remoteRows[resealed.recordID],
        Self.sameVersion(row, boxes, theirs.row, take.boxes)
      {
        translated[id] = theirs
      } else {
        let (path, bytes) = take.codec.sealRecord(resealed)
        translated[id] = (path, bytes, resealed)
      }
    }
    return translated
  }

  /// The header the remote carries, with this device's own record (its biometric seal moved to
  /// the new key; the rotating device sealed its copy of this record's again, but this one is
  /// the one in force here) and the rotation link after `generation`.
  ///
  /// - Returns: the header, and the revocations made here that it does not carry: they were
  ///   signed with the old code's key, which the new one does not verify, so the user is told to
  ///   make them again.
  /// - Throws: `SyncError.refused` when this device's record as the new code enrolled it does not
  ///   verify.
  private func takenHeader(_ take: RotationTake, after generation: Int64) throws -> (
    Header, unpublished: [String]
  ) {
    let vaultID = vault.vaultID
    let new = take.masterKey
    var header = take.tree.header
    var mine = try take.start.own.resealedBiometry(
      masterKey: new, from: masterKey, vaultID: vaultID)
    mine.masterBox = take.theirsOfMine.masterBox
    mine.enrollment = take.theirsOfMine.enrollment
    mine.enrollmentSerial = take.theirsOfMine.enrollmentSerial
    if take.ownWriter != nil {
      mine.writerKey = take.theirsOfMine.writerKey
      mine.slotTag = DeviceRecord.slotTag(
        deviceSecret: take.start.deviceState.deviceSecret, vaultID: vaultID, kdf: header.kdf,
        record: mine)
    }
    header.setDevice(mine)
    let carried = Set(header.revokedDevices ?? [])
    let unpublished = (vault.header.revokedDevices ?? []).filter { !carried.contains($0) }
    header.rotations = KeyRotation.following(
      vault.header.rotations, from: masterKey, to: new, vaultID: vaultID, after: generation)
    header.chunkHash = .tag
    try Self.refusing { try header.verifyEnrollments() }
    return (header, unpublished)
  }

  /// Replaces the vault's rows under the new key: the contents the remote holds are its boxes,
  /// the others sealed again; the header row, every record, the pending journal entries.
  ///
  /// - Returns: the write, to be finished after the sync record.
  /// - Throws: `.vaultChanged` when another command changed the header first.
  private func replaceContents(
    _ done: TakenRotation, localRows: [RecordRow], held: [ContentVersion: EntryMetadata],
    taken: [ContentVersion: SyncFiles.Content], pending: [[SQLiteDatabase.Value]],
    sealing: Resealing, masterKey new: SymmetricKey
  ) throws -> StateWrite {
    for version in taken.keys {
      try vault.db.query(
        "DELETE FROM chunks WHERE record_id = ? AND revision = ?",
        [.blob(version.recordID), .integer(version.revision)])
    }
    try vault.db.execute("DELETE FROM records; DELETE FROM pending;")
    try vault.db.query(
      "UPDATE header SET body = ?, mac = ? WHERE id = 1 AND body = ? AND mac = ?",
      [
        .blob(done.headerBody), .blob(done.headerMAC), .blob(vault.headerBody),
        .blob(vault.headerMAC),
      ])
    guard vault.db.changes == 1 else {
      throw VaultError.vaultChanged(.headerChangedFirst)
    }
    let write = StateWrite(db: vault.db, vaultID: vault.vaultID, masterKey: new, base: nil)
    write.setHeaderBody(done.headerBody)
    for row in localRows { try write.insert(row) }
    _ = try sealing.chunks(held, in: write)
    for (_, content) in taken {
      for (index, box) in content.boxes.enumerated() {
        try write.insert(
          ChunkRow(
            recordID: content.recordID, revision: content.revision, index: Int64(index), box: box))
      }
    }
    for values in pending {
      try vault.db.query("INSERT INTO pending (record_id, box) VALUES (?, ?)", values)
    }
    return write
  }

  /// Commits the translated base after the base: the files of the base the remote holds
  /// unchanged are the remote's, the others sealed again (a content from the chunks here), with
  /// the state file of `header` and the base's vector.
  ///
  /// - Returns: the commit and its files aggregate.
  /// - Throws: what git throws.
  private func commitTranslatedBase(
    _ take: RotationTake, translated: [[UInt8]: (path: String, bytes: [UInt8], row: RecordRow)],
    header: Header, headerBody: [UInt8],
    remoteContents: [String: (bytes: [UInt8], content: SyncFiles.Content)]
  ) throws -> (commit: String, files: Aggregate) {
    let codec = take.codec
    var files: [(path: String, bytes: [UInt8])] = translated.values.map { ($0.path, $0.bytes) }
    for content in take.base.contents {
      let path = codec.contentPath(
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
      files.append((path, codec.sealContent(resealed, path: path)))
    }
    var sum = Aggregate.zero
    for file in files { sum.add(codec.hash(path: file.path, bytes: file.bytes)) }
    let published = try Header.published(headerBody)
    let state = SyncStateFile(
      publicPart: SyncStateFile.Public(header), header: published,
      headerMAC: Header.mac(published, masterKey: take.masterKey), files: sum.bytes,
      vector: take.start.record.vector)
    files.append((SyncFiles.statePath, try state.encoded(with: codec)))
    files.append((SyncFiles.attributes.path, Array(SyncFiles.attributes.text.utf8)))
    let commit = try repository.commit(
      after: take.start.record.base, replacingAll: true,
      writing: files.sorted { $0.path < $1.path }, removing: [])
    try repository.keep(commit)
    return (commit, sum)
  }

  /// This device's sync record under the new key, naming the translated base as its base.
  ///
  /// - Throws: the errors of a write.
  private func insertSyncRecord(
    _ take: RotationTake, commit: String, files: Aggregate, in write: StateWrite
  ) throws {
    let syncID = SyncRecord.recordID(
      deviceID: deviceID, indexKey: take.masterKey.derive(.nameIndex))
    let translatedRecord = SyncRecord(
      base: commit, files: files.bytes, vector: take.start.record.vector,
      buckets: write.buckets.flatMap(\.bytes), marked: Array(0..<StateSnapshot.bucketCount),
      full: false, header: nil)
    var body = try translatedRecord.encoded()
    defer { wipe(&body) }
    let hlc = RecordBox.hlc(now: vault.environment.clock.wallNow, after: nil)
    try write.insert(
      RecordRow(
        recordID: syncID, lookup: nil, kind: RecordKind.sync.rawValue, revision: 1,
        box: take.boxes.seal(
          body, recordID: syncID, kind: .sync, revision: 1, deviceID: deviceID, hlc: hlc)))
  }
}
