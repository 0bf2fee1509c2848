import FoundationEssentials
import Glibc
import VaultCrypto

/// What a listing of every entry keeps of each: its name, times and guard.
public struct EntryListing: Equatable, Sendable {
  /// The NFC-normalized name.
  public var name: String
  /// Creation time, ISO 8601 UTC.
  public var created: String
  /// Last content change, ISO 8601 UTC.
  public var updated: String
  /// True when each read needs a fresh biometric match.
  public var guarded: Bool
}

/// A listed value with a name to sort by.
protocol NamedListing { var name: String { get } }
extension EntryMetadata: NamedListing {}
extension EntryListing: NamedListing {}

/// Decrypted metadata of one entry.
public struct EntryMetadata: Equatable, Sendable {
  /// The NFC-normalized name.
  public var name: String
  /// Creation time, ISO 8601 UTC.
  public var created: String
  /// Last content change, ISO 8601 UTC.
  public var updated: String
  /// True when every read needs a fresh biometric check.
  public var guarded: Bool
  /// Content length in bytes.
  public var length: Int
  /// The record's revision: one more at every change of the entry.
  public var revision: Int64
  /// The revision at which the content was last written, which names its chunks.
  public var contentRevision: Int64
  /// When this version was made, ISO 8601 UTC (its `updated` for versions from before 0.3.0).
  public var changed: String
  /// What made this version (an `EntryChange` raw value); nil for versions from before 0.3.0.
  public var change: String?
  /// True when the content is stored as one stream (`vault(5)` Streamed contents).
  public var streamed: Bool = false
  /// The random 16 bytes that name this content write in its chunks' associated data (nil for
  /// versions written before release 0.5.0).
  public var contentID: [UInt8]? = nil
  /// Number of content chunks (of the padded content).
  public var chunks: Int { ContentChunks.count(length: length) }
  /// True when the content is larger than `EntryStore.streamThreshold`: it is read only as a
  /// stream, never whole into memory.
  public var isLarge: Bool { length > EntryStore.streamThreshold }
}

/// One entry opened by an access check: its metadata and, unless it is large, its content in
/// guarded memory.
public struct OpenedEntry: Sendable {
  /// The decrypted metadata.
  public let metadata: EntryMetadata
  let whole: SecureBytes?

  package init(metadata: EntryMetadata, content: SecureBytes?) {
    self.metadata = metadata
    self.whole = content
  }

  /// The content, byte for byte.
  ///
  /// - Throws: `VaultError.tooLarge` for a large entry (`metadata.isLarge`), whose content is
  ///   read only with `UnlockedVault.streamEntry`.
  public var content: SecureBytes {
    get throws {
      guard let whole else {
        throw VaultError.tooLarge(name: metadata.name, length: metadata.length)
      }
      return whole
    }
  }
}

/// Where a content to store comes from.
public enum ContentSource {
  /// A whole content in guarded memory.
  case whole(SecureBytes)
  /// A content too large to hold: `prefix` (more than `EntryStore.streamThreshold` bytes), then
  /// what `read` puts into the buffer it is given, until it returns 0. It is sealed into a spool
  /// file before the write (`ContentSpool`), so a slow source holds no lock; `read` may throw to
  /// abandon it.
  case streamed(prefix: SecureBytes, read: (UnsafeMutableRawBufferPointer) throws -> Int)
  /// `streamed`, read inside the write's transaction instead, which then waits for it: for a
  /// source known to be fast and bounded (a regular file of a known size), which this saves
  /// writing twice.
  case streamedInWrite(prefix: SecureBytes, read: (UnsafeMutableRawBufferPointer) throws -> Int)
}

/// Entry operations on an unlocked format-2 vault.
///
/// Each entry is a record of kind `entry` with a random 16-byte id, found by the keyed BLAKE2b
/// of its name (the `nameIndex` subkey), never by the name. Its body (name, times, guard, length)
/// is a record box; its content is padded and cut into 64 KiB chunk boxes bound to the record
/// id, the content revision, the index and a final flag. Every read verifies the bucket of the
/// record it reads against the authenticated state, and every bucket when a name is not found;
/// every write goes through `Vault.write`.
public struct EntryStore {
  /// Content chunk size in bytes.
  public static let chunkSize = 64 * 1024
  /// The largest content, in bytes, read whole into memory (1 MiB); a longer one is written as a
  /// stream and only ever read as one.
  public static let streamThreshold = 1 << 20

  /// The JSON body of an entry record (and of the version a revision record keeps).
  package struct Body: Codable, Equatable {
    /// The value of each stored property, in order.
    package init(
      name: String, created: String, updated: String, guarded: Bool, length: Int,
      contentRevision: Int64, changed: String? = nil, change: String? = nil, stream: Bool? = nil,
      contentID: String? = nil
    ) {
      self.name = name
      self.created = created
      self.updated = updated
      self.guarded = guarded
      self.length = length
      self.contentRevision = contentRevision
      self.changed = changed
      self.change = change
      self.stream = stream
      self.contentID = contentID
    }

    package var name: String
    var created: String
    var updated: String
    var guarded: Bool
    var length: Int
    package var contentRevision: Int64
    /// When this version was made (absent before release 0.3.0).
    package var changed: String?
    /// What made this version, an `EntryChange` raw value (absent before release 0.3.0).
    package var change: String?
    /// True for a streamed content (absent otherwise).
    var stream: Bool?
    /// The content id (base64 of 16 bytes; absent before release 0.5.0).
    package var contentID: String?

    enum CodingKeys: String, CodingKey {
      case name, created, updated, guarded, length, changed, change, stream
      case contentRevision = "content_revision"
      case contentID = "content_id"
    }
  }

  /// A found entry: its row, its opened body and clock.
  package struct Found {
    package let row: RecordRow
    package let body: Body
    package let metadata: EntryMetadata
    package let hlc: UInt64
  }

  package let vault: Vault
  package let masterKey: SymmetricKey
  package let boxes: RecordBox
  let indexKey: SymmetricKey
  package let rowKey: SymmetricKey
  /// Keyed BLAKE2b under `indexKey`, its guarded state reused for every name looked up.
  let nameHasher: GenericHash.Hasher
  /// This device's id as found once for a bulk write (`deviceID` finds it at each use).
  package var knownDeviceID: [UInt8]?
  /// The settings as read once in a bulk write that does not change them (`settings(in:)`
  /// reads them at each use otherwise).
  package var knownSettings: VaultSettings?

  /// Entry access with the given master key (already verified against the header and state).
  public init(vault: Vault, masterKey: SymmetricKey) {
    self.vault = vault
    self.masterKey = masterKey
    self.boxes = RecordBox(vaultID: vault.vaultID, masterKey: masterKey)
    self.indexKey = masterKey.derive(.nameIndex)
    self.rowKey = masterKey.derive(.rows)
    self.nameHasher = GenericHash.Hasher(key: indexKey.bytes)
  }

  package var db: SQLiteDatabase { vault.db }

  /// The keyed BLAKE2b-256 of the name under the name-index subkey, the row's `lookup`.
  package func lookup(_ name: EntryName) -> [UInt8] {
    nameHasher.hash([DomainLabel.name.bytes, Array(name.value.utf8)])
  }

  /// A short tag for `name` (16 hex digits of its keyed index hash), for per-entry bookkeeping
  /// outside the vault file that must not reveal the name.
  public func indexTag(_ name: EntryName) -> String {
    String(lookup(name).hex.prefix(16))
  }

  package func encode<T: Encodable>(_ body: T) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      return try [UInt8](encoder.encode(body))
    } catch {
      throw VaultError.storage(.unencodable(.recordBody))
    }
  }

  /// Decodes an opened record body, or nil when it is not that JSON object.
  package func decode<T: Decodable>(_ type: T.Type, _ body: SecureBytes) -> T? {
    try? body.withBytes { try JSONDecoder().decode(T.self, from: Data($0)) }
  }

  /// The metadata of an entry body stored at `revision`.
  package static func metadata(_ body: Body, revision: Int64) -> EntryMetadata {
    EntryMetadata(
      name: body.name, created: body.created, updated: body.updated, guarded: body.guarded,
      length: body.length, revision: revision, contentRevision: body.contentRevision,
      changed: body.changed ?? body.updated, change: body.change, streamed: body.stream == true,
      contentID: body.contentID.flatMap { try? [UInt8](base64: $0, count: 16, field: "content_id") }
    )
  }

  /// True when an entry body is well formed for a version at `revision`: a positive length, a
  /// content revision it has reached, a content id of 16 bytes when it has one, and one when
  /// it is streamed.
  static func isValid(_ body: Body, revision: Int64) -> Bool {
    let id = body.contentID.map {
      (try? [UInt8](base64: $0, count: 16, field: "content_id")) != nil
    }
    return body.length >= 1 && body.contentRevision >= 1 && body.contentRevision <= revision
      && id != false && (body.stream != true || id == true)
  }

  /// A new random content id.
  package static func newContentID() -> [UInt8] { SecureBytes.random(count: 16).unprotectedBytes }

  /// Opens an entry row (its plaintext in a piece of a shared slab when `packed`, as a listing of
  /// every entry opens them).
  ///
  /// - Throws: `VaultError.integrity` when it is not an entry, does not open or is malformed.
  package func open(_ row: RecordRow, packed: Bool = false) throws -> Found {
    guard row.kind == RecordKind.entry.rawValue else {
      throw VaultError.integrity(.record(.notAnEntry))
    }
    let opened = try boxes.open(
      row, kind: .entry, what: "the metadata of entry \(row.recordID.hex.prefix(8))",
      packed: packed)
    guard let body = Body(decoding: opened.plain, range: opened.bodyRange),
      Self.isValid(body, revision: row.revision)
    else { throw VaultError.integrity(.record(.malformedEntryMetadata)) }
    return Found(
      row: row, body: body, metadata: Self.metadata(body, revision: row.revision),
      hlc: opened.hlc)
  }

  /// The record of `name` among the authenticated rows of its bucket, opened: its entry, its
  /// tombstone, or nil.
  ///
  /// - Throws: `VaultError.integrity` when its record fails or names another entry.
  package func record(named name: EntryName, in rows: [RecordRow]) throws -> NameRecord? {
    let index = lookup(name)
    guard let row = rows.first(where: { $0.lookup == index }) else { return nil }
    let named: NameRecord
    if row.kind == RecordKind.tombstone.rawValue {
      named = .tombstone(try openTombstone(row))
    } else {
      named = .entry(try open(row))
    }
    // A row moved under another name's index opens, but names the wrong entry.
    guard named.name == name.value else {
      throw VaultError.integrity(.record(.entryOfAnotherName(name.value)))
    }
    return named
  }

  /// The entry of `name` among the authenticated rows of its bucket, opened; nil when there is
  /// none or it was removed.
  ///
  /// - Throws: as `record(named:in:)`.
  func find(_ name: EntryName, in rows: [RecordRow]) throws -> Found? {
    guard case .entry(let found) = try record(named: name, in: rows) else { return nil }
    return found
  }

  /// The bucket of `name` (the first byte of its name index).
  package func bucket(_ name: EntryName) -> Int { Int(lookup(name)[0]) }

  /// The entry of `name` in `snapshot`, from the rows of its name's bucket, verified: a deleted
  /// or hidden row is an integrity failure rather than a missing entry.
  ///
  /// - Throws: `VaultError.notFound`, `.integrity`.
  package func verifiedFind(_ name: EntryName, in snapshot: StateSnapshot) throws -> Found {
    let row = try snapshot.row(lookup: lookup(name), db: db, rowKey: rowKey)
    switch try record(named: name, in: row.map { [$0] } ?? []) {
    case .entry(let found): return found
    case .tombstone(let tombstone) where tombstone.body.purged == true:
      throw VaultError.purged(name.value)
    case .tombstone: throw VaultError.removed(name.value)
    case nil: throw VaultError.notFound(name.value)
    }
  }

  /// Metadata of one entry, or nil when there is none.
  ///
  /// - Throws: `VaultError.integrity` when its record, or the state, fails authentication.
  public func metadata(_ name: EntryName) throws -> EntryMetadata? {
    try vault.reading(masterKey: masterKey) { snapshot in
      do {
        return try verifiedFind(name, in: snapshot).metadata
      } catch VaultError.notFound, VaultError.removed, VaultError.purged {
        return nil
      }
    }
  }

  /// The content of version `metadata` of the record `recordID`, from its chunks.
  ///
  /// - Throws: `VaultError.tooLarge` for a large content (see `streamContent`); `.integrity`.
  package func content(of metadata: EntryMetadata, recordID: [UInt8], name: String) throws
    -> SecureBytes
  {
    guard !metadata.isLarge else {
      throw VaultError.tooLarge(name: name, length: metadata.length)
    }
    let content = SecureBytes(count: metadata.length)
    var filled = 0
    try streamContent(of: metadata, recordID: recordID, name: name) { piece in
      content.write(piece, at: filled)
      filled += piece.count
    }
    return content
  }

  /// Hands the content of version `metadata` of `recordID` to `deliver` piece by piece.
  ///
  /// - Throws: `VaultError.integrity` (earlier pieces are not the content then); what
  ///   `deliver` throws.
  package func streamContent(
    of metadata: EntryMetadata, recordID: [UInt8], name: String,
    deliver: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    try ContentChunks(db: db, boxes: boxes).read(
      recordID: recordID, revision: metadata.contentRevision, contentID: metadata.contentID,
      length: metadata.length, streamed: metadata.streamed, name: name, deliver: deliver)
  }

  /// Seals `source` as content revision `revision` of `recordID` in `write`: as chunk boxes up
  /// to `streamThreshold` bytes, as one stream beyond.
  ///
  /// - Returns: the content's length and whether it was streamed.
  /// - Throws: `VaultError.invalidInput` for an empty content or a streamed source whose prefix
  ///   is not beyond the threshold; what the source's `read` throws.
  func sealContent(
    _ source: ContentSource, recordID: [UInt8], revision: Int64, in write: StateWrite
  ) throws -> (length: Int, streamed: Bool, contentID: [UInt8]) {
    let contentID = Self.newContentID()
    func stream() -> StreamSealer {
      StreamSealer(boxes: boxes, recordID: recordID, revision: revision, contentID: contentID) {
        try write.insert($0)
      }
    }
    switch source {
    case .whole(let content) where content.count <= Self.streamThreshold:
      guard content.count > 0 else { throw VaultError.invalidInput(.emptyContent) }
      for chunk in boxes.sealChunks(
        content, recordID: recordID, revision: revision, chunkSize: Self.chunkSize,
        contentID: contentID)
      {
        try write.insert(chunk)
      }
      return (content.count, false, contentID)
    case .whole(let content):
      let sealer = stream()
      try content.withBytes { try sealer.append($0) }
      return (try sealer.finish(), true, contentID)
    case .streamed(let prefix, let read), .streamedInWrite(let prefix, let read):
      guard prefix.count > Self.streamThreshold else {
        throw VaultError.invalidInput(.streamedContentStartsShort)
      }
      // Read and sealed on a second thread while this one stores the rows, whose pages start
      // for the disk as they are written.
      let writeback = Writeback(path: vault.path)
      let length = try ChunkPipeline.run(
        produce: { emit in
          try StreamSealer.seal(
            prefix: prefix, read: read, boxes: boxes, recordID: recordID, revision: revision,
            contentID: contentID, emit: emit)
        },
        consume: {
          try write.insert($0)
          writeback?.wrote($0.box.count)
        })
      return (length, true, contentID)
    }
  }

  private func content(_ found: Found, name: String) throws -> SecureBytes {
    try content(of: found.metadata, recordID: found.row.recordID, name: name)
  }

  /// The content of `name`, in guarded memory.
  ///
  /// - Throws: `VaultError.notFound`; `.integrity` when any record, the bucket or the state
  ///   fails authentication, or chunks are missing, extra, or from another revision.
  public func get(_ name: EntryName) throws -> (metadata: EntryMetadata, content: SecureBytes) {
    try vault.reading(masterKey: masterKey) { snapshot in
      let found = try verifiedFind(name, in: snapshot)
      return (found.metadata, try content(found, name: name.value))
    }
  }

  /// The metadata of `name` and, unless `withheld` says so of that metadata (a guarded entry
  /// whose check comes first), its content, in one read.
  ///
  /// - Throws: as `get`.
  package func read(_ name: EntryName, withholding withheld: (EntryMetadata) -> Bool) throws
    -> (metadata: EntryMetadata, content: SecureBytes?)
  {
    try vault.reading(masterKey: masterKey) { snapshot in
      let found = try verifiedFind(name, in: snapshot)
      guard !withheld(found.metadata) else { return (found.metadata, nil) }
      return (found.metadata, try content(found, name: name.value))
    }
  }

  /// Stores `content` under `name` in one write.
  ///
  /// An existing entry's version is kept as a revision (see `vault(5)` HISTORY); a removed
  /// entry's name is taken by the entry again, its history continued.
  ///
  /// - Parameters:
  ///   - overwrite: replace an existing entry (its creation time is kept).
  ///   - guarded: every later read needs a fresh biometric check; an existing guard is kept.
  ///   - expectedRevision: when given, the entry must still exist at this revision (the one an
  ///     edit started from); checked in the same transaction as the write.
  ///   - change: what makes this version, recorded in it for `history`; by default `.added`
  ///     for a new entry and `.replaced` for an existing one.
  /// - Throws: `VaultError.exists` without `overwrite`; `.conflict` (exit 18) when
  ///   `expectedRevision` does not match; `.invalidInput` for empty content; `.integrity` when
  ///   the replaced entry's bucket does not verify; `.storage` on failure (nothing is changed
  ///   then).
  public func put(
    _ name: EntryName, content: SecureBytes, overwrite: Bool, guarded: Bool,
    expectedRevision: Int64? = nil, change: EntryChange? = nil
  ) throws {
    try put(
      name, source: .whole(content), overwrite: overwrite, guarded: guarded,
      expectedRevision: expectedRevision, change: change)
  }

  /// `put` of a content from `source`: a streamed source is sealed piece by piece (`vault(5)`
  /// Streamed contents), never held whole, into a spool file before the write (`ContentSpool`),
  /// so that reading it holds no lock; the write then only inserts its chunks.
  ///
  /// - Throws: as `put`; what the source's `read` throws; `VaultError.conflict` when another
  ///   command changed the name while the content was read (nothing is written then).
  public func put(
    _ name: EntryName, source: ContentSource, overwrite: Bool, guarded: Bool,
    expectedRevision: Int64? = nil, change: EntryChange? = nil
  ) throws {
    var sealing = Sealing.source(source)
    switch source {
    case .whole(let content) where content.count == 0:
      throw VaultError.invalidInput(.emptyContent)
    case .whole, .streamedInWrite: break
    case .streamed(let prefix, let read):
      guard prefix.count > Self.streamThreshold else {
        throw VaultError.invalidInput(.streamedContentStartsShort)
      }
      // Where the write will put it, learned first (and refused early when the name is taken).
      let (recordID, revision) = try vault.reading(masterKey: masterKey) { snapshot in
        let named = try record(
          named: name, in: snapshot.rows(inBucket: bucket(name), db: db, rowKey: rowKey))
        if case .entry = named, !overwrite { throw VaultError.exists(name.value) }
        return (
          named?.row.recordID ?? SecureRandom.bytes(count: 16), (named?.row.revision ?? 0) + 1
        )
      }
      sealing = .spooled(
        try ContentSpool.seal(
          prefix: prefix, read: read, boxes: boxes, recordID: recordID, revision: revision,
          folder: PrivateFiles.parentFolder(of: vault.path)))
    }
    try vault.write(masterKey: masterKey) { write in
      try put(
        name, sealing: sealing, overwrite: overwrite, guarded: guarded,
        expectedRevision: expectedRevision, change: change, in: write)
    }
  }

  /// How `put` gets a content's chunks: sealed in the write, or sealed before it.
  package enum Sealing {
    /// Sealed in the write from this source.
    case source(ContentSource)
    /// Sealed before the write, for the record id and revision it names.
    case spooled(ContentSpool)
  }

  /// `put` as part of the write `write` (many entries in one transaction: a fill, an import).
  ///
  /// Names put earlier in the same write are not seen: give each name once. `time` is the
  /// version's time (ISO 8601 UTC), the clock's now by default: a bulk write gives one time to
  /// every version it makes.
  ///
  /// - Returns: true when an existing entry was replaced.
  @discardableResult
  package func put(
    _ name: EntryName, content: SecureBytes, overwrite: Bool, guarded: Bool,
    expectedRevision: Int64? = nil, change: EntryChange? = nil, at time: String? = nil,
    in write: StateWrite
  ) throws -> Bool {
    try put(
      name, source: .whole(content), overwrite: overwrite, guarded: guarded,
      expectedRevision: expectedRevision, change: change, at: time, in: write)
  }

  /// `put(_:source:…)` as part of the write `write`.
  ///
  /// - Returns: true when an existing entry was replaced.
  @discardableResult
  package func put(
    _ name: EntryName, source: ContentSource, overwrite: Bool, guarded: Bool,
    expectedRevision: Int64? = nil, change: EntryChange? = nil, at time: String? = nil,
    in write: StateWrite
  ) throws -> Bool {
    try put(
      name, sealing: .source(source), overwrite: overwrite, guarded: guarded,
      expectedRevision: expectedRevision, change: change, at: time, in: write)
  }

  /// `put` with the content's chunks sealed as `sealing` says.
  ///
  /// - Returns: true when an existing entry was replaced.
  /// - Throws: as `put`; `VaultError.conflict` when a spooled content was sealed for another
  ///   record or revision than the name has now.
  @discardableResult
  package func put(
    _ name: EntryName, sealing: Sealing, overwrite: Bool, guarded: Bool,
    expectedRevision: Int64? = nil, change: EntryChange? = nil, at time: String? = nil,
    in write: StateWrite
  ) throws -> Bool {
    let now = time ?? Timestamp.utc(vault.environment.clock.wallNow)
    let named = try record(named: name, in: write.rows(inBucket: bucket(name)))
    var existing: Found?
    switch named {
    case .entry(let found):
      guard overwrite else { throw VaultError.exists(name.value) }
      existing = found
    case .tombstone, nil: break
    }
    if let expectedRevision, existing?.metadata.revision != expectedRevision {
      throw VaultError.conflict(.entryChangedWhileEdited(name: name.value))
    }
    var spool: ContentSpool?
    if case .spooled(let spooled) = sealing { spool = spooled }
    let recordID = named?.row.recordID ?? spool?.recordID ?? SecureRandom.bytes(count: 16)
    let revision = (named?.row.revision ?? 0) + 1
    if let spool, spool.recordID != recordID || spool.revision != revision {
      throw VaultError.conflict(.entryChangedWhileContentRead(name: name.value))
    }
    if let existing { try keepRevision(of: existing, replacedAt: now, in: write) }
    let sealed: (length: Int, streamed: Bool, contentID: [UInt8])
    switch sealing {
    case .source(let source):
      sealed = try sealContent(source, recordID: recordID, revision: revision, in: write)
    case .spooled(let spool):
      try spool.forEachBox { index, box in
        try write.insert(
          ChunkRow(recordID: recordID, revision: revision, index: Int64(index), box: box))
      }
      sealed = (spool.length, true, spool.contentID)
    }
    // Replacing content never drops a guard: only a new entry takes `guarded` as given.
    let body = Body(
      name: name.value, created: existing?.metadata.created ?? now, updated: now,
      guarded: guarded || (existing?.metadata.guarded ?? false), length: sealed.length,
      contentRevision: revision, changed: now,
      change: (change ?? (existing == nil ? .added : .replaced)).rawValue,
      stream: sealed.streamed ? true : nil, contentID: sealed.contentID.base64)
    try writeEntry(body, recordID: recordID, revision: revision, replacing: named, in: write)
    if named != nil { try prune(recordID, current: revision, in: write) }
    return existing != nil
  }

  /// Seals `body` as the entry `recordID` at `revision`, in place of `old` (its entry or
  /// tombstone row, whose clock it follows).
  func writeEntry(
    _ body: Body, recordID: [UInt8], revision: Int64, replacing old: NameRecord?,
    in write: StateWrite
  ) throws {
    var json = try encode(body)
    defer { wipe(&json) }
    let name = try EntryName(body.name)
    try write.replace(
      old?.row,
      with: RecordRow(
        recordID: recordID, lookup: lookup(name), kind: RecordKind.entry.rawValue,
        revision: revision,
        box: boxes.seal(
          json, recordID: recordID, kind: .entry, revision: revision, deviceID: deviceID,
          hlc: RecordBox.hlc(now: vault.environment.clock.wallNow, after: old?.hlc))))
  }

  /// The writing device's id (16 zero bytes before it has a record).
  package var deviceID: [UInt8] {
    knownDeviceID ?? vault.localDevice?.deviceIDBytes ?? [UInt8](repeating: 0, count: 16)
  }

  /// Every content version that `rows` (entries and revisions) name, with the metadata of one
  /// version that names it.
  ///
  /// - Throws: `VaultError.integrity` when a record does not open.
  package func contentVersions(_ rows: [RecordRow]) throws -> [ContentVersion: EntryMetadata] {
    var versions: [ContentVersion: EntryMetadata] = [:]
    for row in rows {
      switch RecordKind(rawValue: row.kind) {
      case .entry:
        let metadata = try open(row).metadata
        versions[ContentVersion(recordID: row.recordID, revision: metadata.contentRevision)] =
          metadata
      case .revision:
        let kept = try openRevision(row)
        versions[
          ContentVersion(recordID: kept.entryID, revision: kept.metadata.contentRevision)] =
          kept.metadata
      default: break
      }
    }
    return versions
  }

  /// Every entry's metadata whose name starts with `prefix`, sorted by name (UTF-8 byte order),
  /// after verifying every bucket.
  ///
  /// - Throws: `VaultError.integrity` when a record or the state fails authentication.
  public func list(prefix: String = "") throws -> [EntryMetadata] {
    try scanEntries(prefix: prefix) { $0.metadata }
  }

  /// What `vault list`, `find` and completion show of every entry whose name starts with
  /// `prefix`, sorted by name (UTF-8 byte order), after verifying every bucket: each entry's
  /// record is opened and checked as `list` does, and only this much of it is kept.
  ///
  /// - Throws: `VaultError.integrity` when a record or the state fails authentication.
  public func listing(prefix: String = "") throws -> [EntryListing] {
    try scanEntries(prefix: prefix) {
      EntryListing(
        name: $0.body.name, created: $0.body.created, updated: $0.body.updated,
        guarded: $0.body.guarded)
    }
  }

  /// `keep` of every entry whose name starts with `prefix` (as bytes: `e` is a prefix of `e` +
  /// a joiner, as of any path), in one scan of the records, sorted by name.
  private func scanEntries<T: NamedListing>(prefix: String, _ keep: (Found) -> T) throws -> [T] {
    let normalized = prefix.canonicallyComposed
    return try vault.reading(masterKey: masterKey) { snapshot in
      var out = try snapshot.mapRows(db: db, rowKey: rowKey) { row -> T? in
        guard row.kind == RecordKind.entry.rawValue else { return nil }
        let found = try open(row, packed: true)
        return found.body.name.utf8.starts(with: normalized.utf8) ? keep(found) : nil
      }
      out.sort { $0.name.precedesInByteOrder($1.name) }
      return out
    }
  }

  /// The entry of `name` in a write, from the authenticated rows of its bucket.
  package func foundForWrite(_ name: EntryName, _ write: StateWrite) throws -> Found {
    switch try record(named: name, in: write.rows(inBucket: bucket(name))) {
    case .entry(let found): return found
    case .tombstone(let tombstone) where tombstone.body.purged == true:
      throw VaultError.purged(name.value)
    case .tombstone: throw VaultError.removed(name.value)
    case nil: throw VaultError.notFound(name.value)
    }
  }

  /// Removes `name`: its last version is kept as a revision and its row becomes a tombstone, so
  /// `restore` brings it back (until retention or `purge` removes the revision).
  ///
  /// - Returns: true when its last version is kept (false when retention keeps no history).
  /// - Throws: `VaultError.notFound`, `.removed`; `.integrity` as `get`.
  @discardableResult
  public func remove(_ name: EntryName) throws -> Bool {
    try vault.write(masterKey: masterKey) { write in
      let found = try foundForWrite(name, write)
      let now = Timestamp.utc(vault.environment.clock.wallNow)
      try keepRevision(of: found, replacedAt: now, in: write)
      try writeTombstone(
        TombstoneBody(
          name: name.value, removed: now, entryRevision: found.row.revision, purged: nil),
        replacing: .entry(found), in: write)
      try prune(found.row.recordID, current: nil, in: write)
      return try revisions(
        of: found.row.recordID, in: write.rows(inBucket: Int(found.row.recordID[0]))
      ).contains { $0.entryRevision == found.row.revision }
    }
  }

  /// Renames `old` to `new`, keeping the previous version as a revision.
  ///
  /// The content and its chunks are untouched. A record under `new` (an entry, with `overwrite`, or a tombstone) has
  /// its versions moved into the renamed entry's history first.
  ///
  /// - Throws: `VaultError.notFound` or `.removed` for `old`, `.exists` when `new` exists and
  ///   `overwrite` is false; `.integrity` as `get`.
  public func move(_ old: EntryName, to new: EntryName, overwrite: Bool) throws {
    try vault.write(masterKey: masterKey) { write in
      let found = try foundForWrite(old, write)
      if old == new { return }
      let now = Timestamp.utc(vault.environment.clock.wallNow)
      try keepRevision(of: found, replacedAt: now, in: write)
      var revision = found.row.revision + 1
      if let target = try record(named: new, in: write.rows(inBucket: bucket(new))) {
        if case .entry = target, !overwrite { throw VaultError.exists(new.value) }
        revision = try absorb(target, into: found.row.recordID, from: revision, at: now, in: write)
      }
      var body = found.body
      body.name = new.value
      body.changed = now
      body.change = EntryChange.renamed.rawValue
      try writeEntry(
        body, recordID: found.row.recordID, revision: revision, replacing: .entry(found),
        in: write)
      try prune(found.row.recordID, current: body.contentRevision, in: write)
    }
  }
}

/// What `EntryStore.verifyAll` opened.
public struct VerifiedRecords: Equatable, Sendable {
  /// Every count zero.
  package init() {}

  /// Entries whose metadata and content opened.
  public var entries = 0
  /// Tombstones of removed entries.
  public var tombstones = 0
  /// Kept revisions whose body and content opened.
  public var revisions = 0
  /// Settings records (0 or 1).
  public var settings = 0
  /// Sync records (one per device that synced here).
  public var syncRecords = 0
  /// Content chunks verified, each once.
  public var chunks = 0
}
