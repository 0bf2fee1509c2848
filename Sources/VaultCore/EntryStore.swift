import Foundation

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
  /// Number of content chunks (of the padded content).
  public var chunks: Int {
    (Padding.paddedLength(length) + EntryStore.chunkSize - 1) / EntryStore.chunkSize
  }
}

/// One entry read whole: its metadata and its content in guarded memory.
public struct OpenedEntry: Sendable {
  /// The decrypted metadata.
  public let metadata: EntryMetadata
  /// The content, byte for byte.
  public let content: SecureBytes
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

  /// The JSON body of an entry record.
  struct Body: Codable {
    var name: String
    var created: String
    var updated: String
    var guarded: Bool
    var length: Int
    var contentRevision: Int64

    enum CodingKeys: String, CodingKey {
      case name, created, updated, guarded, length
      case contentRevision = "content_revision"
    }
  }

  /// A found entry: its row, its opened body and clock.
  struct Found {
    let row: RecordRow
    let metadata: EntryMetadata
    let hlc: UInt64
  }

  let vault: Vault
  let masterKey: SymmetricKey
  let boxes: RecordBox
  let indexKey: SymmetricKey
  let rowKey: SymmetricKey

  /// Entry access with the given master key (already verified against the header and state).
  public init(vault: Vault, masterKey: SymmetricKey) {
    self.vault = vault
    self.masterKey = masterKey
    self.boxes = RecordBox(vaultID: vault.vaultID, masterKey: masterKey)
    self.indexKey = masterKey.derive(.nameIndex)
    self.rowKey = masterKey.derive(.rows)
  }

  private var db: SQLiteDatabase { vault.db }

  func lookup(_ name: EntryName) -> [UInt8] {
    GenericHash.keyed(
      key: indexKey.bytes, parts: [DomainLabel.name.bytes, Array(name.value.utf8)])
  }

  /// A short tag for `name` (16 hex digits of its keyed index hash), for per-entry bookkeeping
  /// outside the vault file that must not reveal the name.
  public func indexTag(_ name: EntryName) -> String {
    String(lookup(name).hex.prefix(16))
  }

  private func encode(_ body: Body) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      return try [UInt8](encoder.encode(body))
    } catch {
      throw VaultError.storage("an entry's metadata cannot be encoded")
    }
  }

  func open(_ row: RecordRow) throws -> Found {
    guard row.kind == RecordKind.entry.rawValue else {
      throw VaultError.integrity("a record under an entry's name is not an entry")
    }
    let opened = try boxes.open(
      row, kind: .entry, what: "the metadata of entry \(row.recordID.hex.prefix(8))")
    guard
      let body = try? opened.body.withBytes({ try JSONDecoder().decode(Body.self, from: Data($0)) }
      ),
      body.length >= 1, body.contentRevision >= 1, body.contentRevision <= row.revision
    else { throw VaultError.integrity("an entry's metadata is malformed") }
    let metadata = EntryMetadata(
      name: body.name, created: body.created, updated: body.updated, guarded: body.guarded,
      length: body.length, revision: row.revision, contentRevision: body.contentRevision)
    return Found(row: row, metadata: metadata, hlc: opened.hlc)
  }

  /// The entry of `name` among the authenticated rows of its bucket, opened.
  ///
  /// - Throws: `VaultError.integrity` when its record fails or names another entry.
  func find(_ name: EntryName, in rows: [RecordRow]) throws -> Found? {
    let index = lookup(name)
    guard let row = rows.first(where: { $0.lookup == index }) else { return nil }
    let found = try open(row)
    // A row moved under another name's index opens, but names the wrong entry.
    guard found.metadata.name == name.value else {
      throw VaultError.integrity("the entry stored under '\(name)' belongs to another name")
    }
    return found
  }

  /// The bucket of `name` (the first byte of its name index).
  func bucket(_ name: EntryName) -> Int { Int(lookup(name)[0]) }

  /// The entry of `name` in `snapshot`, from the rows of its name's bucket, verified: a deleted
  /// or hidden row is an integrity failure rather than a missing entry.
  ///
  /// - Throws: `VaultError.notFound`, `.integrity`.
  func verifiedFind(_ name: EntryName, in snapshot: StateSnapshot) throws -> Found {
    let rows = try snapshot.rows(inBucket: bucket(name), db: db, rowKey: rowKey)
    guard let found = try find(name, in: rows) else { throw VaultError.notFound(name.value) }
    return found
  }

  /// Metadata of one entry, or nil when there is none.
  ///
  /// - Throws: `VaultError.integrity` when its record, or the state, fails authentication.
  public func metadata(_ name: EntryName) throws -> EntryMetadata? {
    try vault.reading(masterKey: masterKey) { snapshot in
      do {
        return try verifiedFind(name, in: snapshot).metadata
      } catch VaultError.notFound {
        return nil
      }
    }
  }

  private func content(_ found: Found, name: String) throws -> SecureBytes {
    let rows = try db.query(
      "SELECT \(ChunkRow.selectColumns) FROM chunks WHERE record_id = ? AND revision = ?"
        + " ORDER BY idx",
      [.blob(found.row.recordID), .integer(found.metadata.contentRevision)]
    ).map(ChunkRow.init)
    return try boxes.openChunks(
      rows, recordID: found.row.recordID, revision: found.metadata.contentRevision,
      length: found.metadata.length, chunkSize: Self.chunkSize,
      what: "the content of '\(name)'")
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
  func read(_ name: EntryName, withholding withheld: (EntryMetadata) -> Bool) throws
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
  /// - Parameters:
  ///   - overwrite: replace an existing entry (its creation time is kept).
  ///   - guarded: every later read needs a fresh biometric check; an existing guard is kept.
  ///   - expectedRevision: when given, the entry must still exist at this revision (the one an
  ///     edit started from); checked in the same transaction as the write.
  /// - Throws: `VaultError.exists` without `overwrite`; `.conflict` (exit 18) when
  ///   `expectedRevision` does not match; `.invalidInput` for empty content; `.integrity` when the replaced entry's
  ///   bucket does not verify; `.storage` on failure (nothing is changed then).
  public func put(
    _ name: EntryName, content: SecureBytes, overwrite: Bool, guarded: Bool,
    expectedRevision: Int64? = nil
  ) throws {
    guard content.count > 0 else { throw VaultError.invalidInput("the content is empty") }
    try vault.write(masterKey: masterKey) { change in
      try put(
        name, content: content, overwrite: overwrite, guarded: guarded,
        expectedRevision: expectedRevision, in: change)
    }
  }

  /// `put` as part of the write `change` (many entries in one transaction: a fill, an import).
  ///
  /// Names put earlier in the same write are not seen: give each name once.
  func put(
    _ name: EntryName, content: SecureBytes, overwrite: Bool, guarded: Bool,
    expectedRevision: Int64? = nil, in change: StateWrite
  ) throws {
    let clock = vault.environment.clock
    let now = Timestamp.utc(clock.wallNow)
    let deviceID = vault.localDevice?.deviceIDBytes ?? [UInt8](repeating: 0, count: 16)
    do {
      let existing = try find(name, in: change.rows(inBucket: bucket(name)))
      if existing != nil && !overwrite { throw VaultError.exists(name.value) }
      if let expectedRevision, existing?.metadata.revision != expectedRevision {
        throw VaultError.conflict("'\(name)' changed while it was being edited")
      }
      let recordID = existing?.row.recordID ?? SecureBytes.random(count: 16).unprotectedBytes
      let revision = (existing?.row.revision ?? 0) + 1
      // Replacing content never drops a guard: only a new entry takes `guarded` as given.
      let body = Body(
        name: name.value, created: existing?.metadata.created ?? now, updated: now,
        guarded: guarded || (existing?.metadata.guarded ?? false), length: content.count,
        contentRevision: revision)
      var json = try encode(body)
      defer { wipe(&json) }
      try change.deleteChunks(recordID)
      try change.replace(
        existing?.row,
        with: RecordRow(
          recordID: recordID, lookup: lookup(name), kind: RecordKind.entry.rawValue,
          revision: revision,
          box: boxes.seal(
            json, recordID: recordID, kind: .entry, revision: revision, deviceID: deviceID,
            hlc: RecordBox.hlc(now: clock.wallNow, after: existing?.hlc))))
      for chunk in boxes.sealChunks(
        content, recordID: recordID, revision: revision, chunkSize: Self.chunkSize)
      {
        try change.insert(chunk)
      }
    }
  }

  /// Opens every entry by its row, not through the name index, and checks each row's index, so
  /// a damaged index is reported rather than read as a missing entry.
  ///
  /// - Returns: the number of entries and of content chunks verified.
  /// - Throws: `VaultError.integrity` at the first damaged row, naming it.
  public func verifyAll() throws -> (entries: Int, chunks: Int) {
    try vault.reading(masterKey: masterKey) { snapshot in
      let rows = try snapshot.allRows(db: db, rowKey: rowKey).filter {
        $0.kind == RecordKind.entry.rawValue
      }
      try snapshot.verifyChunks(db: db, rowKey: rowKey)
      var chunks = 0
      for row in rows {
        let found = try open(row)
        let expected = lookup(try EntryName(found.metadata.name))
        guard let stored = found.row.lookup, constantTimeEqual(stored, expected) else {
          throw VaultError.integrity("the name index of '\(found.metadata.name)' is damaged")
        }
        _ = try content(found, name: found.metadata.name)
        chunks += found.metadata.chunks
      }
      let stored = try db.query("SELECT count(*) FROM chunks").first?.first?.integer ?? 0
      guard stored == Int64(chunks) else {
        throw VaultError.integrity("\(stored - Int64(chunks)) content chunk(s) belong to no entry")
      }
      return (rows.count, chunks)
    }
  }

  /// Every entry's metadata whose name starts with `prefix`, sorted by name (UTF-8 byte order),
  /// after verifying every bucket.
  ///
  /// - Throws: `VaultError.integrity` when a record or the state fails authentication.
  public func list(prefix: String = "") throws -> [EntryMetadata] {
    let normalized = prefix.precomposedStringWithCanonicalMapping
    return try vault.reading(masterKey: masterKey) { snapshot in
      let rows = try snapshot.allRows(db: db, rowKey: rowKey).filter {
        $0.kind == RecordKind.entry.rawValue
      }
      var out: [EntryMetadata] = []
      for row in rows {
        let metadata = try open(row).metadata
        if metadata.name.hasPrefix(normalized) { out.append(metadata) }
      }
      return out.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }
  }

  /// The entry of `name` in a write, from the authenticated rows of its bucket.
  private func foundForWrite(_ name: EntryName, _ change: StateWrite) throws -> Found {
    guard let found = try find(name, in: change.rows(inBucket: bucket(name))) else {
      throw VaultError.notFound(name.value)
    }
    return found
  }

  /// Deletes `name` and its content.
  ///
  /// - Throws: `VaultError.notFound`; `.integrity` as `get`.
  public func remove(_ name: EntryName) throws {
    try vault.write(masterKey: masterKey) { change in
      let found = try foundForWrite(name, change)
      try change.deleteChunks(found.row.recordID)
      try change.delete(found.row)
    }
  }

  /// Renames `old` to `new`; the content and its chunks are untouched.
  ///
  /// - Throws: `VaultError.notFound` for `old`, `.exists` when `new` exists and `overwrite` is
  ///   false; `.integrity` as `get`.
  public func move(_ old: EntryName, to new: EntryName, overwrite: Bool) throws {
    let clock = vault.environment.clock
    let deviceID = vault.localDevice?.deviceIDBytes ?? [UInt8](repeating: 0, count: 16)
    try vault.write(masterKey: masterKey) { change in
      let found = try foundForWrite(old, change)
      if old == new { return }
      if let target = try find(new, in: change.rows(inBucket: bucket(new))) {
        guard overwrite else { throw VaultError.exists(new.value) }
        try change.deleteChunks(target.row.recordID)
        try change.delete(target.row)
      }
      let metadata = found.metadata
      let body = Body(
        name: new.value, created: metadata.created, updated: metadata.updated,
        guarded: metadata.guarded, length: metadata.length,
        contentRevision: metadata.contentRevision)
      var json = try encode(body)
      defer { wipe(&json) }
      let revision = found.row.revision + 1
      try change.replace(
        found.row,
        with: RecordRow(
          recordID: found.row.recordID, lookup: lookup(new), kind: RecordKind.entry.rawValue,
          revision: revision,
          box: boxes.seal(
            json, recordID: found.row.recordID, kind: .entry, revision: revision,
            deviceID: deviceID, hlc: RecordBox.hlc(now: clock.wallNow, after: found.hlc))))
    }
  }
}
