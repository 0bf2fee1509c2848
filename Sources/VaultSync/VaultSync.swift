import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal

/// What one sync did.
public struct SyncReport: Equatable, Sendable {
  /// Records and contents taken from the remote.
  public var received: Int
  /// Files this device's commit wrote or removed on the remote (its state file included), 0 when
  /// it pushed nothing.
  public var sent: Int
  /// The commit the vault is in step with now.
  public var commit: String
  /// Pushes refused because the remote moved meanwhile, after which the sync began again.
  public var retries: Int
  /// What the sync tells besides its counts: a revocation to make again, the conflicts the
  /// merge resolved, the purges received, in the order met.
  public var notes: [SyncNote] = []
  /// True when the remote's header changed this vault's (a device joined or was revoked, a
  /// keyslot or biometric activation changed elsewhere).
  public var headerReceived = false
  /// True when the sync took a master key another device rotated to (`vault(5)` Taking a
  /// rotation): every session of the vault was revoked.
  public var tookRotation = false
}

/// `vault sync` (`vault(5)` Synchronizing): fetch the remote, verify it, merge it record by
/// record into the vault in one write, commit this device's changes after it, push, and record
/// the new base.
///
/// Git is behind `SyncRepository`; everything that reads or writes the vault is here.
public final class VaultSync {
  /// How many times a sync begins again when the remote moved before its push.
  public static let maximumAttempts = 5
  /// How far ahead of the merging device's wall clock a version's clock may be and still rank
  /// by it, in seconds (`vault(5)` Merging).
  public static let maximumClockSkew: Double = 300

  let vault: Vault
  let masterKey: SymmetricKey
  let repository: SyncRepository
  let codec: SyncFiles
  let store: EntryStore
  let boxes: RecordBox
  let deviceID: [UInt8]
  let syncID: [UInt8]

  /// A sync of `unlocked`'s vault through `repository`.
  ///
  /// - Throws: `VaultError.locked` when this device has no record in the header.
  public convenience init(_ unlocked: UnlockedVault, repository: SyncRepository) throws {
    try self.init(vault: unlocked.vault, masterKey: unlocked.masterKey, repository: repository)
  }

  /// A sync of `vault` under `masterKey` (verified) through `repository`.
  ///
  /// - Throws: as `init(_:repository:)`.
  public init(vault: Vault, masterKey: SymmetricKey, repository: SyncRepository) throws {
    self.vault = vault
    self.masterKey = masterKey
    self.repository = repository
    codec = SyncFiles(vaultID: vault.vaultID, masterKey: masterKey)
    store = EntryStore(vault: vault, masterKey: masterKey)
    boxes = RecordBox(vaultID: vault.vaultID, masterKey: masterKey)
    guard let device = vault.localDevice else {
      throw VaultError.locked(.noDeviceRecord)
    }
    deviceID = device.deviceIDBytes
    syncID = SyncRecord.recordID(deviceID: deviceID, indexKey: masterKey.derive(.nameIndex))
  }

  /// Runs the sync.
  ///
  /// - Throws: `SyncError.refused` for a remote that does not verify or is not a
  ///   descendant of the base (nothing merged); `.syncFailed` when git or the remote fails;
  ///   `.conflict` when both sides changed the keys or policy; the errors of a write.
  public func run() throws -> SyncReport {
    // Two syncs at once (a background one and the user's) would race for git's refs: the
    // second waits for the first, then finds what it pushed.
    try repository.exclusively { try runLocked() }
  }

  /// `run`, with the repository's sync lock held.
  private func runLocked() throws -> SyncReport {
    guard vault.isEnrolled else { throw VaultError.syncFailed(.notEnrolled) }
    _ = try JournalStore(vault: vault, masterKey: masterKey).fold()
    var retries = 0
    while true {
      let remote = try repository.fetch()
      if let remote { try adoptOwnPush(remote: remote) }
      let (record, changed) = try vault.reading(masterKey: masterKey) { snapshot in
        let rows = try snapshot.rows(
          inBucket: Int(syncID[0]), db: vault.db, rowKey: masterKey.derive(.rows))
        let row = rows.first { $0.recordID == syncID && $0.kind == RecordKind.sync.rawValue }
        let record = try row.map(openRecord)
        let hasher = RowHash.Hasher(key: masterKey.derive(.rows))
        return (
          record,
          changedBuckets(
            record,
            syncRowHash: row.map { hasher.hash(table: RowHash.records, columns: $0.columns) }
          ) { snapshot.bucket($0) }
        )
      }
      if let record, remote == nil {
        throw SyncError.refused(.noVaultBranch(synced: record.base))
      }
      if let record, let remote, remote != record.base {
        try checkDescends(remote, record: record)
      }
      if let record, remote == record.base, changed.isEmpty, !record.full,
        record.header == SyncRecord.headerDigest(vault.headerBody)
      {
        return SyncReport(received: 0, sent: 0, commit: record.base, retries: retries)
      }
      if let remote, remote != record?.base, let rotation = try rotationElsewhere(remote) {
        let (new, notes) = try takeRotation(
          remote, state: rotation.state, handoff: rotation.handoff, record: record)
        var report = try VaultSync(vault: vault, masterKey: new, repository: repository)
          .runLocked()
        report.retries += retries
        report.tookRotation = true
        report.notes = notes + report.notes
        return report
      }
      let incoming = try remote.flatMap { commit in
        commit == record?.base ? nil : try verify(commit, base: record)
      }
      let plan = try merge(incoming, remote: remote, expected: record)
      crash(at: "sync-after-merge")
      guard let push = plan.push else {
        return SyncReport(
          received: plan.received, sent: 0, commit: remote ?? "", retries: retries,
          notes: plan.notes, headerReceived: plan.headerTaken)
      }
      let commit = try repository.commit(
        after: remote, replacingAll: push.replacingAll, writing: push.writing,
        removing: push.removing)
      crash(at: "sync-after-commit")
      try repository.notePush(commit)
      let outcome = try repository.push(commit, over: remote)
      if outcome == .pushed {
        crash(at: "sync-after-push")
        try recordPushed(commit, plan: plan, push: push)
        try repository.notePush(nil)
        return SyncReport(
          received: plan.received, sent: push.writing.count + push.removing.count - 1,
          commit: commit, retries: retries, notes: plan.notes,
          headerReceived: plan.headerTaken)
      }
      retries += 1
      guard retries < Self.maximumAttempts else {
        // vault never removes a lock on the remote: it may be a shared disk another machine
        // is pushing to. It says what is in the way and how to remove it.
        if case .locked(let path, let age) = outcome {
          throw VaultError.syncFailed(.lockInTheWay(path: path, age: age, rotating: false))
        }
        throw VaultError.syncFailed(.remoteKeptMoving(retries: retries))
      }
    }
  }

  /// The test-only crash points (`VaultEnvironment.crashPoint`): SIGKILL there.
  func crash(at point: String) {
    if vault.environment.crashPoint == point { kill(getpid(), SIGKILL) }
  }

  // MARK: - The sync record

  /// Forgets this device's last sync (`vault sync init` with another remote, or after the
  /// sync repository was removed): the next sync merges the remote record by record without a
  /// base, or pushes the whole vault into an empty one.
  ///
  /// - Throws: `SyncError.refused` when the remote's state does not include what this
  ///   device last synced (nothing is forgotten then); `.syncFailed`; the errors of a write.
  public func forgetBase() throws {
    // What this device synced still bounds the remote it starts again from: one that is older
    // (rolled back, or forked from before) would bring back what was removed since.
    if let last = try lastSync(), let remote = try repository.fetch(),
      let bytes = try stateFileBytes(of: remote),
      let state = try? SyncStateFile.open(bytes, codec: codec),
      !state.vector.includes(last.vector)
    {
      throw SyncError.refused(.rolledBack(synced: last.base))
    }
    try vault.write(masterKey: masterKey) { write in
      if let row = try write.unnamedRecord(syncID) { try write.delete(row) }
    }
  }

  /// This device's last sync: the base commit and its version vector; nil before the first.
  ///
  /// - Throws: `VaultError.integrity` when the sync record does not open; `.storage`.
  public func lastSync() throws -> (base: String, vector: VersionVector)? {
    try vault.reading(masterKey: masterKey) { snapshot in
      let rows = try snapshot.rows(
        inBucket: Int(syncID[0]), db: vault.db, rowKey: masterKey.derive(.rows))
      return try rows.first { $0.recordID == syncID && $0.kind == RecordKind.sync.rawValue }
        .map(openRecord).map { ($0.base, $0.vector) }
    }
  }

  func openRecord(_ row: RecordRow) throws -> SyncRecord {
    let opened = try boxes.open(row, kind: .sync, what: "this device's sync record")
    return try SyncRecord(decoding: opened.body)
  }

  func sealRecord(_ record: SyncRecord, replacing old: RecordRow?) throws -> RecordRow {
    var body = try record.encoded()
    defer { wipe(&body) }
    let revision = (old?.revision ?? 0) + 1
    let hlc = RecordBox.hlc(now: vault.environment.clock.wallNow, after: nil)
    return RecordRow(
      recordID: syncID, lookup: nil, kind: RecordKind.sync.rawValue, revision: revision,
      box: boxes.seal(
        body, recordID: syncID, kind: .sync, revision: revision, deviceID: deviceID, hlc: hlc))
  }

  /// The buckets that may hold changes since the base: every bucket without a record (or after
  /// a rotation), else those whose aggregate (this record's row left out) differs from the
  /// recorded one, and the marked ones.
  private func changedBuckets(
    _ record: SyncRecord?, syncRowHash: [UInt8]?, current: (Int) -> [UInt8]
  ) -> [Int] {
    guard let record, !record.full else { return Array(0..<StateSnapshot.bucketCount) }
    var out: [Int] = []
    for bucket in 0..<StateSnapshot.bucketCount {
      var sum = Aggregate(bytes: current(bucket)) ?? .zero
      if bucket == Int(syncID[0]), let syncRowHash { sum.subtract(syncRowHash) }
      if sum.bytes != record.bucket(bucket) || record.marked.contains(bucket) { out.append(bucket) }
    }
    return out
  }

  // MARK: - Verifying the remote

  /// True for the paths the files aggregate covers.
  static func isSynced(_ path: String) -> Bool {
    path.hasPrefix(SyncFiles.recordsFolder + "/") || path.hasPrefix(SyncFiles.contentsFolder + "/")
  }

  /// `remote`, verified against the base as `vault(5)` Synchronizing says.
  private func verify(_ remote: String, base record: SyncRecord?) throws -> IncomingCommit {
    if let record, record.full {
      throw VaultError.conflict(.syncedSinceRotationHere)
    }
    let all = try repository.changes(from: record?.base, to: remote)
    try Self.refusing { try Self.checkLayout(all) }
    let changes = all.filter { Self.isSynced($0.path) }
    guard
      let stateBlob = try repository.blobs(of: remote, paths: [SyncFiles.statePath])[
        SyncFiles.statePath]
    else { throw SyncError.refused(.noStateFile) }
    try Self.checkSizes(changes, state: stateBlob, repository: repository)
    let attributes = all.first { $0.path == SyncFiles.attributes.path }?.newBlob
    let wanted =
      [stateBlob] + (attributes.map { [$0] } ?? [])
      + changes.flatMap { [$0.oldBlob, $0.newBlob].compactMap { $0 } }
    let blobs = try repository.read(wanted)
    func bytes(_ blob: String?) throws -> [UInt8]? {
      guard let blob else { return nil }
      guard let bytes = blobs[blob] else {
        throw VaultError.syncFailed(.fileNotGiven(file: String(blob.prefix(12))))
      }
      return bytes
    }
    return try Self.refusing {
      if let attributes, try bytes(attributes) != Array(SyncFiles.attributes.text.utf8) {
        throw SyncError.refused(.foreignAttributes)
      }
      let state = try SyncStateFile.open(try bytes(stateBlob) ?? [], codec: codec)
      guard constantTimeEqual(Header.mac(state.header, masterKey: masterKey), state.headerMAC)
      else { throw SyncError.refused(.headerFailedAuthentication) }
      let header = try Header.parse(state.header)
      guard header.vaultID == vault.vaultID else {
        throw SyncError.refused(.anotherVaultsHeader)
      }
      // The public part (what a device behind a rotation reads, without the key) is the
      // sealed header's: links edited there would lock such a device out of the next rotation.
      guard state.publicPart == SyncStateFile.Public(header) else {
        throw SyncError.refused(.publicPartNotHeaders)
      }
      if let record, !state.vector.includes(record.vector) {
        throw SyncError.refused(.rolledBack(synced: record.base))
      }
      var sum = record.flatMap { Aggregate(bytes: $0.files) } ?? .zero
      for change in changes {
        if let old = try bytes(change.oldBlob) {
          sum.subtract(codec.hash(path: change.path, bytes: old))
        }
        if let new = try bytes(change.newBlob) {
          sum.add(codec.hash(path: change.path, bytes: new))
        }
      }
      guard sum.bytes == state.files else {
        throw SyncError.refused(.filesNotNamed)
      }
      var incoming = IncomingCommit(
        commit: remote, state: state, records: [:], addedContents: [:], removedContents: [:])
      for change in changes {
        let old = try bytes(change.oldBlob)
        let new = try bytes(change.newBlob)
        if change.path.hasPrefix(SyncFiles.recordsFolder + "/") {
          let name = String(change.path.split(separator: "/").last ?? "")
          if let old {
            incoming.records[name, default: SyncRecordChange()].old = (
              change.path, try codec.openRecord(path: change.path, bytes: old)
            )
          }
          if let new {
            let row = try codec.openRecord(path: change.path, bytes: new)
            try checkOpens(row)
            incoming.records[name, default: SyncRecordChange()].new = (change.path, row)
          }
        } else {
          if let old {
            incoming.removedContents[change.path] = try codec.openContent(
              path: change.path, bytes: old)
          }
          if let new {
            incoming.addedContents[change.path] = try codec.openContent(
              path: change.path, bytes: new)
          }
        }
      }
      return incoming
    }
  }

  /// Refuses a change that makes the tree other than vault writes it (`vault(5)` SYNC
  /// REPOSITORY): a file outside `records/` and `contents/` but the state file and
  /// `.gitattributes`, a file that is not a plain one (a symlink, an executable, a submodule),
  /// and a removed state file or `.gitattributes`.
  static func checkLayout(_ changes: [SyncTreeChange]) throws {
    for change in changes {
      let path = change.path
      let known =
        isSynced(path) || path == SyncFiles.statePath || path == SyncFiles.attributes.path
      guard known else {
        throw SyncError.refused(.unwrittenFile(path: path))
      }
      if change.newBlob == nil && !isSynced(path) {
        throw SyncError.refused(.missingFile(path: path))
      }
      if change.newBlob != nil && change.newMode != "100644" {
        throw SyncError.refused(.notPlainFile(path: path, mode: change.newMode))
      }
    }
  }

  /// The longest record file vault writes (a journal entry of
  /// `JournalStore.maximumByteCount`, sealed, with room to spare), in bytes.
  public static let maximumRecordFile = JournalStore.maximumByteCount + 1024 * 1024
  /// The longest state file vault writes (a header of at most 64 KiB, twice in base64 and
  /// the public part, with room to spare), in bytes.
  public static let maximumStateFile = 1024 * 1024

  /// Refuses a remote commit that does not descend from the last commit of the remote this
  /// device synced with (`vault(5)` Synchronizing): the base, or, when the base is the
  /// translated one a rotation taken here made after it, that commit's parent.
  ///
  /// Pushes never force, so every commit the branch held is an ancestor of the next. The
  /// version vector alone, sealed under the master key, a device that holds the key can forge.
  ///
  /// - Throws: `SyncError.refused`; `.syncFailed` when git fails.
  private func checkDescends(_ remote: String, record: SyncRecord) throws {
    var seen = record.base
    if try repository.kept() == seen, let parent = try repository.parent(of: seen) {
      seen = parent
    }
    guard try repository.isAncestor(seen, of: remote) else {
      throw SyncError.refused(.rolledBack(synced: seen))
    }
  }

  /// The bytes of `commit`'s state file, nil when it has none or one longer than vault writes
  /// (its size read first).
  ///
  /// - Throws: `VaultError.syncFailed` when git fails.
  func stateFileBytes(of commit: String) throws -> [UInt8]? {
    guard
      let blob = try repository.blobs(of: commit, paths: [SyncFiles.statePath])[
        SyncFiles.statePath],
      (try repository.sizes([blob])[blob] ?? 0) <= Self.maximumStateFile
    else { return nil }
    return try repository.read([blob])[blob]
  }

  /// Refuses, before any is read, a record file or state file longer than vault writes: a
  /// hostile remote cannot make a sync hold gigabytes in memory to find out. (A content file
  /// is as long as its content.)
  static func checkSizes(
    _ changes: [SyncTreeChange], state: String, repository: SyncRepository
  ) throws {
    let records = changes.filter { $0.path.hasPrefix(SyncFiles.recordsFolder + "/") }
      .compactMap(\.newBlob)
    let sizes = try repository.sizes(records + [state])
    if (sizes[state] ?? 0) > maximumStateFile {
      throw SyncError.refused(.stateFileTooLong)
    }
    if records.contains(where: { (sizes[$0] ?? 0) > maximumRecordFile }) {
      throw SyncError.refused(.recordFileTooLong)
    }
  }

  /// `body`, with an integrity failure of what the remote holds (a damaged file, a malformed
  /// header or one of another format) reported as a refused remote.
  ///
  /// - Throws: `SyncError.refused(.damaged(failure))` then; any other error as it is.
  static func refusing<R>(_ body: () throws -> R) throws -> R {
    do {
      return try body()
    } catch {
      guard let failure = VaultError(error) else { throw error }
      switch failure {
      case .integrity, .malformedHeader, .unsupportedVersion:
        throw SyncError.refused(.damaged(failure))
      default: throw error
      }
    }
  }

  /// Refuses a record whose own box does not open under the vault's key (a journal entry's is
  /// opened by the journal's checks).
  private func checkOpens(_ row: RecordRow) throws {
    guard let kind = RecordKind(rawValue: row.kind), kind != .journal else { return }
    _ = try boxes.open(row, kind: kind, what: "the record \(row.recordID.hex.prefix(8))")
  }

  // MARK: - Merging

  /// What this device has to push after a merge.
  struct Push {
    var writing: [(path: String, bytes: [UInt8])]
    var removing: [String]
    var replacingAll: Bool
    /// The files aggregate of the new commit's tree.
    var files: [UInt8]
    /// Its version vector.
    var vector: VersionVector
    /// The header body its state file holds.
    var header: [UInt8]
  }

  /// What a merge did, and what it leaves to push.
  struct Plan {
    var received: Int
    var notes: [SyncNote]
    var push: Push?
    /// The sync record the merge wrote (nil when there was no base yet).
    var recorded: SyncRecord?
    /// The bucket aggregates as the merge left them, the sync record left out.
    var buckets: [UInt8]
    /// True when the merge changed this vault's header (the remote's devices or keyslots).
    var headerTaken = false
  }

  /// The merge write: the local changes since the base, the remote's applied, the header
  /// merged, the sync record updated, and the files this device has to push.
  private func merge(_ incoming: IncomingCommit?, remote: String?, expected: SyncRecord?) throws
    -> Plan
  {
    let plan = try vault.write(masterKey: masterKey) { write -> Plan in
      let syncRow = try write.unnamedRecord(syncID)
      let record = try syncRow.map(openRecord)
      guard record?.base == expected?.base else {
        throw VaultError.vaultChanged(.anotherSync)
      }
      let baseCommit = record?.base
      let full = record?.full ?? false
      var local = try localChanges(
        in: write, record: record, syncRow: syncRow, base: full ? nil : baseCommit)
      var received = 0
      var notes: [SyncNote] = []
      if let incoming {
        (received, notes) = try apply(incoming, to: write, local: &local)
      }
      let headerBefore = write.headerBody
      try mergeHeader(incoming, base: baseCommit, in: write)
      if let incoming { notes += try Self.refusing { try checkReceived(incoming, in: write) } }
      let headerTaken = write.headerBody != headerBefore
      if let syncRow { try write.delete(syncRow) }
      let push = try pushPlan(
        local, in: write, target: remote, full: full, incoming: incoming, record: record)
      let buckets = write.buckets.flatMap(\.bytes)
      var recorded: SyncRecord?
      if let base = remote {
        let marked = push == nil ? [] : Self.buckets(of: local)
        let next = SyncRecord(
          base: base, files: incoming?.state.files ?? record?.files ?? Aggregate.zero.bytes,
          vector: incoming?.state.vector ?? record?.vector ?? VersionVector(), buckets: buckets,
          marked: marked, full: full,
          header: push == nil ? SyncRecord.headerDigest(write.headerBody) : nil)
        try write.insert(try sealRecord(next, replacing: syncRow))
        recorded = next
      } else if let syncRow {
        try write.insert(syncRow.unstored)
      }
      return Plan(
        received: received, notes: notes, push: push, recorded: recorded,
        buckets: buckets, headerTaken: headerTaken)
    }
    try vault.reloadHeader()
    try vault.device.update { vault.recordAuthenticatedHeader(in: &$0) }
    return plan
  }

  /// The buckets a set of changes touches, before and after.
  private static func buckets(of changes: [String: SyncRecordChange]) -> [Int] {
    var out = Set<Int>()
    for change in changes.values {
      if let old = change.old { out.insert(old.row.bucket) }
      if let new = change.new { out.insert(new.row.bucket) }
    }
    return out.sorted()
  }

  /// The records changed here since the base: each changed bucket's rows against the base's
  /// files of its folder (all rows are new without a base).
  func localChanges(
    in write: StateWrite, record: SyncRecord?, syncRow: RecordRow?, base: String?
  ) throws -> [String: SyncRecordChange] {
    let changed = changedBuckets(record, syncRowHash: syncRow.map(write.rowHash)) {
      write.buckets[$0].bytes
    }
    var baseRows: [Int: [(path: String, row: RecordRow)]] = [:]
    if let base, !changed.isEmpty {
      let folders = changed.map { SyncFiles.recordsFolder + "/" + [UInt8($0)].hex }
      let files = try repository.files(of: base, under: folders)
      let blobs = try repository.read(files.map(\.blob))
      for file in files {
        guard let bytes = blobs[file.blob] else {
          throw VaultError.syncFailed(.fileNotGiven(file: String(file.blob.prefix(12))))
        }
        let row = try codec.openRecord(path: file.path, bytes: bytes)
        baseRows[row.bucket, default: []].append((file.path, row))
      }
    }
    var changes: [String: SyncRecordChange] = [:]
    for bucket in changed {
      let rows = try write.rows(inBucket: bucket).filter { $0.kind != RecordKind.sync.rawValue }
      let old = baseRows[bucket] ?? []
      for row in rows {
        let before = old.first { $0.row.recordID == row.recordID }
        if row.isStored(as: before?.row) { continue }
        let name = codec.recordName(row.recordID)
        changes[name, default: SyncRecordChange()].new = (codec.recordPath(row), row)
        if let before { changes[name, default: SyncRecordChange()].old = before }
      }
      for before in old where !rows.contains(where: { $0.recordID == before.row.recordID }) {
        changes[codec.recordName(before.row.recordID), default: SyncRecordChange()].old = before
      }
    }
    return changes
  }

  /// Applies the remote's changes (`vault(5)` Merging): one-sided ones as they are, removals
  /// first; records changed on both sides and records that reach one name by `SyncMerge`; then
  /// the contents some record here names.
  ///
  /// - Returns: how many records and contents were stored, and a line for each conflict.
  private func apply(
    _ incoming: IncomingCommit, to write: StateWrite, local: inout [String: SyncRecordChange]
  ) throws -> (received: Int, notes: [SyncNote]) {
    var taken: [SyncRecordChange] = []
    var both: [(String, SyncRecordChange, SyncRecordChange)] = []
    for (name, change) in incoming.records.sorted(by: { $0.key < $1.key }) {
      if let mine = local[name] {
        // The same change on both sides (a push this device made and did not record).
        if mine.new?.row.isStored(as: change.new?.row) ?? (change.new == nil) {
          local[name] = nil
          continue
        }
        both.append((name, mine, change))
        continue
      }
      taken.append(change)
    }
    for change in taken {
      guard let old = change.old?.row else { continue }
      let rows = try write.rows(inBucket: old.bucket)
      guard let current = rows.first(where: { $0.recordID == old.recordID }),
        current.isStored(as: old)
      else {
        throw VaultError.conflict(
          .recordMovedSinceLastSync(record: String(codec.recordName(old.recordID).prefix(8))))
      }
      try write.delete(current)
    }
    var merge = SyncMerge(sync: self, write: write, local: local)
    for change in taken {
      guard let new = change.new?.row else { continue }
      try merge.insertPlacing(new, remote: new)
    }
    for (name, mine, theirs) in both {
      // Placing a one-sided record can have renamed this record's local version (two records
      // on one name): it is resolved as it is stored now.
      var now = merge.local[name] ?? mine
      if let new = now.new, new.row.rowid == nil,
        let stored = try write.rows(inBucket: new.row.bucket).first(where: {
          $0.recordID == new.row.recordID
        })
      {
        now.new = (new.path, stored)
      }
      try merge.resolve(name, mine: now, theirs: theirs)
    }
    local = merge.local
    var inserted = 0
    for (_, content) in incoming.addedContents.sorted(by: { $0.key < $1.key }) {
      let place = ContentPlace(
        recordID: content.recordID, revision: content.revision, contentID: content.contentID)
      guard try isReferenced(place, in: write) else { continue }
      let stored = try chunkBoxes(content.recordID, revision: content.revision)
      if stored == content.boxes { continue }
      inserted += 1
      guard stored.isEmpty else {
        throw VaultError.conflict(.contentPlaceTaken)
      }
      for (index, box) in content.boxes.enumerated() {
        try write.insert(
          ChunkRow(
            recordID: content.recordID, revision: content.revision, index: Int64(index), box: box))
      }
    }
    for (path, content) in incoming.removedContents where incoming.addedContents[path] == nil {
      let place = ContentPlace(
        recordID: content.recordID, revision: content.revision, contentID: content.contentID)
      if try !isReferenced(place, in: write) {
        _ = try write.deleteChunks(content.recordID, revision: content.revision)
      }
    }
    return (taken.count + both.count + inserted, merge.notes)
  }

  /// The boxes of the stored chunks of `recordID` at content revision `revision`, in order.
  func chunkBoxes(_ recordID: [UInt8], revision: Int64) throws -> [[UInt8]] {
    try vault.db.query(
      "SELECT box FROM chunks WHERE record_id = ? AND revision = ? ORDER BY idx",
      [.blob(recordID), .integer(revision)]
    ).map { $0[0].blob ?? [] }
  }

  /// True when the entry of `place.recordID` or one of its kept revisions names the content
  /// at `place` (its content revision and content id), among the verified rows of their
  /// buckets.
  func isReferenced(_ place: ContentPlace, in write: StateWrite) throws -> Bool {
    let recordID = place.recordID
    let lookup = try vault.db.query(
      "SELECT lookup FROM records WHERE record_id = ?", [.blob(recordID)]
    ).first?.first?.blob
    let bucket = Int(lookup?.first ?? recordID[0])
    func names(_ metadata: EntryMetadata) -> Bool {
      metadata.contentRevision == place.revision && metadata.contentID == place.contentID
    }
    if let row = try write.rows(inBucket: bucket).first(where: {
      $0.recordID == recordID && $0.kind == RecordKind.entry.rawValue
    }), names(try store.open(row).metadata) {
      return true
    }
    return try store.revisions(of: recordID, in: write.rows(inBucket: Int(recordID[0])))
      .contains { names($0.metadata) }
  }

  /// The contents a row names (an entry's current one, a revision's), as paths with their
  /// place.
  func contents(of row: RecordRow) throws -> [(path: String, place: ContentPlace)] {
    let named: (recordID: [UInt8], metadata: EntryMetadata)
    switch RecordKind(rawValue: row.kind) {
    case .entry: named = (row.recordID, try store.open(row).metadata)
    case .revision:
      let kept = try store.openRevision(row)
      named = (kept.entryID, kept.metadata)
    default: return []
    }
    let place = ContentPlace(
      recordID: named.recordID, revision: named.metadata.contentRevision,
      contentID: named.metadata.contentID)
    return [
      (
        codec.contentPath(
          recordID: place.recordID, revision: place.revision, contentID: place.contentID),
        place
      )
    ]
  }

  /// Where a content's chunks are, and the content id its path is made from.
  struct ContentPlace {
    var recordID: [UInt8]
    var revision: Int64
    var contentID: [UInt8]?
  }

  // MARK: - The header

  /// The header of the state file of `commit`, nil when it has none that opens.
  func header(at commit: String) throws -> Header? {
    guard let bytes = try stateFileBytes(of: commit),
      let state = try? SyncStateFile.open(bytes, codec: codec)
    else { return nil }
    return try? Header.parse(state.header)
  }

  // MARK: - Pushing

  /// The files this device's changes make on top of `target` (nil: a first commit), and the
  /// new state file; nil when there is nothing to push.
  func pushPlan(
    _ local: [String: SyncRecordChange], in write: StateWrite, target: String?, full: Bool,
    incoming: IncomingCommit?, record: SyncRecord?
  ) throws -> Push? {
    // After a rotation the target's state is sealed under the old key: the tree is replaced.
    let targetState = full ? nil : try incoming?.state ?? target.flatMap { try stateFile(at: $0) }
    let published = try Header.published(write.headerBody)
    let headerChanged = targetState.map { $0.header != published } ?? true
    if local.isEmpty && !headerChanged && !full && target != nil { return nil }
    var sum =
      full
      ? Aggregate.zero
      : (targetState.flatMap { Aggregate(bytes: $0.files) } ?? Aggregate.zero)
    var writing: [String: [UInt8]] = [:]
    var removing = Set<String>()
    var removedBytes: [String: [UInt8]] = [:]
    var needed: [String: ContentPlace] = [:]
    var dropped: [String: ContentPlace] = [:]
    // Old record bytes are the base's, which the target still has (the remote did not change
    // these records).
    var oldPaths: [String] = []
    for change in local.values {
      if let old = change.old, !full {
        oldPaths.append(old.path)
        for content in try contents(of: old.row) { dropped[content.path] = content.place }
      }
      if let new = change.new {
        let (path, bytes) = codec.sealRecord(new.row)
        writing[path] = bytes
        for content in try contents(of: new.row) { needed[content.path] = content.place }
      }
    }
    if let target, !full {
      let present = try repository.blobs(of: target, paths: oldPaths)
      let read = try repository.read(Array(present.values))
      for (path, blob) in present {
        removedBytes[path] = read[blob]
        if writing[path] == nil { removing.insert(path) }
      }
      // Contents: add those no file holds yet; remove those no record here names any more.
      let existing = try repository.blobs(
        of: target, paths: Array(needed.keys) + Array(dropped.keys))
      for path in needed.keys where existing[path] != nil { needed[path] = nil }
      var gone: [String: String] = [:]
      for (path, place) in dropped where needed[path] == nil && existing[path] != nil {
        if try !isReferenced(place, in: write) {
          gone[path] = existing[path]
        }
      }
      let goneBytes = try repository.read(Array(gone.values))
      for (path, blob) in gone {
        removing.insert(path)
        removedBytes[path] = goneBytes[blob]
      }
    }
    for (path, place) in needed {
      let boxes = try chunkBoxes(place.recordID, revision: place.revision)
      guard !boxes.isEmpty else {
        throw VaultError.integrity(.contentWithoutChunks)
      }
      writing[path] = codec.sealContent(
        SyncFiles.Content(
          recordID: place.recordID, contentID: place.contentID, revision: place.revision,
          boxes: boxes),
        path: path)
    }
    for (path, bytes) in removedBytes { sum.subtract(codec.hash(path: path, bytes: bytes)) }
    for (path, bytes) in writing { sum.add(codec.hash(path: path, bytes: bytes)) }
    let header = try Header.parse(write.headerBody)
    let vector = (incoming?.state.vector ?? record?.vector ?? VersionVector()).advanced(
      by: deviceID.hex)
    let state = SyncStateFile(
      publicPart: SyncStateFile.Public(header),
      header: published,
      headerMAC: Header.mac(published, masterKey: masterKey),
      files: sum.bytes, vector: vector)
    writing[SyncFiles.statePath] = try state.encoded(with: codec)
    writing[SyncFiles.attributes.path] = Array(SyncFiles.attributes.text.utf8)
    return Push(
      writing: writing.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
      removing: removing.sorted(), replacingAll: full || target == nil, files: sum.bytes,
      vector: vector, header: write.headerBody)
  }

  /// The state file of `commit`, opened.
  private func stateFile(at commit: String) throws -> SyncStateFile? {
    guard let bytes = try stateFileBytes(of: commit) else { return nil }
    return try Self.refusing { try SyncStateFile.open(bytes, codec: codec) }
  }

  /// A push this device noted (`SyncRepository.notePush`) that reached the remote although the
  /// sync that made it was killed before it recorded it: its commit becomes the base, as
  /// `recordPushed` would have made it, so the records it carried are this device's own and
  /// not another device's change (review of 0.11.0, item 5: a removal made after it came back).
  ///
  /// Taken only when the noted commit was made on the recorded base (its first parent), the
  /// remote holds it (`remote` is it or descends from it) and its state file opens under the
  /// master key; a note that fails any of these is forgotten.
  private func adoptOwnPush(remote: String) throws {
    guard let pushed = try repository.notedPush() else { return }
    let recorded = try lastSync()?.base
    guard let recorded, pushed != recorded, try repository.parent(of: pushed) == recorded,
      try repository.isAncestor(pushed, of: remote),
      let state = try? stateFile(at: pushed)
    else {
      try repository.notePush(nil)
      return
    }
    try vault.write(masterKey: masterKey) { write in
      guard let syncRow = try write.unnamedRecord(syncID) else { return }
      let record = try openRecord(syncRow)
      guard record.base == recorded, !record.full else { return }
      try write.delete(syncRow)
      // The buckets stay as the merge recorded them: what changed here since then is found by
      // their aggregates, as after any push.
      let next = SyncRecord(
        base: pushed, files: state.files, vector: state.vector, buckets: record.buckets,
        marked: [], full: false, header: nil)
      try write.insert(try sealRecord(next, replacing: syncRow))
    }
    try repository.notePush(nil)
  }

  /// After the push: the new commit is the base, and only the buckets changed since the merge
  /// (by another command meanwhile) stay marked.
  private func recordPushed(_ commit: String, plan: Plan, push: Push) throws {
    try vault.write(masterKey: masterKey) { write in
      let syncRow = try write.unnamedRecord(syncID)
      let record = try syncRow.map(openRecord)
      guard record?.base == plan.recorded?.base else { return }
      var marked: [Int] = []
      let rowHash = syncRow.map(write.rowHash)
      for bucket in 0..<StateSnapshot.bucketCount {
        var sum = write.buckets[bucket]
        if bucket == Int(syncID[0]), let rowHash { sum.subtract(rowHash) }
        if sum.bytes != Array(plan.buckets[(bucket * 32)..<(bucket * 32 + 32)]) {
          marked.append(bucket)
        }
      }
      if let syncRow { try write.delete(syncRow) }
      let next = SyncRecord(
        base: commit, files: push.files, vector: push.vector, buckets: plan.buckets,
        marked: marked, full: false,
        header: write.headerBody == push.header ? SyncRecord.headerDigest(push.header) : nil)
      try write.insert(try sealRecord(next, replacing: syncRow))
    }
  }
}

extension RecordRow {
  /// The row as a new insert (no rowid).
  var unstored: RecordRow {
    var row = self
    row.rowid = nil
    return row
  }
}
