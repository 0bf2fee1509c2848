import FoundationEssentials
import Glibc
import VaultCrypto

/// What made a version of an entry: the `change` of an entry body (`vault(5)`, RECORDS).
public enum EntryChange: String, CaseIterable, Sendable {
  /// A new entry (`add`, `generate`).
  case added = "add"
  /// Its content replaced (`add --force`, `generate --in-place`).
  case replaced = "replace"
  /// Its content edited (`edit`).
  case edited = "edit"
  /// Its one-time code set (`otp --set`).
  case oneTimeCode = "otp"
  /// Its content made by the password generator (`generate --in-place`).
  case generated = "generate"
  /// Renamed (`mv`).
  case renamed = "rename"
  /// An earlier revision brought back (`restore`).
  case restored = "restore"
  /// Imported from another password manager.
  case imported = "import"
  /// One field set (`set`), the rest of the text kept.
  case fieldSet = "set"
  /// One field removed (`unset`), the rest of the text kept.
  case fieldUnset = "unset"
}

/// What a name's lookup finds: its entry, or the tombstone of its removed entry.
package enum NameRecord {
  case entry(EntryStore.Found)
  case tombstone(EntryStore.Tombstone)

  /// The record's row.
  package var row: RecordRow {
    switch self {
    case .entry(let found): found.row
    case .tombstone(let tombstone): tombstone.row
    }
  }

  /// The name its body holds.
  package var name: String {
    switch self {
    case .entry(let found): found.metadata.name
    case .tombstone(let tombstone): tombstone.body.name
    }
  }

  /// Its hybrid logical clock.
  package var hlc: UInt64 {
    switch self {
    case .entry(let found): found.hlc
    case .tombstone(let tombstone): tombstone.hlc
    }
  }
}

/// One version of an entry as `vault history` lists it.
public struct EntryVersion: Equatable, Sendable {
  /// What the version is now.
  public enum State: String, Equatable, Sendable {
    /// The entry as it is.
    case current
    /// The entry's removal (its tombstone): no content.
    case removed
    /// The entry's removal by `purge`: nothing of it is kept.
    case purged
    /// A kept earlier version.
    case kept
  }

  /// The revision number (`get --revision`, `restore --revision`).
  public var revision: Int64
  /// When the version was made (for a removal, when it was removed), ISO 8601 UTC.
  public var time: String
  /// The name it had.
  public var name: String
  /// Its content length in bytes; nil for a removal.
  public var length: Int?
  /// What made it: an `EntryChange` raw value, "remove" or "purge" for a removal, nil when not
  /// recorded.
  public var change: String?
  /// Whether its reads need the guarded check.
  public var guarded: Bool
  /// What it is now.
  public var state: State
}

/// The per-vault settings record (`vault(5)`, kind settings): integer values by name, with
/// defaults for those not stored.
public struct VaultSettings: Equatable, Sendable {
  /// A setting's name, bounds and default.
  public struct Key: Equatable, Sendable {
    /// The name in the record and on the command line.
    public let name: String
    /// The smallest and largest values allowed.
    public let range: ClosedRange<Int64>
    /// The value when none is stored.
    public let defaultValue: Int64
  }

  /// How many of an entry's newest revisions are kept whatever their age.
  public static let historyKeep = Key(
    name: "history_keep", range: 0...10_000, defaultValue: 10)
  /// For how many days a replaced revision is kept whatever its rank.
  public static let historyDays = Key(
    name: "history_days", range: 0...36_500, defaultValue: 90)
  /// For how many seconds a device unlock with biometry stands in for the match of an unlock
  /// (`touchIDAuthenticationAllowableReuseDuration`, at most 300 as on Apple platforms).
  public static let biometricReuse = Key(
    name: "biometric_reuse_seconds", range: 0...300, defaultValue: 0)
  /// Every setting this version knows.
  public static let keys = [historyKeep, historyDays, biometricReuse]

  /// The stored values, including any a later version wrote (kept as they are).
  public var values: [String: Int64] = [:]

  /// The value of `key`, or its default.
  public func value(_ key: Key) -> Int64 { values[key.name] ?? key.defaultValue }

  /// The record id of the settings: BLAKE2b-16 of the label (unkeyed), the same in every vault.
  public static let recordID = GenericHash.hash(
    parts: [DomainLabel.settingsID.bytes], outputLength: 16)
}

extension EntryStore {
  /// A tombstone: the body of a removed entry's record.
  package struct TombstoneBody: Codable, Equatable {
    package var name: String
    var removed: String
    package var entryRevision: Int64
    package var purged: Bool?

    enum CodingKeys: String, CodingKey {
      case name, removed, purged
      case entryRevision = "entry_revision"
    }
  }

  /// An opened tombstone.
  package struct Tombstone {
    let row: RecordRow
    package let body: TombstoneBody
    package let hlc: UInt64
  }

  /// The body of a revision record: an entry's earlier version.
  package struct RevisionBody: Codable {
    /// The value of each stored property, in order.
    package init(entry: String, entryRevision: Int64, replaced: String, version: Body) {
      self.entry = entry
      self.entryRevision = entryRevision
      self.replaced = replaced
      self.version = version
    }

    var entry: String
    var entryRevision: Int64
    var replaced: String
    var version: Body

    enum CodingKeys: String, CodingKey {
      case entry, replaced, version
      case entryRevision = "entry_revision"
    }
  }

  /// An opened revision record.
  package struct KeptRevision {
    package let row: RecordRow
    /// The record id of the entry it is a version of.
    package let entryID: [UInt8]
    package let entryRevision: Int64
    /// When it stopped being the entry's version, Unix seconds.
    let replaced: Double
    package let replacedText: String
    package let body: Body
    /// Its metadata, at its own revision number.
    package var metadata: EntryMetadata { EntryStore.metadata(body, revision: entryRevision) }
  }

  /// Bytes of an entry's record id that start the id of each of its revisions (the rest is
  /// random).
  public static let revisionPrefix = 8

  package func openTombstone(_ row: RecordRow) throws -> Tombstone {
    let opened = try boxes.open(
      row, kind: .tombstone, what: "the tombstone \(row.recordID.hex.prefix(8))")
    guard let body = decode(TombstoneBody.self, opened.body), Timestamp.isUTC(body.removed),
      body.entryRevision >= 1, body.entryRevision < row.revision
    else { throw VaultError.integrity(.record(.malformedTombstone)) }
    return Tombstone(row: row, body: body, hlc: opened.hlc)
  }

  package func openRevision(_ row: RecordRow) throws -> KeptRevision {
    let opened = try boxes.open(
      row, kind: .revision, what: "the revision record \(row.recordID.hex.prefix(8))")
    guard let body = decode(RevisionBody.self, opened.body), row.revision == 1, row.lookup == nil,
      let entryID = try? [UInt8](base64: body.entry, count: 16, field: "entry"),
      entryID.prefix(Self.revisionPrefix) == row.recordID.prefix(Self.revisionPrefix),
      body.entryRevision >= 1, Self.isValid(body.version, revision: body.entryRevision),
      let replaced = Timestamp.seconds(body.replaced)
    else { throw VaultError.integrity(.record(.malformedRevision)) }
    return KeptRevision(
      row: row, entryID: entryID, entryRevision: body.entryRevision, replaced: replaced,
      replacedText: body.replaced, body: body.version)
  }

  /// The revisions of the entry `recordID` among `rows` (those of its bucket, `recordID[0]`),
  /// oldest first.
  package func revisions(of recordID: [UInt8], in rows: [RecordRow]) throws -> [KeptRevision] {
    let prefix = recordID.prefix(Self.revisionPrefix)
    return try rows.filter {
      $0.kind == RecordKind.revision.rawValue && $0.recordID.prefix(Self.revisionPrefix) == prefix
    }.map(openRevision).filter { $0.entryID == recordID }.sorted {
      $0.entryRevision < $1.entryRevision
    }
  }

  /// Inserts a revision record of `found`'s version, replaced at `now`; its chunks stay.
  func keepRevision(of found: Found, replacedAt now: String, in write: StateWrite) throws {
    try insertRevision(
      RevisionBody(
        entry: found.row.recordID.base64, entryRevision: found.row.revision, replaced: now,
        version: found.body), entryID: found.row.recordID, in: write)
  }

  /// Inserts a revision record of `body` under a new record id of `entryID`'s.
  ///
  /// - Returns: the row.
  @discardableResult
  package func insertRevision(_ body: RevisionBody, entryID: [UInt8], in write: StateWrite) throws
    -> RecordRow
  {
    let recordID =
      Array(entryID.prefix(Self.revisionPrefix))
      + SecureRandom.bytes(count: 16 - Self.revisionPrefix)
    var json = try encode(body)
    defer { wipe(&json) }
    let row = RecordRow(
      recordID: recordID, lookup: nil, kind: RecordKind.revision.rawValue, revision: 1,
      box: boxes.seal(
        json, recordID: recordID, kind: .revision, revision: 1, deviceID: deviceID,
        hlc: RecordBox.hlc(now: vault.environment.clock.wallNow, after: nil)))
    try write.insert(row)
    return row
  }

  /// Replaces `old` (the entry or tombstone row of the same record) with a tombstone at the
  /// next revision.
  func writeTombstone(_ body: TombstoneBody, replacing old: NameRecord, in write: StateWrite)
    throws
  {
    var json = try encode(body)
    defer { wipe(&json) }
    let row = old.row
    let revision = row.revision + 1
    try write.replace(
      row,
      with: RecordRow(
        recordID: row.recordID, lookup: row.lookup, kind: RecordKind.tombstone.rawValue,
        revision: revision,
        box: boxes.seal(
          json, recordID: row.recordID, kind: .tombstone, revision: revision,
          deviceID: deviceID,
          hlc: RecordBox.hlc(now: vault.environment.clock.wallNow, after: old.hlc))))
  }

  /// Removes the revisions of `recordID` beyond both retention bounds, and the chunks no
  /// remaining version names.
  ///
  /// - Parameter current: the content revision of the entry's current version (nil when
  ///   removed).
  /// - Returns: how many revisions were removed.
  @discardableResult
  func prune(_ recordID: [UInt8], current: Int64?, in write: StateWrite) throws -> Int {
    let settings = try settings(in: write)
    let keep = Int(settings.value(VaultSettings.historyKeep))
    let age = Double(settings.value(VaultSettings.historyDays)) * 86_400
    let now = vault.environment.clock.wallNow
    let rows = try write.rows(inBucket: Int(recordID[0]))
    // Only a revision beyond the newest `keep` can go: with no more than `keep` rows that may be
    // this entry's revisions, none is opened.
    let prefix = recordID.prefix(Self.revisionPrefix)
    let candidates = rows.lazy.filter {
      $0.kind == RecordKind.revision.rawValue && $0.recordID.prefix(Self.revisionPrefix) == prefix
    }.count
    if candidates <= keep { return 0 }
    let kept = try revisions(of: recordID, in: rows)
    var dropped: [KeptRevision] = []
    var remaining: [KeptRevision] = []
    for (rank, revision) in kept.reversed().enumerated() {
      if rank >= keep && now - revision.replaced >= age {
        dropped.append(revision)
      } else {
        remaining.append(revision)
      }
    }
    try drop(dropped, of: recordID, keeping: remaining, current: current, in: write)
    return dropped.count
  }

  /// Deletes `dropped` and the chunks of theirs that neither `remaining` nor the current
  /// version names.
  private func drop(
    _ dropped: [KeptRevision], of recordID: [UInt8], keeping remaining: [KeptRevision],
    current: Int64?, in write: StateWrite
  ) throws {
    guard !dropped.isEmpty else { return }
    var named = Set(remaining.map(\.body.contentRevision))
    if let current { named.insert(current) }
    var released = Set<Int64>()
    for revision in dropped {
      try write.delete(revision.row)
      let content = revision.body.contentRevision
      if !named.contains(content) && released.insert(content).inserted {
        try write.deleteChunks(recordID, revision: content)
      }
    }
  }

  /// Seals the content of version `metadata` of `source` again as content revision `revision`
  /// of `recordID`, in its layout (a streamed content piece by piece), under a new content id.
  ///
  /// - Returns: the new content id.
  package func reseal(
    _ metadata: EntryMetadata, of source: [UInt8], into recordID: [UInt8], revision: Int64,
    in write: StateWrite
  ) throws -> [UInt8] {
    let contentID = Self.newContentID()
    guard metadata.streamed else {
      for chunk in boxes.sealChunks(
        try content(of: metadata, recordID: source, name: metadata.name), recordID: recordID,
        revision: revision, chunkSize: Self.chunkSize, contentID: contentID)
      {
        try write.insert(chunk)
      }
      return contentID
    }
    let sealer = StreamSealer(
      boxes: boxes, recordID: recordID, revision: revision, contentID: contentID
    ) { try write.insert($0) }
    try streamContent(of: metadata, recordID: source, name: metadata.name) {
      try sealer.append($0)
    }
    _ = try sealer.finish()
    return contentID
  }

  /// The content revision of the entry row of `named`, nil for a tombstone.
  private func currentContent(_ named: NameRecord?) -> Int64? {
    if case .entry(let found) = named { return found.metadata.contentRevision }
    return nil
  }

  /// `prune` for the record of `named`.
  func prune(_ named: NameRecord, in write: StateWrite) throws {
    try prune(named.row.recordID, current: currentContent(named), in: write)
  }

  /// Moves every version of `target` (its revisions, oldest first, then its entry's version)
  /// into the history of `recordID` as revisions `first`, `first`+1, …, each content sealed
  /// again under `recordID`; then removes `target`'s rows and chunks, and moves its one-time code
  /// counters to `recordID`.
  ///
  /// - Returns: the next free revision of `recordID`.
  func absorb(
    _ target: NameRecord, into recordID: [UInt8], from first: Int64, at now: String,
    in write: StateWrite
  ) throws -> Int64 {
    let targetID = target.row.recordID
    let revisions = try revisions(of: targetID, in: write.rows(inBucket: Int(targetID[0])))
    var versions = revisions.map { ($0.body, $0.replacedText) }
    if case .entry(let found) = target { versions.append((found.body, now)) }
    var next = first
    for (version, replaced) in versions {
      let contentID = try reseal(
        Self.metadata(version, revision: version.contentRevision), of: targetID,
        into: recordID, revision: next, in: write)
      var moved = version
      moved.contentRevision = next
      moved.contentID = contentID.base64
      try insertRevision(
        RevisionBody(
          entry: recordID.base64, entryRevision: next, replaced: replaced, version: moved),
        entryID: recordID, in: write)
      next += 1
    }
    for revision in revisions { try write.delete(revision.row) }
    try write.delete(target.row)
    try write.deleteChunks(targetID)
    try OneTimeCodeCounters.move(
      from: targetID, to: recordID, in: write,
      counters: WriterCounters(vault: vault, masterKey: masterKey))
    return next
  }

  /// The record of `name` and its revisions, oldest first, from one snapshot.
  package func history(_ name: EntryName, in snapshot: StateSnapshot) throws -> (
    NameRecord, [KeptRevision]
  ) {
    let rows = try snapshot.rows(inBucket: bucket(name), db: db, rowKey: rowKey)
    guard let named = try record(named: name, in: rows) else {
      throw VaultError.notFound(name.value)
    }
    let recordID = named.row.recordID
    let kept = try revisions(
      of: recordID, in: snapshot.rows(inBucket: Int(recordID[0]), db: db, rowKey: rowKey))
    return (named, kept)
  }

  /// Every version of `name` kept, newest first: the entry (or its removal) then its kept
  /// revisions.
  ///
  /// - Throws: `VaultError.notFound` when the name has neither an entry nor a tombstone;
  ///   `.integrity` when a record or the state fails authentication.
  public func history(_ name: EntryName) throws -> [EntryVersion] {
    try vault.reading(masterKey: masterKey) { snapshot in
      let (named, kept) = try history(name, in: snapshot)
      var out: [EntryVersion] = []
      func version(_ metadata: EntryMetadata, _ state: EntryVersion.State) -> EntryVersion {
        EntryVersion(
          revision: metadata.revision, time: metadata.changed, name: metadata.name,
          length: metadata.length, change: metadata.change, guarded: metadata.guarded,
          state: state)
      }
      switch named {
      case .entry(let found):
        out.append(version(found.metadata, .current))
      case .tombstone(let tombstone):
        out.append(
          EntryVersion(
            revision: tombstone.row.revision, time: tombstone.body.removed,
            name: tombstone.body.name, length: nil,
            change: tombstone.body.purged == true ? "purge" : "remove", guarded: false,
            state: tombstone.body.purged == true ? .purged : .removed))
      }
      out += kept.reversed().map { version($0.metadata, .kept) }
      return out
    }
  }

  /// Revision `revision` of `name` (its current version or a kept one) and, unless `withheld`
  /// says so of it, its content, in one read.
  ///
  /// The metadata's `guarded` is true when the version or the current entry is guarded.
  ///
  /// - Throws: `VaultError.notFound` for a name without entry or tombstone;
  ///   `.revisionNotFound` when no such revision is kept; `.integrity` as `get`.
  package func read(
    _ name: EntryName, revision: Int64, withholding withheld: (EntryMetadata) -> Bool
  ) throws -> (metadata: EntryMetadata, content: SecureBytes?) {
    try vault.reading(masterKey: masterKey) { snapshot in
      let (metadata, recordID) = try version(name, revision: revision, in: snapshot)
      guard !withheld(metadata) else { return (metadata, nil) }
      let content = try content(of: metadata, recordID: recordID, name: name.value)
      return (metadata, content)
    }
  }

  /// The metadata of revision `revision` of `name` (guarded when the entry is now) and its
  /// record id, or of its current version when `revision` is nil.
  ///
  /// - Throws: `VaultError.notFound`, `.removed`, `.purged`, `.revisionNotFound`; `.integrity`.
  func version(_ name: EntryName, revision: Int64?, in snapshot: StateSnapshot) throws -> (
    metadata: EntryMetadata, recordID: [UInt8]
  ) {
    guard let revision else {
      let found = try verifiedFind(name, in: snapshot)
      return (found.metadata, found.row.recordID)
    }
    let (named, kept) = try history(name, in: snapshot)
    var metadata: EntryMetadata
    if case .entry(let found) = named, found.row.revision == revision {
      metadata = found.metadata
    } else if let version = kept.first(where: { $0.entryRevision == revision }) {
      metadata = version.metadata
      if case .entry(let found) = named, found.metadata.guarded { metadata.guarded = true }
    } else {
      throw VaultError.revisionNotFound(name: name.value, revision: revision)
    }
    return (metadata, named.row.recordID)
  }

  /// Hands the content of `name` (its revision `revision`, or its current version) to `deliver`
  /// piece by piece, in one read, when it is still the version `expected` (which an access
  /// check opened, and whose guard it checked).
  ///
  /// - Throws: `VaultError.conflict` when the entry changed since; as `version`; `.integrity`
  ///   (pieces already handed over are not the content then); what `deliver` throws.
  package func stream(
    _ name: EntryName, revision: Int64?, expecting expected: EntryMetadata,
    deliver: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    try vault.reading(masterKey: masterKey) { snapshot in
      let (metadata, recordID) = try version(name, revision: revision, in: snapshot)
      guard metadata == expected else {
        throw VaultError.conflict(.entryChangedWhileRead(name: name.value))
      }
      try streamContent(of: metadata, recordID: recordID, name: name.value, deliver: deliver)
    }
  }

  /// Brings back revision `revision` of `name` (by default the newest kept one) as the entry's
  /// next revision, also after `remove`; the version it replaces is kept.
  ///
  /// - Returns: the revision restored and the entry's new revision.
  /// - Throws: `VaultError.notFound` for a name without entry or tombstone;
  ///   `.revisionNotFound` when no such revision (or none at all) is kept; `.invalidInput` for
  ///   the current revision; `.integrity` as `get`.
  @discardableResult
  public func restore(_ name: EntryName, revision: Int64? = nil) throws -> (
    restored: Int64, revision: Int64
  ) {
    try vault.write(masterKey: masterKey) { write in
      guard let named = try record(named: name, in: write.rows(inBucket: bucket(name))) else {
        throw VaultError.notFound(name.value)
      }
      if case .tombstone(let tombstone) = named, tombstone.body.purged == true {
        throw VaultError.purged(name.value)
      }
      let recordID = named.row.recordID
      let kept = try revisions(of: recordID, in: write.rows(inBucket: Int(recordID[0])))
      if let revision, revision == named.row.revision, case .entry = named {
        throw VaultError.invalidInput(.currentRevision(name: name.value, revision: revision))
      }
      let chosen: KeptRevision?
      if let revision {
        chosen = kept.first { $0.entryRevision == revision }
      } else {
        chosen = kept.last
      }
      guard let chosen else {
        throw VaultError.revisionNotFound(name: name.value, revision: revision)
      }
      let now = Timestamp.utc(vault.environment.clock.wallNow)
      var current: Found?
      if case .entry(let found) = named {
        current = found
        try keepRevision(of: found, replacedAt: now, in: write)
      }
      var body = chosen.body
      body.name = name.value
      body.created = current?.body.created ?? chosen.body.created
      body.updated = now
      body.changed = now
      body.change = EntryChange.restored.rawValue
      body.guarded = chosen.body.guarded || (current?.body.guarded ?? false)
      let next = named.row.revision + 1
      try writeEntry(body, recordID: recordID, revision: next, replacing: named, in: write)
      try prune(recordID, current: body.contentRevision, in: write)
      return (chosen.entryRevision, next)
    }
  }

  /// The removed entries whose name starts with `prefix` and whose history is not purged: name
  /// and removal time, sorted by name (UTF-8 byte order), after verifying every bucket.
  ///
  /// - Throws: `VaultError.integrity` when a record or the state fails authentication.
  public func removed(prefix: String = "") throws -> [(name: String, removed: String)] {
    let normalized = prefix.canonicallyComposed
    return try vault.reading(masterKey: masterKey) { snapshot in
      try snapshot.allRows(db: db, rowKey: rowKey).filter {
        $0.kind == RecordKind.tombstone.rawValue
      }.map { try openTombstone($0).body }.filter {
        $0.purged != true && $0.name.utf8.starts(with: normalized.utf8)
      }.map { ($0.name, $0.removed) }.sorted {
        $0.name.precedesInByteOrder($1.name)
      }
    }
  }

  /// What a purge removed.
  public struct Purged: Equatable, Sendable {
    /// Revision records removed.
    public var revisions = 0
    /// Content chunks removed.
    public var chunks = 0
    /// The file's size before, in bytes.
    public var sizeBefore: Int64 = 0
    /// The file's size after the `VACUUM`, in bytes.
    public var sizeAfter: Int64 = 0
    /// False when the `VACUUM` could not run (another command held the file).
    public var compacted = true
  }

  /// Removes `name` and its whole history for good, leaving a tombstone marked purged (so a
  /// later merge does not bring it back), then `VACUUM`s the file.
  ///
  /// - Throws: `VaultError.notFound` for a name without entry or tombstone, or one already
  ///   purged; `.integrity` as `get`; `.storage` when the file cannot be rewritten.
  public func purge(_ name: EntryName) throws -> Purged {
    var purged = Purged(sizeBefore: fileSize())
    try vault.write(masterKey: masterKey) { write in
      guard let named = try record(named: name, in: write.rows(inBucket: bucket(name))) else {
        throw VaultError.notFound(name.value)
      }
      if case .tombstone(let tombstone) = named, tombstone.body.purged == true {
        throw VaultError.notFound(name.value)
      }
      let recordID = named.row.recordID
      let kept = try revisions(of: recordID, in: write.rows(inBucket: Int(recordID[0])))
      for revision in kept { try write.delete(revision.row) }
      purged.revisions = kept.count
      purged.chunks = try write.deleteChunks(recordID)
      try OneTimeCodeCounters.remove(
        of: recordID, in: write, counters: WriterCounters(vault: vault, masterKey: masterKey))
      let last: Int64
      switch named {
      case .entry(let found): last = found.row.revision
      case .tombstone(let tombstone): last = tombstone.body.entryRevision
      }
      try writeTombstone(
        TombstoneBody(
          name: name.value, removed: Timestamp.utc(vault.environment.clock.wallNow),
          entryRevision: last, purged: true), replacing: named, in: write)
    }
    // The purge has committed: a file another command holds past the busy timeout is shrunk
    // by the next purge, and said so, rather than reported as a failed purge.
    purged.compacted = (try? vault.vacuum()) != nil
    purged.sizeAfter = fileSize()
    return purged
  }

  /// Removes every kept revision, then `VACUUM`s the file.
  ///
  /// Every chunk no entry's current version names goes too; entries and tombstones stay.
  ///
  /// - Throws: `.integrity` when a record or the state fails authentication; `.storage` when
  ///   the file cannot be rewritten.
  public func purgeHistory() throws -> Purged {
    var purged = Purged(sizeBefore: fileSize())
    try vault.write(masterKey: masterKey) { write in
      var current: [[UInt8]: Int64] = [:]
      var kept: [KeptRevision] = []
      for bucket in 0..<StateSnapshot.bucketCount {
        for row in try write.rows(inBucket: bucket) {
          if row.kind == RecordKind.entry.rawValue {
            current[row.recordID] = try open(row).metadata.contentRevision
          } else if row.kind == RecordKind.revision.rawValue {
            kept.append(try openRevision(row))
          }
        }
      }
      for revision in kept {
        try write.delete(revision.row)
        purged.revisions += 1
      }
      let versions = Set(
        kept.map { ContentVersion(recordID: $0.entryID, revision: $0.body.contentRevision) })
      for version in versions where current[version.recordID] != version.revision {
        purged.chunks += try write.deleteChunks(version.recordID, revision: version.revision)
      }
    }
    // The purge has committed: a file another command holds past the busy timeout is shrunk
    // by the next purge, and said so, rather than reported as a failed purge.
    purged.compacted = (try? vault.vacuum()) != nil
    purged.sizeAfter = fileSize()
    return purged
  }

  private func fileSize() -> Int64 {
    var info = stat()
    return stat(vault.path, &info) == 0 ? Int64(info.st_size) : 0
  }

  /// The settings record among the rows of its bucket, opened; nil when there is none.
  func settingsRecord(in rows: [RecordRow]) throws -> (row: RecordRow, settings: VaultSettings)? {
    guard let row = rows.first(where: { $0.recordID == VaultSettings.recordID }) else {
      return nil
    }
    return (row, try openSettings(row))
  }

  package func openSettings(_ row: RecordRow) throws -> VaultSettings {
    guard row.recordID == VaultSettings.recordID, row.lookup == nil else {
      throw VaultError.integrity(.record(.misplacedSettings))
    }
    let opened = try boxes.open(row, kind: .settings, what: "the vault's settings")
    guard let values = decode([String: Int64].self, opened.body),
      VaultSettings.keys.allSatisfy({ key in values[key.name].map(key.range.contains) ?? true })
    else { throw VaultError.integrity(.record(.malformedSettings)) }
    return VaultSettings(values: values)
  }

  /// The settings as this write sees them.
  package func settings(in write: StateWrite) throws -> VaultSettings {
    if let knownSettings { return knownSettings }
    return try settingsRecord(in: write.rows(inBucket: Int(VaultSettings.recordID[0])))?.settings
      ?? VaultSettings()
  }

  /// The vault's settings.
  ///
  /// - Throws: `.integrity` when the record or the state fails authentication.
  public func settings() throws -> VaultSettings {
    try vault.reading(masterKey: masterKey) { snapshot in
      try settingsRecord(
        in: snapshot.rows(inBucket: Int(VaultSettings.recordID[0]), db: db, rowKey: rowKey))?
        .settings ?? VaultSettings()
    }
  }

  /// Sets `key` to `value` and applies the retention bounds to every entry, in one write.
  ///
  /// - Returns: the settings now, and how many revisions retention removed.
  /// - Throws: `VaultError.invalidInput` for a value out of the key's range; `.integrity` as
  ///   `settings()`.
  public func set(_ key: VaultSettings.Key, to value: Int64) throws -> (
    settings: VaultSettings, pruned: Int
  ) {
    guard key.range.contains(value) else {
      throw VaultError.invalidInput(.settingOutOfRange(key))
    }
    return try vault.write(masterKey: masterKey) { write in
      let found = try settingsRecord(in: write.rows(inBucket: Int(VaultSettings.recordID[0])))
      var settings = found?.settings ?? VaultSettings()
      settings.values[key.name] = value
      var json = try encode(settings.values)
      defer { wipe(&json) }
      let revision = (found?.row.revision ?? 0) + 1
      let recordID = VaultSettings.recordID
      try write.replace(
        found?.row,
        with: RecordRow(
          recordID: recordID, lookup: nil, kind: RecordKind.settings.rawValue,
          revision: revision,
          box: boxes.seal(
            json, recordID: recordID, kind: .settings, revision: revision, deviceID: deviceID,
            hlc: RecordBox.hlc(now: vault.environment.clock.wallNow, after: nil))))
      var current: [[UInt8]: Int64?] = [:]
      var entries = Set<[UInt8]>()
      for bucket in 0..<StateSnapshot.bucketCount {
        for row in try write.rows(inBucket: bucket) {
          if row.kind == RecordKind.entry.rawValue {
            current[row.recordID] = try open(row).metadata.contentRevision
          } else if row.kind == RecordKind.tombstone.rawValue {
            current[row.recordID] = .some(nil)
          } else if row.kind == RecordKind.revision.rawValue {
            entries.insert(try openRevision(row).entryID)
          }
        }
      }
      var pruned = 0
      for entry in entries {
        pruned += try prune(entry, current: current[entry] ?? nil, in: write)
      }
      return (settings, pruned)
    }
  }

}
