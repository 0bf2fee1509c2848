import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

extension VaultSync {
  /// Takes the master key another device rotated to (`vault(5)` Taking a rotation): walks the
  /// signed links from this device's key, opens the box sealed to this device, verifies the
  /// remote's whole tree under the new key, then seals this vault again under it in one write,
  /// keeping as the remote's file every record and content the base and the remote share, and
  /// commits the base so translated, which becomes the base.
  ///
  /// - Returns: the new key, and a line for each revocation made here that the rotation did not
  ///   carry (`vault(5)` Taking a rotation).
  /// - Throws: `VaultError.rotatedElsewhere` when no PIN unlock opened this device's secret key
  ///   in this process; `SyncError.refused` for a chain or remote that does not verify, or one that
  ///   revoked this device; `.conflict` when this device rotated the key too and has not pushed
  ///   it; the errors of a write.
  func takeRotation(
    _ remote: String, state stateBytes: [UInt8], handoff: SyncStateFile.Handoff,
    record: SyncRecord?
  ) throws -> (key: SymmetricKey, notes: [SyncNote]) {
    let start = try rotationStart(handoff, record: record)
    let (new, newEnrollmentKey) = try walkHandoff(handoff, from: start)
    let newCodec = SyncFiles(vaultID: vault.vaultID, masterKey: new)
    let tree = try Self.readWhole(
      remote, stateBytes: stateBytes, codec: newCodec, masterKey: new, repository: repository)
    guard tree.state.vector.includes(start.record.vector) else {
      throw SyncError.refused(.rolledBack(synced: start.record.base))
    }
    // Everything the new key must open is checked before anything is written.
    try verifyTakenTree(tree, masterKey: new, enrollmentKey: newEnrollmentKey)
    let theirsOfMine = try checkMembership(in: tree.header, own: start.own)
    // A rotation this device made and pushed, killed before it recorded it: the writer key it
    // gave this device is made again from the device secret.
    let derived = try KeyHandoff.writer(
      deviceSecret: start.deviceState.deviceSecret, vaultID: vault.vaultID, newKey: new)
    let take = RotationTake(
      start: start, masterKey: new, codec: newCodec,
      boxes: RecordBox(vaultID: vault.vaultID, masterKey: new), tree: tree,
      theirsOfMine: theirsOfMine,
      ownWriter: theirsOfMine.writerKey == derived.publicKey.base64 ? derived : nil,
      base: try readBase(start.record.base))
    let committed = try commitTaken(take)
    try vault.adopt(header: committed.headerBody, mac: committed.headerMAC, state: committed.next)
    if let ownWriter = take.ownWriter {
      try vault.device.update {
        let sequence = $0.writers[vault.vaultID.hex]?.sequence ?? 0
        $0.writers[vault.vaultID.hex] = WriterRecord(
          deviceID: start.own.deviceID, secretKey: ownWriter.secretKey, sequence: sequence)
      }
    }
    SessionLedger(environment: vault.environment).revokeAll(
      vaultID: vault.vaultID, vaultPath: vault.path, reason: .rotation)
    let notes = committed.unpublished.map {
      SyncNote.revocationLost(device: Header.shortHex($0), signer: start.signer)
    }
    return (new, notes)
  }

  /// What taking a rotation needs of this device before the chain is walked.
  struct RotationStart {
    /// This device's sync record: its base commit and vector.
    let record: SyncRecord
    /// This device's record in the header.
    let own: DeviceRecord
    /// This device's secret key, opened by this process's PIN unlock.
    let secretKey: SecureBytes
    /// The device state as read once for the take.
    let deviceState: DeviceState
    /// The enrollment key of the code in force.
    let enrollmentKey: [UInt8]
    /// The hex device id of who signed the newest link; nil when it is not base64.
    let signer: String?
  }

  /// The values of one take, made before its write.
  struct RotationTake {
    let start: RotationStart
    /// The new master key.
    let masterKey: SymmetricKey
    /// The repository's files under the new key.
    let codec: SyncFiles
    /// Record boxes under the new key.
    let boxes: RecordBox
    /// The remote's whole tree, verified under the new key.
    let tree: WholeTree
    /// The remote header's record of this device.
    let theirsOfMine: DeviceRecord
    /// This device's writer key under the new key, when this device made the rotation.
    let ownWriter: SigningKeyPair?
    /// The base this device synced, under the old key.
    let base: (rows: [[UInt8]: RecordRow], contents: [SyncFiles.Content])
  }

  /// The checks before any key is walked: a sync record, no rotation of this device's own
  /// still to push, this device's secret key opened here, its record, the code's enrollment key.
  ///
  /// - Throws: `SyncError.refused`, `.conflict`, `.rotatedElsewhere`, `.locked` as `takeRotation`.
  private func rotationStart(_ handoff: SyncStateFile.Handoff, record: SyncRecord?) throws
    -> RotationStart
  {
    let signer = handoff.links.last.flatMap { try? [UInt8](base64: $0.deviceID, field: "") }?.hex
    guard let record else {
      throw SyncError.refused(.rotatedBeforeFirstSync(signer: signer))
    }
    if record.full {
      throw VaultError.conflict(.bothRotated(signer: signer))
    }
    guard let secretKey = vault.deviceSecretKey else {
      throw VaultError.rotatedElsewhere(signer: signer)
    }
    guard let own = vault.localDevice else {
      throw VaultError.locked(.noDeviceRecord)
    }
    let deviceState = try vault.device.read()
    guard let enrollmentKey = vault.header.enrollmentKey else {
      throw SyncError.refused(.notEnrolled)
    }
    return RotationStart(
      record: record, own: own, secretKey: secretKey, deviceState: deviceState,
      enrollmentKey: enrollmentKey, signer: signer)
  }

  /// Walks the handoff's signed links from this device's key to the new one, and opens the
  /// master box sealed to this device (`KeyHandoff.walk`).
  ///
  /// - Returns: the new key and the enrollment key the newest link authorized.
  /// - Throws: `SyncError.refused` for a chain that does not verify.
  private func walkHandoff(_ handoff: SyncStateFile.Handoff, from start: RotationStart) throws
    -> (key: SymmetricKey, enrollmentKey: [UInt8])
  {
    let vaultID = vault.vaultID
    return try Self.refusing {
      guard handoff.links.count <= Header.maximumHandoffs,
        handoff.masterBoxes.count <= Header.maximumDevices
      else {
        throw SyncError.refused(.handoffTooLong)
      }
      var trusted: [String: [UInt8]] = [:]
      for device in vault.header.devices {
        trusted[device.deviceID] = try? [UInt8](
          base64: device.writerKey, count: 32, field: "writer_key")
      }
      return try KeyHandoff.walk(
        handoff.links, from: masterKey, vaultID: vaultID, trusted: trusted,
        enrollmentKey: start.enrollmentKey,
        ownWriter: { deviceID, next in
          guard deviceID == start.own.deviceID else { return nil }
          return try? KeyHandoff.writer(
            deviceSecret: start.deviceState.deviceSecret, vaultID: vaultID, next: next
          ).publicKey
        },
        masterBoxes: handoff.masterBoxes
      ) { box in
        var candidate = start.own
        candidate.masterBox = box
        return try? candidate.openMasterKey(secretKey: start.secretKey, vaultID: vaultID)
      }
    }
  }

  /// Checks what the new key must open in `tree`: the devices the new code enrolled, the
  /// journal key pair, and every record.
  ///
  /// - Throws: `SyncError.refused` naming what does not verify.
  private func verifyTakenTree(
    _ tree: WholeTree, masterKey new: SymmetricKey, enrollmentKey: [UInt8]
  ) throws {
    let vaultID = vault.vaultID
    try Self.refusing {
      guard let enrolled = tree.header.enrollmentKey, constantTimeEqual(enrolled, enrollmentKey)
      else {
        throw SyncError.refused(.enrollmentKeyNotAuthorized)
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
      else {
        throw SyncError.refused(.journalKeysDoNotMatch)
      }
      let checker = RecordBox(vaultID: vaultID, masterKey: new)
      for file in tree.records {
        guard let kind = RecordKind(rawValue: file.row.kind) else {
          throw SyncError.refused(.unknownRecordKind)
        }
        if kind == .journal {
          guard
            (try? SealedBox.open(
              file.row.box, publicKey: journalPublic, secretKey: journalSecret,
              what: "journal entry"))
              != nil
          else { throw SyncError.refused(.journalEntryDoesNotOpen) }
        } else {
          _ = try checker.open(file.row, kind: kind, what: "a record of the remote")
        }
      }
    }
  }

  /// Checks that the remote's header still holds this device and every device the code
  /// admitted and did not revoke: one it dropped was dropped by whoever held the new key, and
  /// taking it would shut that device out.
  ///
  /// - Returns: the remote header's record of this device.
  /// - Throws: `SyncError.refused` when this device was revoked or is missing, or another was
  ///   dropped without a revocation.
  private func checkMembership(in header: Header, own: DeviceRecord) throws -> DeviceRecord {
    if header.revokedDevices?.contains(own.deviceID) == true {
      throw SyncError.refused(.thisDeviceRevoked(deviceID: own.deviceIDBytes.hex))
    }
    let revokedThere = Set(header.revokedDevices ?? [])
    if let dropped = vault.header.devices.first(where: {
      $0.deviceID != own.deviceID && header.device(id: $0.deviceID) == nil
        && !revokedThere.contains($0.deviceID)
    }) {
      throw SyncError.refused(.deviceDropped(deviceID: dropped.deviceIDBytes.hex))
    }
    guard let theirsOfMine = header.device(id: own.deviceID) else {
      throw SyncError.refused(.noRecordOfThisDevice)
    }
    return theirsOfMine
  }

  /// The base as this device synced it, under the old key: its record rows by id and its
  /// contents.
  ///
  /// - Throws: `.syncFailed` when git does not give a file; what opening a file throws.
  private func readBase(_ commit: String) throws -> (
    rows: [[UInt8]: RecordRow], contents: [SyncFiles.Content]
  ) {
    let files = try repository.changes(from: nil, to: commit).filter { Self.isSynced($0.path) }
    let blobs = try repository.read(files.compactMap(\.newBlob))
    var rows: [[UInt8]: RecordRow] = [:]
    var contents: [SyncFiles.Content] = []
    for file in files {
      guard let blob = file.newBlob, let bytes = blobs[blob] else {
        throw VaultError.syncFailed(.fileNotGiven(file: file.path))
      }
      if file.path.hasPrefix(SyncFiles.recordsFolder + "/") {
        let row = try codec.openRecord(path: file.path, bytes: bytes)
        rows[row.recordID] = row
      } else {
        contents.append(try codec.openContent(path: file.path, bytes: bytes))
      }
    }
    return (rows, contents)
  }
}
