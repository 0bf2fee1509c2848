import Foundation

/// Decrypted metadata of one entry.
public struct EntryMetadata: Codable, Equatable, Sendable {
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
  /// Number of content chunks.
  public var chunks: Int
  /// 16 random bytes (base64), new on every content write, bound into each chunk.
  public var revision: String
}

/// One entry read whole: its metadata and its content in guarded memory.
public struct OpenedEntry: Sendable {
  /// The decrypted metadata.
  public let metadata: EntryMetadata
  /// The content, byte for byte.
  public let content: SecureBytes
}

/// Entry operations on an unlocked vault.
///
/// Each entry has a random 16-byte id. Its row is found by the keyed BLAKE2b of its name (the
/// `nameIndex` subkey), never by the name. Metadata and each 64 KiB content chunk are separate
/// XChaCha20-Poly1305 boxes under the `entries` subkey whose associated data binds the vault id,
/// the entry id, the field and, for chunks, the revision, the index and the count.
public struct EntryStore {
  /// Content chunk size in bytes.
  public static let chunkSize = 64 * 1024
  /// Kind column value of an ordinary entry.
  static let kindSecret: Int64 = 0

  let vault: Vault
  let entriesKey: SymmetricKey
  let indexKey: SymmetricKey

  /// Entry access with the given master key (already verified against the header).
  public init(vault: Vault, masterKey: SymmetricKey) {
    self.vault = vault
    self.entriesKey = masterKey.derive(.entries)
    self.indexKey = masterKey.derive(.nameIndex)
  }

  private var db: SQLiteDatabase { vault.db }
  private var vaultID: [UInt8] { vault.vaultID.bytes }

  func lookup(_ name: EntryName) -> [UInt8] {
    GenericHash.keyed(
      key: indexKey.bytes, parts: [DomainLabel.name.bytes, Array(name.value.utf8)])
  }

  /// A short tag for `name` (16 hex digits of its keyed index hash), for per-entry bookkeeping
  /// outside the vault file that must not reveal the name.
  public func indexTag(_ name: EntryName) -> String {
    String(lookup(name).hex.prefix(16))
  }

  private func metaAD(_ entryID: [UInt8]) -> [UInt8] {
    DomainLabel.entryMeta.bytes + vaultID + entryID
  }

  private func chunkAD(_ entryID: [UInt8], revision: String, index: Int, count: Int) -> [UInt8] {
    DomainLabel.entryChunk.bytes + vaultID + entryID + Array(revision.utf8)
      + Bytes.u32(index) + Bytes.u32(count)
  }

  private func sealMeta(_ meta: EntryMetadata, entryID: [UInt8]) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var json: [UInt8]
    do {
      json = try [UInt8](encoder.encode(meta))
    } catch {
      throw VaultError.storage("an entry's metadata cannot be encoded")
    }
    // Pad with JSON whitespace to a multiple of 256 bytes so the box length hides the name length.
    json += [UInt8](repeating: 0x20, count: (256 - json.count % 256) % 256)
    defer { wipe(&json) }
    return AEAD.seal(json, key: entriesKey, associatedData: metaAD(entryID))
  }

  private func openMeta(_ box: [UInt8], entryID: [UInt8]) throws -> EntryMetadata {
    let plain = try AEAD.open(
      box, key: entriesKey, associatedData: metaAD(entryID),
      what: "the metadata of entry \(entryID.hex.prefix(8))")
    guard
      let meta = try? plain.withBytes({
        try JSONDecoder().decode(EntryMetadata.self, from: Data($0))
      })
    else { throw VaultError.integrity("an entry's metadata is malformed") }
    return meta
  }

  func row(_ name: EntryName) throws -> (entryID: [UInt8], meta: EntryMetadata)? {
    guard
      let found = try db.query(
        "SELECT entry_id, meta FROM entries WHERE lookup = ? AND kind = ?",
        [.blob(lookup(name)), .integer(Self.kindSecret)]
      ).first
    else { return nil }
    guard let entryID = found[0].blob, let box = found[1].blob else {
      throw VaultError.integrity("an entry row is malformed")
    }
    let meta = try openMeta(box, entryID: entryID)
    // A row moved under another name's index opens, but names the wrong entry.
    guard meta.name == name.value else {
      throw VaultError.integrity("the entry stored under '\(name)' belongs to another name")
    }
    return (entryID, meta)
  }

  /// Metadata of one entry, or nil when there is none.
  ///
  /// - Throws: `VaultError.integrity` when its record fails authentication.
  public func metadata(_ name: EntryName) throws -> EntryMetadata? {
    try row(name)?.meta
  }

  /// Stores `content` under `name` in one transaction.
  ///
  /// - Parameters:
  ///   - overwrite: replace an existing entry (its creation time is kept).
  ///   - guarded: every later read needs a fresh biometric check; an existing guard is kept.
  ///   - expectedRevision: when given, the entry must still exist with this revision (the
  ///     one an edit started from); checked in the same transaction as the write.
  /// - Throws: `VaultError.exists` without `overwrite`; `.conflict` when `expectedRevision` does
  ///   not match; `.invalidInput` for empty content;
  ///   `.storage` on failure (nothing is changed then).
  public func put(
    _ name: EntryName, content: SecureBytes, overwrite: Bool, guarded: Bool,
    expectedRevision: String? = nil
  ) throws {
    guard content.count > 0 else { throw VaultError.invalidInput("the content is empty") }
    let now = Timestamp.utc(vault.environment.clock.wallNow)
    try db.transaction {
      let existing = try row(name)
      if existing != nil && !overwrite { throw VaultError.exists(name.value) }
      if let expectedRevision, existing?.meta.revision != expectedRevision {
        throw VaultError.conflict("'\(name)' changed while it was being edited")
      }
      let entryID = existing?.entryID ?? SecureBytes.random(count: 16).unprotectedBytes
      let revision = SecureBytes.random(count: 16).unprotectedBytes.base64
      let count = (content.count + Self.chunkSize - 1) / Self.chunkSize
      // Replacing content never drops a guard: only a new entry takes `guarded` as given.
      let meta = EntryMetadata(
        name: name.value, created: existing?.meta.created ?? now, updated: now,
        guarded: guarded || (existing?.meta.guarded ?? false), length: content.count,
        chunks: count, revision: revision)
      try db.query("DELETE FROM chunks WHERE entry_id = ?", [.blob(entryID)])
      try db.query(
        "INSERT OR REPLACE INTO entries (entry_id, lookup, kind, meta) VALUES (?, ?, ?, ?)",
        [
          .blob(entryID), .blob(lookup(name)), .integer(Self.kindSecret),
          .blob(try sealMeta(meta, entryID: entryID)),
        ])
      try content.withBytes { all in
        for index in 0..<count {
          let start = index * Self.chunkSize
          let slice = UnsafeRawBufferPointer(
            rebasing: all[start..<min(start + Self.chunkSize, all.count)])
          let box = AEAD.seal(
            slice, key: entriesKey,
            associatedData: chunkAD(entryID, revision: revision, index: index, count: count))
          try db.query(
            "INSERT INTO chunks (entry_id, idx, box) VALUES (?, ?, ?)",
            [.blob(entryID), .integer(Int64(index)), .blob(box)])
        }
      }
    }
  }

  /// The content of `name`, in guarded memory.
  ///
  /// - Throws: `VaultError.notFound`; `.integrity` when any record fails authentication or chunks
  ///   are missing, extra, or from another revision.
  public func get(_ name: EntryName) throws -> (metadata: EntryMetadata, content: SecureBytes) {
    guard let (entryID, meta) = try row(name) else { throw VaultError.notFound(name.value) }
    return (meta, try content(entryID: entryID, meta: meta, name: name.value))
  }

  /// Opens every ordinary entry by its row, not through the name index, so a damaged index is
  /// reported rather than read as a missing entry.
  ///
  /// - Returns: the number of entries and of content chunks verified.
  /// - Throws: `VaultError.integrity` at the first damaged row, naming it.
  public func verifyAll() throws -> (entries: Int, chunks: Int) {
    let rows = try db.query(
      "SELECT entry_id, lookup, meta FROM entries WHERE kind = ?", [.integer(Self.kindSecret)])
    var chunks = 0
    for row in rows {
      guard let entryID = row[0].blob, let box = row[2].blob else {
        throw VaultError.integrity("an entry row is malformed")
      }
      let meta = try openMeta(box, entryID: entryID)
      let expected = lookup(try EntryName(meta.name))
      guard let stored = row[1].blob, constantTimeEqual(stored, expected) else {
        throw VaultError.integrity("the name index of '\(meta.name)' is damaged")
      }
      _ = try content(entryID: entryID, meta: meta, name: meta.name)
      chunks += meta.chunks
    }
    return (rows.count, chunks)
  }

  func content(entryID: [UInt8], meta: EntryMetadata, name: String) throws
    -> SecureBytes
  {
    let rows = try db.query(
      "SELECT idx, box FROM chunks WHERE entry_id = ? ORDER BY idx", [.blob(entryID)])
    guard rows.count == meta.chunks else {
      throw VaultError.integrity("the content of '\(name)' has missing or extra chunks")
    }
    let content = SecureBytes(count: meta.length)
    var offset = 0
    for (index, chunk) in rows.enumerated() {
      guard chunk[0].integer == Int64(index), let box = chunk[1].blob else {
        throw VaultError.integrity("the content of '\(name)' has misplaced chunks")
      }
      let plain = try AEAD.open(
        box, key: entriesKey,
        associatedData: chunkAD(entryID, revision: meta.revision, index: index, count: meta.chunks),
        what: "the content of '\(name)'")
      guard offset + plain.count <= meta.length else {
        throw VaultError.integrity("the content of '\(name)' is longer than recorded")
      }
      (content.pointer + offset).copyMemory(from: plain.pointer, byteCount: plain.count)
      offset += plain.count
    }
    guard offset == meta.length else {
      throw VaultError.integrity("the content of '\(name)' is shorter than recorded")
    }
    return content
  }

  /// Every entry's metadata whose name starts with `prefix`, sorted by name (UTF-8 byte order).
  ///
  /// - Throws: `VaultError.integrity` when a record fails authentication.
  public func list(prefix: String = "") throws -> [EntryMetadata] {
    let normalized = prefix.precomposedStringWithCanonicalMapping
    let rows = try db.query(
      "SELECT entry_id, meta FROM entries WHERE kind = ?", [.integer(Self.kindSecret)])
    var out: [EntryMetadata] = []
    for row in rows {
      guard let entryID = row[0].blob, let box = row[1].blob else {
        throw VaultError.integrity("an entry row is malformed")
      }
      let meta = try openMeta(box, entryID: entryID)
      if meta.name.hasPrefix(normalized) { out.append(meta) }
    }
    return out.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
  }

  /// Deletes `name` and its content.
  ///
  /// - Throws: `VaultError.notFound`.
  public func remove(_ name: EntryName) throws {
    try db.transaction {
      guard let (entryID, _) = try row(name) else { throw VaultError.notFound(name.value) }
      try db.query("DELETE FROM chunks WHERE entry_id = ?", [.blob(entryID)])
      try db.query("DELETE FROM entries WHERE entry_id = ?", [.blob(entryID)])
    }
  }

  /// Renames `old` to `new`; the content and its chunks are untouched.
  ///
  /// - Throws: `VaultError.notFound` for `old`, `.exists` when `new` exists and `overwrite` is
  ///   false.
  public func move(_ old: EntryName, to new: EntryName, overwrite: Bool) throws {
    try db.transaction {
      guard let (entryID, meta) = try row(old) else { throw VaultError.notFound(old.value) }
      if old == new { return }
      if let target = try row(new) {
        guard overwrite else { throw VaultError.exists(new.value) }
        try db.query("DELETE FROM chunks WHERE entry_id = ?", [.blob(target.entryID)])
        try db.query("DELETE FROM entries WHERE entry_id = ?", [.blob(target.entryID)])
      }
      var renamed = meta
      renamed.name = new.value
      try db.query(
        "UPDATE entries SET lookup = ?, meta = ? WHERE entry_id = ?",
        [.blob(lookup(new)), .blob(try sealMeta(renamed, entryID: entryID)), .blob(entryID)])
    }
  }
}
