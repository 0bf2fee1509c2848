import FoundationEssentials
import VaultCore
import VaultCrypto
import VaultFormat

extension VaultSync {
  /// Merges the remote's header into the vault's (`vault(5)` Synchronizing).
  ///
  /// The side that changed it since the base; when both did, the union of their device
  /// records, revocations and retired writer keys, with the other fields equal. This device's
  /// own record is always this side's, its policy set when it had none. Revoked
  /// devices keep no record. The recovery slot changes only in a rotation, and every device
  /// record and revocation of the remote's header as received, and of the merged one, must be
  /// enrolled by its code.
  ///
  /// - Throws: `SyncError.refused` when the remote revoked this device, changed the
  ///   recovery slot, or holds a device record or revocation the code did not make;
  ///   `.conflict` when both sides changed other fields.
  func mergeHeader(_ incoming: IncomingCommit?, base: String?, in write: StateWrite) throws {
    guard let incoming, incoming.state.header != (try Header.published(write.headerBody)) else {
      return
    }
    let baseHeader = try base.flatMap { try header(at: $0) }
    let localBody = write.headerBody
    let local = try Header.parse(localBody)
    let remote = try Header.parse(incoming.state.header)
    try Self.refuseChangesOutsideRotation(local: local, remote: remote, base: baseHeader)
    // As received: every record (this device's too, though the merge keeps the local copy) and
    // every revocation the code made; a remote without an enrollment key fails once merged.
    if remote.enrollmentKey != nil { try Self.refusing { try remote.verifyEnrollments() } }
    let mine = try ownRecord(local: local, remote: remote)
    var merged = try Self.mergedSettings(local: local, remote: remote, base: baseHeader)
    // Unions in the remote's order, then this side's additions: both devices reach the same
    // list, so a merged header settles instead of changing at every sync.
    var revocations = remote.revocationPairs
    for pair in local.revocationPairs
    where !revocations.contains(where: { $0.deviceID == pair.deviceID }) {
      revocations.append(pair)
    }
    merged.setRevocations(revocations)
    merged.retiredWriters = try Self.mergedRetiredWriters(
      local: local, remote: remote, revocations: revocations)
    // Rotations name generations of this device's own state chain: never another's.
    merged.rotations = local.rotations
    merged.devices = Self.mergedDevices(
      local: local, remote: remote, base: baseHeader, mine: mine,
      revoked: revocations.map(\.deviceID))
    try Self.refusing { try merged.verifyEnrollments() }
    if merged == remote {
      try write.replaceHeader(
        expecting: (localBody, write.headerMAC),
        with: (incoming.state.header, incoming.state.headerMAC))
    } else if merged != local {
      merged.chunkHash = .tag
      let body = try merged.encoded()
      try write.replaceHeader(
        expecting: (localBody, write.headerMAC),
        with: (body, Header.mac(body, masterKey: masterKey)))
    }
  }

  /// Refuses a remote header that changed what only a rotation, or no command, changes.
  ///
  /// - Throws: `SyncError.refused` naming the field.
  private static func refuseChangesOutsideRotation(
    local: Header, remote: Header, base: Header?
  ) throws {
    // Outside a rotation (taken before any merge) the recovery slot, and with it the key that
    // enrolls devices, never changes: a remote that changed it holds the master key only.
    if remote.recovery != local.recovery, base.map({ $0.recovery == local.recovery }) != false {
      throw SyncError.refused(.recoverySlotChanged)
    }
    // No command changes the KDF parameters, and only a rotation the journal keys: a remote
    // that changed them would lock every other device out, or lose the journal.
    if remote.kdf != local.kdf || remote.journalPublicKey != local.journalPublicKey
      || remote.journalSecretKey != local.journalSecretKey
      || remote.formatOneWriter != local.formatOneWriter
    {
      throw SyncError.refused(.kdfOrJournalKeysChanged)
    }
    // Only a rotation adds a link (taken before any merge): one planted outside it would be
    // the first a device walks at the next rotation, and lock it out of the new key.
    if remote.handoffs != local.handoffs {
      throw SyncError.refused(.rotationLinksChanged)
    }
    // Since release 0.11.0 each device's policy is its own and no command changes the
    // header's, which a device that joins starts with.
    if remote.policy != local.policy {
      throw SyncError.refused(.policyChanged)
    }
  }

  /// This device's record as this side has it, with the policy it unlocks under written into
  /// it: the merge keeps it from this side, so a remote that changed the header's policy cannot
  /// turn this device's biometric check on or off.
  ///
  /// - Throws: `SyncError.refused` when the remote revoked this device.
  private func ownRecord(local: Header, remote: Header) throws -> DeviceRecord? {
    var mine = local.devices.first { $0.deviceIDBytes == deviceID }
    if mine != nil, mine?.policy == nil { mine?.policy = local.policy }
    if let mine, remote.revokedDevices?.contains(mine.deviceID) == true {
      throw SyncError.refused(.thisDeviceRevoked(deviceID: mine.deviceIDBytes.hex))
    }
    return mine
  }

  /// The fields both sides share (all but devices, revocations, retired writers and
  /// rotations): the side that changed them since the base.
  ///
  /// - Returns: the remote header, or the local one when only this side changed them.
  /// - Throws: `.conflict` when both sides changed them.
  private static func mergedSettings(local: Header, remote: Header, base: Header?) throws
    -> Header
  {
    func shared(_ header: Header) -> Header {
      var out = header
      out.devices = []
      out.revokedDevices = nil
      out.revocations = nil
      out.retiredWriters = nil
      out.rotations = nil
      return out
    }
    let (l, r) = (shared(local), shared(remote))
    guard l != r else { return remote }
    if let base, shared(base) == r { return local }
    if base.map(shared) != l {
      throw VaultError.conflict(.keysChangedOnBothSides)
    }
    return remote
  }

  /// The union of both sides' retired writer keys.
  ///
  /// Outside a rotation a writer key is retired only by a revocation, which names it and which the code signed: one retired otherwise
  /// would verify entries forged under its device's id.
  ///
  /// - Returns: nil when there are none.
  /// - Throws: `SyncError.refused` for a key the remote retired without such a revocation.
  private static func mergedRetiredWriters(
    local: Header, remote: Header, revocations: [RevokedDevice]
  ) throws -> [RetiredWriter]? {
    let localRetired = local.retiredWriters ?? []
    for writer in remote.retiredWriters ?? [] where !localRetired.contains(writer) {
      guard
        revocations.contains(where: {
          $0.deviceID == writer.deviceID && $0.signed?.writerKey == writer.writerKey
        })
      else {
        let deviceID = (try? [UInt8](base64: writer.deviceID, field: "device_id")) ?? []
        throw SyncError.refused(.writerRetiredWithoutRevocation(deviceID: deviceID.hex))
      }
    }
    var retired = remote.retiredWriters ?? []
    for writer in localRetired where !retired.contains(writer) { retired.append(writer) }
    return retired.isEmpty ? nil : retired
  }

  /// The device records of the merge: the remote's order, then this side's additions, less the
  /// revoked; this device's own record from this side; of two records of one id, the later
  /// enrollment, else the one that changed since the base.
  private static func mergedDevices(
    local: Header, remote: Header, base: Header?, mine: DeviceRecord?, revoked: [String]
  ) -> [DeviceRecord] {
    var ids = remote.devices.map(\.deviceID)
    for device in local.devices where !ids.contains(device.deviceID) {
      ids.append(device.deviceID)
    }
    return ids.filter { !revoked.contains($0) }.compactMap { id -> DeviceRecord? in
      if id == mine?.deviceID { return mine }
      let (ours, theirs) = (local.device(id: id), remote.device(id: id))
      // Only a revocation, which the code signs, takes a record away: a side that dropped one
      // without it (whoever holds the master key can) does not.
      guard let theirs else { return ours }
      guard let ours else { return theirs }
      // Of two enrollments of one id, the later: a recovery replaced the other's key pair, and
      // whoever holds the master key could otherwise put the replaced record back.
      let (ourSerial, theirSerial) = (ours.enrollmentSerial ?? 0, theirs.enrollmentSerial ?? 0)
      if ourSerial != theirSerial { return ourSerial > theirSerial ? ours : theirs }
      let before = base?.device(id: id)
      if ours == theirs || ours == before { return theirs }
      if theirs == before { return ours }
      return theirs
    }
  }
}
