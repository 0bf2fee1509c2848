import VaultCrypto

/// One write to a format-2 vault, inside its `BEGIN IMMEDIATE` transaction.
///
/// Every row it inserts or removes goes through here, so the per-bucket aggregates and the
/// chunks' aggregate follow each change, and `Vault.write` ends it with the next state. See
/// "Writes" in `vault(5)`.
package final class StateWrite {
  let db: SQLiteDatabase
  let vaultID: VaultID
  private let rowKey: SymmetricKey
  package private(set) var buckets: [Aggregate]
  private(set) var chunkSum: Aggregate
  package private(set) var headerBody: [UInt8]
  package private(set) var headerMAC: [UInt8]
  /// The verified newest state this write extends.
  let base: StateSnapshot?

  ///
  /// `chunkHash` is the base header's rule when the caller has that header parsed already;
  /// otherwise it is read from the base's header body.
  package init(
    db: SQLiteDatabase, vaultID: VaultID, masterKey: SymmetricKey, base: StateSnapshot?,
    chunkHash known: ChunkHash?? = nil
  ) {
    self.db = db
    self.vaultID = vaultID
    self.rowKey = masterKey.derive(.rows)
    self.base = base
    buckets = (0..<StateSnapshot.bucketCount).map { index in
      base.flatMap { Aggregate(bytes: $0.bucket(index)) } ?? .zero
    }
    chunkSum = base.flatMap { Aggregate(bytes: $0.chunks) } ?? .zero
    headerBody = base?.headerBody ?? []
    headerMAC = base?.headerMAC ?? []
    // A write that starts the rows afresh (a new file, a rotation) hashes chunks by their tag.
    chunkHashing = ChunkRowHash(
      rule: base == nil ? .tag : (known ?? base?.chunkHash), rowKey: rowKey)
  }

  private lazy var hasher = RowHash.Hasher(key: rowKey)
  /// How chunk rows are hashed: as the header this write extends says.
  private(set) var chunkHashing: ChunkRowHash
  /// The header a `migrateChunkHash` in this write replaced, and the one it wrote.
  private(set) var migratedHeader: (from: [UInt8], to: [UInt8], mac: [UInt8])?

  /// A chunk row's hash, with a box too short to hash an integrity failure.
  private func chunkHash(_ hash: () throws -> [UInt8]) throws -> [UInt8] {
    do {
      return try hash()
    } catch is ChunkRowHash.TooShort {
      throw VaultError.integrity(.state(.chunkTooShort))
    }
  }

  private func hash(_ row: RecordRow) -> [UInt8] {
    hasher.hash(table: RowHash.records, columns: row.columns)
  }

  /// The keyed hash of `row` that its bucket's aggregate sums.
  package func rowHash(_ row: RecordRow) -> [UInt8] { hash(row) }

  /// The rows of each bucket read so far: verified against the state this write extends, then
  /// kept current with this write's inserts and deletes.
  private var current: [Int: [RecordRow]] = [:]

  /// The rows of `bucket` as they are now in this write: those the state it extends
  /// authenticates (`StateSnapshot.rows(inBucket:)`, read and verified at the first use of the
  /// bucket), with the rows this write inserted and without those it removed.
  package func rows(inBucket bucket: Int) throws -> [RecordRow] {
    if let rows = current[bucket] { return rows }
    let rows = try base?.rows(inBucket: bucket, db: db, rowKey: rowKey) ?? []
    current[bucket] = rows
    return rows
  }

  /// The authenticated record without a name whose id is `recordID` (a journal entry, a
  /// counter, a revision, the settings), from its bucket.
  package func unnamedRecord(_ recordID: [UInt8]) throws -> RecordRow? {
    try rows(inBucket: Int(recordID[0])).first { $0.recordID == recordID && $0.lookup == nil }
  }

  /// Inserts a record row and adds its hash; its bucket is verified first.
  ///
  /// Without `keepingBox` this write's view of the bucket holds the row without its box: for
  /// rows no later step of the write reads back and that may be large (an import's journal
  /// entries, up to 16 MiB each, which were all held until the commit). A step that read such a
  /// row back would fail (an empty box opens as nothing, and deleting it finds no row), never
  /// read wrong data.
  package func insert(_ row: RecordRow, keepingBox: Bool = true) throws {
    _ = try rows(inBucket: row.bucket)
    try db.query(
      "INSERT INTO records (rowid, \(RecordRow.storedColumns)) VALUES (?, ?, ?, ?, ?, ?)",
      [try Self.nextRowid(inBucket: row.bucket, db: db)] + row.parameters)
    var stored = row
    stored.rowid = db.lastInsertRowID
    if !keepingBox { stored.box = [] }
    current[row.bucket, default: []].append(stored)
    buckets[row.bucket].add(hash(row))
  }

  /// How far bucket `b`'s rowids are shifted: they start at `b << rowidBucketShift`.
  ///
  /// A bucket's rows then lie side by side in the table, so the read of one bucket (every
  /// `vault get`) touches a few pages, not one page per row. The rowid is never hashed (vault(5)
  /// STATE); rows written before this (release 0.6.0 and earlier: 1, 2, 3, …) stay where they
  /// are, below bucket 1's range.
  static let rowidBucketShift: Int64 = 48

  /// The rowid for a new row of `bucket`: one past the highest in its range, or its first; SQLite
  /// picks one (NULL) in the unlikely case the range is full.
  static func nextRowid(inBucket bucket: Int, db: SQLiteDatabase) throws -> SQLiteDatabase.Value {
    let lower = Int64(bucket) << rowidBucketShift
    let upper = lower + (Int64(1) << rowidBucketShift)
    let highest = try db.query(
      "SELECT max(rowid) FROM records WHERE rowid >= ? AND rowid < ?",
      [.integer(lower), .integer(upper)]
    ).first?.first?.integer
    let next = (highest ?? lower) + 1
    return next < upper ? .integer(next) : .null
  }

  /// Removes `row` (read from its verified bucket) by its rowid and subtracts its hash.
  ///
  /// - Throws: `VaultError.integrity` when no row or another row is there.
  package func delete(_ row: RecordRow) throws {
    guard let rowid = row.rowid else { preconditionFailure("a stored row has a rowid") }
    try db.query(
      "DELETE FROM records WHERE rowid = ? AND record_id = ? AND box = ?",
      [.integer(rowid), .blob(row.recordID), .blob(row.box)])
    guard db.changes == 1 else { throw VaultError.integrity(.state(.recordsNotAuthenticated)) }
    // Taken out and put back, so the bucket's array is changed in place, and searched by index,
    // so no other row is copied: a bulk write deletes from buckets of hundreds of rows.
    if var rows = current.removeValue(forKey: row.bucket) {
      var index = rows.startIndex
      while index < rows.endIndex && rows[index].rowid != rowid { index += 1 }
      if index < rows.endIndex { rows.remove(at: index) }
      current[row.bucket] = rows
    }
    buckets[row.bucket].subtract(hash(row))
  }

  /// Replaces `old` (when given, from its verified bucket) with `new`.
  package func replace(_ old: RecordRow?, with new: RecordRow) throws {
    if let old { try delete(old) }
    try insert(new)
  }

  /// Inserts a chunk row and adds its hash.
  package func insert(_ chunk: ChunkRow) throws {
    if insertChunk == nil {
      insertChunk = try db.prepare(
        "INSERT INTO chunks (\(ChunkRow.selectColumns)) VALUES (?, ?, ?, ?)")
    }
    let hash = try chunkHash { try chunkHashing.hash(chunk) }
    try insertChunk?.run([
      .blob(chunk.recordID), .integer(chunk.revision), .integer(chunk.index), .blob(chunk.box),
    ])
    chunkSum.add(hash)
  }

  /// The prepared insert of a chunk row, kept for the write (a stream inserts thousands).
  private var insertChunk: SQLiteDatabase.Statement?

  /// Replaces the box of the existing chunk row with `chunk`'s place (record id, revision,
  /// index) and adds the new row's hash, for a rotation: its write starts from no aggregate and
  /// seals every chunk again in place.
  ///
  /// - Throws: `VaultError.integrity` when no such row exists; `.storage`.
  package func resealInPlace(_ chunk: ChunkRow) throws {
    let hash = try chunkHash { try chunkHashing.hash(chunk) }
    try db.query(
      "UPDATE chunks SET box = ? WHERE record_id = ? AND revision = ? AND idx = ?",
      [.blob(chunk.box), .blob(chunk.recordID), .integer(chunk.revision), .integer(chunk.index)])
    guard db.changes == 1 else {
      throw VaultError.integrity(.state(.chunkMissing))
    }
    chunkSum.add(hash)
  }

  /// Removes the chunks of `recordID` (of one content revision, or all of them) and subtracts
  /// their hashes.
  ///
  /// - Returns: how many were removed.
  @discardableResult
  package func deleteChunks(_ recordID: [UInt8], revision: Int64? = nil) throws -> Int {
    let columns = chunkHashing.selectColumns
    var sql = "SELECT \(columns) FROM chunks WHERE record_id = ?"
    var parameters: [SQLiteDatabase.Value] = [.blob(recordID)]
    if let revision {
      sql += " AND revision = ?"
      parameters.append(.integer(revision))
    }
    // Row by row: the chunks of a streamed content are never all in memory.
    var count = 0
    try db.forEachRow(sql, parameters) { values in
      chunkSum.subtract(try chunkHash { try chunkHashing.hash(selected: values) })
      count += 1
    }
    try db.query(
      sql.replacing("SELECT \(columns)", with: "DELETE"), parameters)
    return count
  }

  /// Changes a vault written before release 0.6.0 to the tag hash of chunk rows.
  ///
  /// See `vault(5)` STATE: every row's whole-row hash is checked against the stored aggregate, which is
  /// replaced by the sum of their tag hashes, and the header gets `chunk_hash` "tag". One read
  /// of every chunk; call first in a write whose base has no `chunk_hash`.
  ///
  /// - Throws: `VaultError.integrity` when the chunks are not the ones the state authenticates
  ///   (nothing is written then); `.malformedHeader`, `.storage`.
  func migrateChunkHash(masterKey: SymmetricKey) throws {
    guard let base, chunkHashing.rule == nil else { return }
    let tagHashing = ChunkRowHash(rule: .tag, rowKey: rowKey)
    let sum = try base.verifyChunks(db: db, hashing: chunkHashing, also: tagHashing)
    var header = try Header.parse(headerBody)
    header.chunkHash = .tag
    let body = try header.encoded()
    let mac = Header.mac(body, masterKey: masterKey)
    let from = headerBody
    try replaceHeader(expecting: (headerBody, headerMAC), with: (body, mac))
    migratedHeader = (from, body, mac)
    chunkSum = sum
    chunkHashing = tagHashing
  }

  /// Sets the header digest the state will cover, for a header written without `replaceHeader`
  /// (a new or migrated file).
  package func setHeaderBody(_ body: [UInt8]) {
    headerBody = body
  }

  /// Replaces the header row, only if it is still `expected`.
  ///
  /// - Throws: `VaultError.vaultChanged` when another command changed it first.
  ///
  /// A header that `migrateChunkHash` replaced earlier in this write stands for the one it wrote
  /// (which differs from it only in `chunk_hash`).
  package func replaceHeader(expecting expected: ([UInt8], [UInt8]), with new: ([UInt8], [UInt8]))
    throws
  {
    var expected = expected
    if let migrated = migratedHeader, migrated.from == expected.0 {
      expected = (migrated.to, migrated.mac)
    }
    try db.query(
      "UPDATE header SET body = ?, mac = ? WHERE id = 1 AND body = ? AND mac = ?",
      [.blob(new.0), .blob(new.1), .blob(expected.0), .blob(expected.1)])
    guard db.changes == 1 else {
      throw VaultError.vaultChanged(.headerChangedFirst)
    }
    headerBody = new.0
    headerMAC = new.1
  }

  /// Writes the aggregate and the next state after `base`, and removes states older than the
  /// kept history.
  ///
  /// - Returns: the new newest link.
  package func finish(masterKey: SymmetricKey) throws -> StateLink {
    try finish(masterKey: masterKey, after: base?.link)
  }

  /// `finish` with the next state after `previous` (nil: the first state), for a write that
  /// starts the rows afresh (a master-key rotation).
  package func finish(masterKey: SymmetricKey, after previous: StateLink?) throws -> StateLink {
    let bucketBytes = buckets.flatMap(\.bytes)
    let chunks = chunkSum
    if headerBody != base?.headerBody, Header.chunkHash(of: headerBody) != chunkHashing.rule {
      // Never a state whose header says another rule than its aggregate was summed by.
      throw VaultError.storage(.headerWithoutChunkHash)
    }
    let summary = StateLink.summary(
      headerDigest: Header.digest(headerBody), buckets: bucketBytes, chunks: chunks.bytes)
    let next = StateLink.next(
      after: previous, summary: summary, key: masterKey.derive(.state), vaultID: vaultID)
    try db.query(
      "INSERT OR REPLACE INTO aggregate (id, buckets, chunks) VALUES (1, ?, ?)",
      [.blob(bucketBytes), .blob(chunks.bytes)])
    try db.query(
      "INSERT INTO states (generation, previous, summary, mac) VALUES (?, ?, ?, ?)",
      [.integer(next.generation), .blob(next.previous), .blob(next.summary), .blob(next.mac)])
    try db.query(
      "DELETE FROM states WHERE generation <= ?",
      [.integer(next.generation - StateSnapshot.history)])
    return next
  }
}

extension Vault {
  /// Rewrites the file without its free pages (`VACUUM`, with `secure_delete` on), so it
  /// shrinks after a purge; outside any transaction.
  ///
  /// - Throws: `VaultError.storage` when SQLite cannot rewrite it (another command holds it).
  func vacuum() throws {
    try db.execute("VACUUM")
  }

  /// Runs `body` as one write: inside `BEGIN IMMEDIATE`, the newest state is read again and
  /// verified (MAC, summary, and a descendant of the one this process verified), `body` changes
  /// rows through the `StateWrite`, and the next state is written; after the commit the device
  /// remembers it.
  ///
  /// - Throws: `VaultError.integrity` when the newest state does not verify or is not a
  ///   descendant of the verified one (nothing is written); what `body` throws (nothing is
  ///   written); `.storage` on failure.
  @discardableResult
  package func write<R>(masterKey: SymmetricKey, _ body: (StateWrite) throws -> R) throws -> R {
    var next: StateLink?
    defer { if next != nil { Self.countCommittedWrite() } }
    var migratedHeader: ([UInt8], [UInt8])?
    let result = try db.transaction {
      let base = try loadChecked(masterKey: masterKey)
      if let verified = verifiedState {
        try requireDescendant(of: verified, base: base, masterKey: masterKey)
      }
      // The header this command parsed is the base's as a rule: no second parse.
      let change = StateWrite(
        db: db, vaultID: vaultID, masterKey: masterKey, base: base,
        chunkHash: base.headerBody == headerBody ? .some(header.chunkHash) : nil)
      try change.migrateChunkHash(masterKey: masterKey)
      let result = try body(change)
      next = try change.finish(masterKey: masterKey)
      if let migrated = change.migratedHeader, migrated.from == headerBody {
        migratedHeader = (migrated.to, migrated.mac)
      }
      return result
    }
    if let (body, mac) = migratedHeader, let parsed = try? Header.parse(body) {
      // This command's header, changed to the tag hash of chunks in this write.
      header = parsed
      headerBody = body
      headerMAC = mac
    }
    if let next {
      verifiedState = next
      try device.update {
        remember(next, in: &$0)
        if migratedHeader != nil { recordAuthenticatedHeader(in: &$0) }
      }
    }
    return result
  }

  /// `StateSnapshot.load`, where a header that fails its MAC under the key this command holds,
  /// and is no longer the header this command read, is another command's rotation (or a file
  /// put in place) since: the command lost a race (exit 18); the next one checks the file.
  ///
  /// - Throws: as `StateSnapshot.load`; `VaultError.vaultChanged` for that case.
  func loadChecked(masterKey: SymmetricKey) throws -> StateSnapshot {
    do {
      return try StateSnapshot.load(db, vaultID: vaultID, masterKey: masterKey)
    } catch {
      guard let failure = VaultError(error), failure.isIntegrityFailure else { throw error }
      if let row = try? Self.readHeaderRow(db), row.body != headerBody,
        !constantTimeEqual(Header.mac(row.body, masterKey: masterKey), row.mac)
      {
        throw VaultError.vaultChanged(.masterKeyReplaced)
      }
      throw failure
    }
  }

  /// Refuses a newest state that is not `verified` or a descendant of it.
  ///
  /// - Throws: `VaultError.staleState`.
  package func requireDescendant(
    of verified: StateLink, base: StateSnapshot, masterKey: SymmetricKey
  )
    throws
  {
    if base.link == verified { return }
    let chain = try StateSnapshot.chain(
      db, downTo: min(verified.generation, base.link.generation))
    let keys = stateKeys(masterKey: masterKey)
    var relation = StateLink.relation(
      of: chain, to: (verified.generation, verified.mac), keys: keys, vaultID: vaultID)
    // Other commands wrote more states than are kept since this one verified its own: the walk
    // cannot reach it, but the device remembers a later state, updated by each of those writes.
    if relation == .forked, let oldest = chain.last?.generation, verified.generation < oldest,
      let remembered = try device.read().states[vaultID.hex], remembered.generation >= oldest
    {
      relation = StateLink.relation(
        of: chain, to: (remembered.generation, remembered.macBytes), keys: keys,
        vaultID: vaultID)
    }
    switch relation {
    case .same, .descendant: return
    case .older, .forked:
      throw VaultError.staleState(
        found: base.link.generation, foundMAC: base.link.mac.hex, seen: verified.generation,
        seenMAC: verified.mac.hex, older: relation == .older)
    }
  }

  /// The state subkey for each generation: the current key's from the newest rotation on, and
  /// before it the key each rotation record seals under the one after it (nil where a box does
  /// not open or no record reaches).
  func stateKeys(masterKey: SymmetricKey) -> (Int64) -> SymmetricKey? {
    var ranges: [(from: Int64, key: SymmetricKey?)] = []
    var key: SymmetricKey? = masterKey
    for rotation in (header.rotations ?? []).reversed() {
      ranges.append((rotation.generation, key?.derive(.state)))
      key = key.flatMap { newer in
        let box = try? [UInt8](base64: rotation.previousKey, field: "rotations")
        let opened = box.flatMap {
          try? AEAD.open(
            $0, key: newer.derive(.rotation),
            associatedData: KeyRotation.associatedData(
              vaultID: vaultID, generation: rotation.generation),
            what: "a rotation record")
        }
        return opened.flatMap { $0.count == SymmetricKey.byteCount ? SymmetricKey($0) : nil }
      }
    }
    ranges.append((Int64.min, key?.derive(.state)))
    return { generation in ranges.first { generation >= $0.from }?.key }
  }

  /// Records `link` as the latest state of this vault seen here, unless a later one is.
  package func remember(_ link: StateLink, in state: inout DeviceState) {
    if let known = state.states[vaultID.hex], known.generation >= link.generation { return }
    state.states[vaultID.hex] = RememberedState(generation: link.generation, mac: link.mac)
  }
}
