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
      throw VaultError.remoteMoved(whilePushing: false)
    }
    try write.delete(syncRow)
    let local = try localChanges(in: write, record: nil, syncRow: nil, base: nil)
    guard
      let push = try pushPlan(
        local, in: write, target: remote, full: true, incoming: nil, record: record)
    else { throw SyncError.rotationLeftNothingToPush }
    let commit = try repository.commit(
      after: remote, replacingAll: true, writing: push.writing, removing: push.removing)
    switch try repository.push(commit, over: remote) {
    case .pushed: break
    case .moved:
      throw VaultError.remoteMoved(whilePushing: true)
    case .locked(let path, let age):
      throw VaultError.syncFailed(.lockInTheWay(path: path, age: age, rotating: true))
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
