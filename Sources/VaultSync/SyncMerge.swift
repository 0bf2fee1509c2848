import FoundationEssentials
import VaultCrypto
import VaultFormat

/// The merge of a record both sides changed since the base, and of two records that reach the
/// same name (`vault(5)` Merging): nothing is lost, the later version by the hybrid logical clock
/// (its skew bounded) is current, the other is kept as history.
///
/// Every row it writes is recorded in `local` as a change against the remote's tree, so the
/// push carries it.
struct SyncMerge {
  /// How far ahead of the merging device's clock a version's clock may be and still count, in
  /// seconds: a version from further ahead ranks below every other, so a device whose clock
  /// runs ahead cannot win every conflict.
  static var maximumSkew: Double { VaultSync.maximumClockSkew }

  let sync: VaultSync
  let write: StateWrite
  var local: [String: SyncRecordChange]
  /// One line for each conflict, for the user.
  var notes: [SyncNote] = []

  private var store: EntryStore { sync.store }
  private var codec: SyncFiles { sync.codec }
  private var now: Double { sync.vault.environment.clock.wallNow }

  /// `hlc` as the merge ranks it: itself when it is at most `maximumSkew` ahead of this
  /// device's clock, else 0 (before every other).
  func bounded(_ hlc: UInt64) -> UInt64 {
    hlc <= RecordBox.hlc(now: now + Self.maximumSkew, after: nil) ? hlc : 0
  }

  /// True when the version `a` (by `aDevice` at `aHLC`) is later than `b`: by the bounded clock,
  /// then the device id, then the box, so both devices decide alike.
  func isLater(
    _ a: (hlc: UInt64, device: [UInt8], row: RecordRow),
    than b: (hlc: UInt64, device: [UInt8], row: RecordRow)
  ) -> Bool {
    let (x, y) = (bounded(a.hlc), bounded(b.hlc))
    if x != y { return x > y }
    if a.device != b.device { return a.device.lexicographicallyPrecedes(b.device) == false }
    return b.row.box.lexicographicallyPrecedes(a.row.box)
  }

  /// Records that `row` is now the vault's version of its record, in place of `remote` (the
  /// remote tree's file of it, nil when it has none).
  mutating func changed(_ row: RecordRow?, remote: RecordRow?, recordID: [UInt8]) {
    let name = codec.recordName(recordID)
    if let row, row.isStored(as: remote) {
      local[name] = nil
      return
    }
    if row == nil && remote == nil {
      local[name] = nil
      return
    }
    local[name] = SyncRecordChange(
      old: remote.map { (codec.recordPath($0), $0) }, new: row.map { (codec.recordPath($0), $0) })
  }

  // MARK: - The same record on both sides

  /// Resolves a record changed on both sides: `mine` is the local change (its row stored), and
  /// `theirs` the remote's (its row not stored).
  mutating func resolve(_ name: String, mine: SyncRecordChange, theirs: SyncRecordChange) throws {
    let remote = theirs.new?.row
    guard let current = mine.new?.row else {
      // Removed here, changed there: the change is kept (the removal of a record that changed
      // on the other side is undone).
      if let remote { try insertPlacing(remote, remote: remote) } else { local[name] = nil }
      return
    }
    guard let remote else {
      changed(current, remote: nil, recordID: current.recordID)
      return
    }
    let kinds = (RecordKind(rawValue: current.kind), RecordKind(rawValue: remote.kind))
    switch kinds {
    case (.entry, .entry), (.entry, .tombstone), (.tombstone, .entry), (.tombstone, .tombstone):
      try resolveEntry(current: current, remote: remote, base: mine.old?.row)
    case (.counter, .counter):
      // A counter only grows: the larger value.
      let (ours, theirs) = (try counterValue(current), try counterValue(remote))
      if theirs > ours {
        try write.delete(current)
        try write.insert(remote.unstored)
        local[name] = nil
      } else {
        changed(current, remote: remote, recordID: current.recordID)
      }
    case (.settings, .settings):
      try mergeSettings(current: current, remote: remote, base: mine.old?.row)
    default:
      // Journal entries and revisions never change in place: the same record on both sides
      // is the same write; the one stored here is kept.
      changed(current, remote: remote, recordID: current.recordID)
    }
  }

  private func counterValue(_ row: RecordRow) throws -> UInt64 {
    struct Value: Decodable { var value: UInt64 }
    let opened = try store.boxes.open(row, kind: .counter, what: "a counter record")
    guard let value = store.decode(Value.self, opened.body) else {
      throw VaultError.integrity(.malformedCounter)
    }
    return value.value
  }

  /// The settings of both sides, value by value: the side that changed a value since the
  /// base; when both did, the later version's.
  private mutating func mergeSettings(current: RecordRow, remote: RecordRow, base: RecordRow?)
    throws
  {
    let ours = try store.openSettings(current).values
    let theirs = try store.openSettings(remote).values
    let before = try base.map { try store.openSettings($0).values } ?? [:]
    let (a, b) = (
      try store.boxes.open(current, kind: .settings, what: "the settings"),
      try store.boxes.open(remote, kind: .settings, what: "the settings")
    )
    let laterHere = isLater(
      (a.hlc, a.deviceID, current), than: (b.hlc, b.deviceID, remote))
    var merged: [String: Int64] = [:]
    for key in Set(ours.keys).union(theirs.keys) {
      let (mine, other, was) = (ours[key], theirs[key], before[key])
      if mine == other || other == was {
        merged[key] = mine
      } else if mine == was {
        merged[key] = other
      } else {
        merged[key] = laterHere ? mine : other
      }
    }
    var json = try store.encode(merged)
    defer { wipe(&json) }
    let revision = max(current.revision, remote.revision) + 1
    let row = RecordRow(
      recordID: current.recordID, lookup: nil, kind: RecordKind.settings.rawValue,
      revision: revision,
      box: store.boxes.seal(
        json, recordID: current.recordID, kind: .settings, revision: revision,
        deviceID: store.deviceID, hlc: RecordBox.hlc(now: now, after: max(a.hlc, b.hlc))))
    try write.replace(current, with: row)
    changed(row, remote: remote, recordID: row.recordID)
  }

  /// An entry (or tombstone) both sides changed: every version either side made since the base
  /// is kept, this device's renumbered after the remote's (their contents sealed again at their
  /// new revision, so no content place is taken twice), and the later version current; an
  /// edit wins over a removal, and a purge over a removal.
  private mutating func resolveEntry(current: RecordRow, remote: RecordRow, base: RecordRow?)
    throws
  {
    let entryID = current.recordID
    let baseRevision = base?.revision ?? 0
    let ours = try named(current)
    let theirs = try named(remote)
    let history = try store.revisions(of: entryID, in: write.rows(inBucket: Int(entryID[0])))
    // This device's revisions since the base are its own additions; the rest came with the
    // base or the remote.
    let mineSinceBase = history.filter { kept in
      local[codec.recordName(kept.row.recordID)].map { $0.old == nil && $0.new != nil } ?? false
    }
    let mineIDs = Set(mineSinceBase.map(\.row.recordID))
    let others = history.filter { !mineIDs.contains($0.row.recordID) }
    var next = max(current.revision, remote.revision, history.map(\.entryRevision).max() ?? 0) + 1
    let localWins = try localVersionWins(ours, current, over: theirs, remote)
    // A purge on either side erased the versions up to the base: an edit against it keeps only
    // what was made since.
    let purge = [ours, theirs].contains {
      if case .tombstone(let tombstone) = $0 { return tombstone.body.purged == true }
      return false
    }
    // This device's versions since the base, in order, each once.
    var versions = mineSinceBase.filter { !purge || $0.entryRevision > baseRevision }.map {
      ($0.body, $0.replacedText)
    }
    let nowText = Timestamp.utc(now)
    if case .entry(let found) = ours, !localWins { versions.append((found.body, nowText)) }
    let othersBodies = others.map(\.body)
    versions = versions.filter { version in !othersBodies.contains(version.0) }
    for kept in mineSinceBase { try write.delete(kept.row) }
    for kept in mineSinceBase { local[codec.recordName(kept.row.recordID)] = nil }
    var currentBody: EntryStore.Body?
    if localWins, case .entry(let found) = ours { currentBody = found.body }
    try placeVersions(
      versions, current: &currentBody, of: entryID, after: baseRevision, next: &next)
    if localWins, case .entry(let found) = theirs {
      let row = try store.insertRevision(
        EntryStore.RevisionBody(
          entry: entryID.base64, entryRevision: remote.revision, replaced: nowText,
          version: found.body), entryID: entryID, in: write)
      changed(row, remote: nil, recordID: row.recordID)
    }
    let (final, finalName) = try currentVersion(
      localWins ? ours : theirs, body: localWins ? currentBody : nil, of: entryID,
      revision: next, baseRevision: baseRevision)
    try write.delete(current)
    try insertPlacing(final, remote: remote)
    if purge, final.kind == RecordKind.entry.rawValue {
      try eraseUpTo(baseRevision, of: entryID, keeping: final)
    }
    switch (ours, theirs) {
    case (.entry, .entry):
      notes.append(.keptBoth(name: finalName))
    case (.entry, .tombstone), (.tombstone, .entry):
      notes.append(.changeKeptOverRemoval(name: finalName))
    default: break
    }
  }

  /// Whether this side's version of an entry both sides changed stays current: an edit over a
  /// removal, a purge over a removal, else the later by the bounded clock.
  private func localVersionWins(
    _ ours: NameRecord, _ current: RecordRow, over theirs: NameRecord, _ remote: RecordRow
  ) throws -> Bool {
    switch (ours, theirs) {
    case (.entry, .tombstone): return true
    case (.tombstone, .entry): return false
    case (.tombstone(let a), .tombstone(let b))
    where (a.body.purged == true) != (b.body.purged == true):
      return a.body.purged == true
    default:
      return isLater(
        (ours.hlc, try deviceOf(current), current), than: (theirs.hlc, try deviceOf(remote), remote)
      )
    }
  }

  /// Keeps this device's `versions` as revisions from `next` on, their contents made since
  /// `baseRevision` sealed again at their new places (and `current`'s after them); this device's
  /// old places go, as the remote's contents may take the same places.
  private mutating func placeVersions(
    _ versions: [(EntryStore.Body, String)], current: inout EntryStore.Body?, of entryID: [UInt8],
    after baseRevision: Int64, next: inout Int64
  ) throws {
    var resealed = Set<Int64>()
    func replaced(_ body: EntryStore.Body, at revision: Int64) throws -> EntryStore.Body {
      guard body.contentRevision > baseRevision else { return body }
      var moved = body
      let contentID = try store.reseal(
        EntryStore.metadata(body, revision: body.contentRevision), of: entryID, into: entryID,
        revision: revision, in: write)
      resealed.insert(body.contentRevision)
      moved.contentRevision = revision
      moved.contentID = contentID.base64
      return moved
    }
    // The remote's contents since the base take the places they have there; this device's
    // move to fresh revisions first.
    var placedVersions: [(EntryStore.Body, String, Int64)] = []
    for (body, replacedAt) in versions {
      placedVersions.append((try replaced(body, at: next), replacedAt, next))
      next += 1
    }
    if let body = current { current = try replaced(body, at: next) }
    // This device's old places (written since the base, so nowhere else) go: their contents
    // were sealed again above, and the remote's may take the same places.
    for revision in resealed { _ = try write.deleteChunks(entryID, revision: revision) }
    for (body, replacedAt, revision) in placedVersions {
      let row = try store.insertRevision(
        EntryStore.RevisionBody(
          entry: entryID.base64, entryRevision: revision, replaced: replacedAt, version: body),
        entryID: entryID, in: write)
      changed(row, remote: nil, recordID: row.recordID)
    }
  }

  /// The current version of the merge, sealed at `revision`.
  ///
  /// The winner's entry (its `body` when this device's won and its content moved) or tombstone
  /// (a purge removes every kept revision and content). It keeps the clock of the version that won, one tick on: the merge
  /// is no new edit, so a change a third device made after the winner and before this merge
  /// still ranks later than it (with the merge's own time it never would).
  ///
  /// - Returns: the row and the entry's name.
  private mutating func currentVersion(
    _ winner: NameRecord, body winnerBody: EntryStore.Body?, of entryID: [UInt8],
    revision next: Int64, baseRevision: Int64
  ) throws -> (RecordRow, String) {
    let clock = winner.hlc
    let hlc = clock < UInt64.max ? clock + 1 : clock
    switch winner {
    case .entry(let found):
      var body = winnerBody ?? found.body
      let finalName = body.name
      body.name = finalName
      return (try store.sealEntry(body, recordID: entryID, revision: next, hlc: hlc), finalName)
    case .tombstone(let tombstone):
      var body = tombstone.body
      let finalName = body.name
      let kept = try store.revisions(of: entryID, in: write.rows(inBucket: Int(entryID[0])))
      if body.purged == true {
        for revision in kept { try write.delete(revision.row) }
        for revision in kept { changed(nil, remote: revision.row, recordID: revision.row.recordID) }
        _ = try write.deleteChunks(entryID)
      }
      body.entryRevision = max(1, min(next - 1, kept.map(\.entryRevision).max() ?? baseRevision))
      return (
        try store.sealTombstone(body, recordID: entryID, revision: next, hlc: hlc), finalName
      )
    }
  }

  /// After a purge on either side, the kept revisions up to `baseRevision` go, and their
  /// contents no version left names.
  private mutating func eraseUpTo(
    _ baseRevision: Int64, of entryID: [UInt8], keeping final: RecordRow
  )
    throws
  {
    let left = try store.revisions(of: entryID, in: write.rows(inBucket: Int(entryID[0])))
    let erased = left.filter { $0.entryRevision <= baseRevision }
    for kept in erased {
      try write.delete(kept.row)
      changed(nil, remote: kept.row, recordID: kept.row.recordID)
    }
    var named = Set(left.filter { $0.entryRevision > baseRevision }.map(\.body.contentRevision))
    named.insert(try store.open(final).body.contentRevision)
    for revision in Set(erased.map(\.body.contentRevision)) where !named.contains(revision) {
      _ = try write.deleteChunks(entryID, revision: revision)
    }
  }

  private func named(_ row: RecordRow) throws -> NameRecord {
    row.kind == RecordKind.entry.rawValue
      ? .entry(try store.open(row)) : .tombstone(try store.openTombstone(row))
  }

  private func deviceOf(_ row: RecordRow) throws -> [UInt8] {
    let kind: RecordKind = row.kind == RecordKind.entry.rawValue ? .entry : .tombstone
    return try store.boxes.open(row, kind: kind, what: "a record").deviceID
  }

  // MARK: - Two records with one name

  /// Inserts `row` (a version of its record that replaces `remote`, the remote's file of it);
  /// when another record holds its name, one of the two takes the name `NAME (conflict DEVICE
  /// DATE)`: a tombstone before an entry, else the later.
  mutating func insertPlacing(_ row: RecordRow, remote: RecordRow?) throws {
    guard let lookup = row.lookup,
      let holder = try write.rows(inBucket: row.bucket).first(where: {
        $0.lookup == lookup && $0.recordID != row.recordID
      })
    else {
      try write.insert(row.unstored)
      changed(row, remote: remote, recordID: row.recordID)
      return
    }
    let incoming = try named(row)
    let standing = try named(holder)
    let renameIncoming: Bool
    switch (incoming, standing) {
    case (.tombstone, .entry): renameIncoming = true
    case (.entry, .tombstone): renameIncoming = false
    default:
      renameIncoming = isLater(
        (incoming.hlc, try deviceOf(row), row), than: (standing.hlc, try deviceOf(holder), holder))
    }
    if renameIncoming {
      let renamed = try renamedRow(incoming)
      try insertPlacing(renamed, remote: remote)
      if case .entry = incoming { note(original: incoming.name, renamed: try nameOf(renamed)) }
    } else {
      let renamed = try renamedRow(standing)
      try write.delete(holder)
      // The remote's file of the holder: its own when it changed here, else the holder.
      let holderRemote =
        local[codec.recordName(holder.recordID)].map { $0.old?.row } ?? holder
      try write.insert(row.unstored)
      changed(row, remote: remote, recordID: row.recordID)
      try insertPlacing(renamed, remote: holderRemote)
      if case .entry = standing { note(original: standing.name, renamed: try nameOf(renamed)) }
    }
  }

  private mutating func note(original: String, renamed: String) {
    notes.append(.nameTaken(original: original, renamed: renamed))
  }

  private func nameOf(_ row: RecordRow) throws -> String { try named(row).name }

  /// `record` at its next revision under the name `NAME (conflict DEVICE DATE)` (with ` 2`,
  /// ` 3`, … while that is taken too): DEVICE the first 8 hex digits of the device that wrote
  /// it, DATE the day of its clock.
  private func renamedRow(_ record: NameRecord) throws -> RecordRow {
    let row = record.row
    let device = try deviceOf(row).hex.prefix(8)
    let day = Timestamp.utc(Double(bounded(record.hlc) >> 16) / 1000).prefix(10)
    // The name is shortened, by whole characters, so that the suffix fits.
    func named(_ suffix: String) -> String {
      var base = record.name
      while base.utf8.count + suffix.utf8.count > EntryName.maximumByteCount {
        base.removeLast()
      }
      return base + suffix
    }
    var candidate = named(" (conflict \(device) \(day))")
    var attempt = 1
    while try store.record(
      named: try EntryName(candidate),
      in: write.rows(inBucket: store.bucket(try EntryName(candidate)))) != nil
    {
      attempt += 1
      candidate = named(" (conflict \(device) \(day)) \(attempt)")
    }
    switch record {
    case .entry(let found):
      var body = found.body
      body.name = candidate
      body.changed = Timestamp.utc(now)
      body.change = EntryChange.renamed.rawValue
      return try store.sealEntry(
        body, recordID: row.recordID, revision: row.revision + 1, after: found.hlc)
    case .tombstone(let tombstone):
      var body = tombstone.body
      body.name = candidate
      return try store.sealTombstone(
        body, recordID: row.recordID, revision: row.revision + 1, after: tombstone.hlc)
    }
  }
}

extension EntryStore {
  /// The entry row of `body` as `recordID` at `revision`, its clock after `after`.
  func sealEntry(_ body: Body, recordID: [UInt8], revision: Int64, after: UInt64) throws
    -> RecordRow
  {
    try sealEntry(
      body, recordID: recordID, revision: revision,
      hlc: RecordBox.hlc(now: vault.environment.clock.wallNow, after: after))
  }

  /// The entry row of `body` as `recordID` at `revision`, its clock `hlc`.
  func sealEntry(_ body: Body, recordID: [UInt8], revision: Int64, hlc: UInt64) throws
    -> RecordRow
  {
    try sealNamed(
      body, name: body.name, kind: .entry, recordID: recordID, revision: revision, hlc: hlc)
  }

  /// The tombstone row of `body` as `recordID` at `revision`, its clock after `after`.
  func sealTombstone(_ body: TombstoneBody, recordID: [UInt8], revision: Int64, after: UInt64)
    throws -> RecordRow
  {
    try sealTombstone(
      body, recordID: recordID, revision: revision,
      hlc: RecordBox.hlc(now: vault.environment.clock.wallNow, after: after))
  }

  /// The tombstone row of `body` as `recordID` at `revision`, its clock `hlc`.
  func sealTombstone(_ body: TombstoneBody, recordID: [UInt8], revision: Int64, hlc: UInt64)
    throws -> RecordRow
  {
    try sealNamed(
      body, name: body.name, kind: .tombstone, recordID: recordID, revision: revision, hlc: hlc)
  }

  /// The row of a record under `name` (an entry or a tombstone): `body` sealed as `kind`, the
  /// name's lookup, its clock `hlc`.
  private func sealNamed<T: Encodable>(
    _ body: T, name: String, kind: RecordKind, recordID: [UInt8], revision: Int64, hlc: UInt64
  ) throws -> RecordRow {
    var json = try encode(body)
    defer { wipe(&json) }
    return RecordRow(
      recordID: recordID, lookup: lookup(try EntryName(name)), kind: kind.rawValue,
      revision: revision,
      box: boxes.seal(
        json, recordID: recordID, kind: kind, revision: revision, deviceID: deviceID, hlc: hlc))
  }
}
