import FoundationEssentials
import Glibc
import Synchronization
import VaultCrypto

/// The newest state of a format-2 vault as read in one transaction, verified under the key: its
/// link's MAC, and its summary against the header and the aggregate as stored.
///
/// The per-bucket aggregates it holds are then trusted, and `verifyBucket` compares the rows of
/// one bucket with them.
package struct StateSnapshot {
  /// How many states a writer keeps.
  static let history: Int64 = 256
  /// Buckets of the records table.
  package static let bucketCount = 256

  /// The newest link.
  package let link: StateLink
  /// The 256 per-bucket aggregates of `records` (8192 bytes).
  let buckets: [UInt8]
  /// The aggregate of `chunks` (32 bytes).
  let chunks: [UInt8]
  /// The header row as stored.
  let headerBody: [UInt8]
  let headerMAC: [UInt8]

  /// Reads and verifies the newest state; call inside a transaction.
  ///
  /// - Throws: `VaultError.integrity` when there is no state, its MAC fails, the stored header
  ///   fails its MAC, or the summary is not that of the header and aggregate as stored (an older
  ///   header or aggregate put back).
  package static func load(_ db: SQLiteDatabase, vaultID: VaultID, masterKey: SymmetricKey) throws
    -> StateSnapshot
  {
    guard
      let row = try db.query(
        "SELECT generation, previous, summary, mac FROM states ORDER BY generation DESC LIMIT 1"
      ).first,
      let link = link(row)
    else {
      throw VaultError.integrity(.state(.noValidState))
    }
    guard let aggregate = try db.query("SELECT buckets, chunks FROM aggregate WHERE id = 1").first,
      let buckets = aggregate[0].blob, buckets.count == bucketCount * Aggregate.byteCount,
      let chunks = aggregate[1].blob, chunks.count == Aggregate.byteCount
    else { throw VaultError.integrity(.state(.aggregateRow)) }
    let (body, mac) = try Vault.readHeaderRow(db)
    guard constantTimeEqual(Header.mac(body, masterKey: masterKey), mac) else {
      throw VaultError.integrity(.headerFailedAuthentication)
    }
    guard link.verifies(key: masterKey.derive(.state), vaultID: vaultID) else {
      throw VaultError.integrity(.state(.stateFailedAuthentication))
    }
    let summary = StateLink.summary(
      headerDigest: Header.digest(body), buckets: buckets, chunks: chunks)
    guard constantTimeEqual(summary, link.summary) else {
      throw VaultError.integrity(.state(.headerOrAggregateNotAuthenticated))
    }
    return StateSnapshot(
      link: link, buckets: buckets, chunks: chunks, headerBody: body, headerMAC: mac)
  }

  /// A link from a `states` row, or nil when malformed.
  static func link(_ row: [SQLiteDatabase.Value]) -> StateLink? {
    guard row.count == 4, let generation = row[0].integer, let previous = row[1].blob,
      let summary = row[2].blob, let mac = row[3].blob
    else { return nil }
    return StateLink(generation: generation, previous: previous, summary: summary, mac: mac)
  }

  /// The stored links from the newest down to `generation` (or the oldest kept), newest first.
  static func chain(_ db: SQLiteDatabase, downTo generation: Int64) throws -> [StateLink] {
    try db.query(
      "SELECT generation, previous, summary, mac FROM states WHERE generation >= ?"
        + " ORDER BY generation DESC", [.integer(generation)]
    ).map {
      guard let link = link($0) else {
        throw VaultError.integrity(.malformedRow(.states))
      }
      return link
    }
  }

  /// The trusted aggregate of bucket `bucket`.
  package func bucket(_ bucket: Int) -> [UInt8] {
    Array(buckets[bucket * Aggregate.byteCount..<(bucket + 1) * Aggregate.byteCount])
  }

  /// The `records` rows of `bucket`, read and summed, after comparing their sum with its
  /// trusted aggregate: a deleted, inserted, changed or rolled-back row of the bucket is found.
  ///
  /// The rows are enumerated through the name index (rows with a name) and the record id index
  /// (rows without), whatever those indexes hold: only a set whose hashes add up to the
  /// authenticated aggregate is returned, so a caller looks a record up in it and never through
  /// an index alone.
  ///
  /// - Throws: `VaultError.integrity` on a mismatch, a malformed row, or two rows with one name.
  package func rows(inBucket bucket: Int, db: SQLiteDatabase, rowKey: SymmetricKey) throws
    -> [RecordRow]
  {
    let (queries, bounds) = Self.bucketQueries(bucket)
    let named = try db.query(queries.named, bounds)
    let unnamed = try db.query(queries.unnamed, bounds)
    let rows = try (named + unnamed).map(RecordRow.init)
    let hasher = RowHash.Hasher(key: rowKey)
    var sum = Aggregate.zero
    for row in rows {
      guard row.bucket == bucket else { throw Self.missingRows }
      sum.add(hasher.hash(table: RowHash.records, columns: row.columns))
    }
    guard constantTimeEqual(sum.bytes, self.bucket(bucket)) else {
      throw Self.missingRows
    }
    try Self.requireDistinct(rows)
    return rows
  }

  /// The row whose name index is `lookup` (32 bytes), if any, from its bucket verified as
  /// `rows(inBucket:)` verifies it, keeping no other row: each is hashed as SQLite holds it
  /// (what a `vault get` reads, whatever the size of the vault).
  ///
  /// - Throws: as `rows(inBucket:)`.
  func row(lookup wanted: [UInt8], db: SQLiteDatabase, rowKey: SymmetricKey) throws -> RecordRow? {
    let bucket = Int(wanted[0])
    let (queries, bounds) = Self.bucketQueries(bucket)
    let hasher = RowHash.Hasher(key: rowKey)
    var sum = Aggregate.zero
    // Arrays sorted once, not sets: a bucket has a few hundred rows, and a `Set<UInt64>` would
    // make every `get` look up `UInt64`'s `Hashable` conformance at run time.
    var ids: [UInt64] = []
    var lookups: [UInt64] = []
    var found: RecordRow?
    for query in [queries.named, queries.unnamed] {
      try db.prepare(query).forEachRawRow(bounds) { row in
        guard let recordID = row.blob(0), recordID.count == 16, let kind = row.integer(2),
          let revision = row.integer(3), revision >= 1, let box = row.blob(4)
        else { throw VaultError.integrity(.malformedRow(.records)) }
        let lookup = row.isNull(1) ? nil : row.blob(1)
        guard row.isNull(1) || lookup?.count == 32 else {
          throw VaultError.integrity(.malformedRow(.records))
        }
        guard Int(lookup?.first ?? recordID[0]) == bucket else {
          throw Self.missingRows
        }
        sum.add(
          hasher.hashRecord(
            recordID: recordID, lookup: lookup, kind: kind, revision: revision, box: box))
        ids.append(Self.prefix(recordID))
        if let lookup {
          lookups.append(Self.prefix(lookup))
          if lookup.elementsEqual(wanted) {
            found = RecordRow(
              recordID: Array(recordID), lookup: Array(lookup), kind: kind, revision: revision,
              box: Array(box))
            found?.rowid = row.integer(5)
          }
        }
      }
    }
    guard constantTimeEqual(sum.bytes, self.bucket(bucket)) else {
      throw Self.missingRows
    }
    if Self.hasRepeat(&ids) || Self.hasRepeat(&lookups) {
      return try rows(inBucket: bucket, db: db, rowKey: rowKey).first { $0.lookup == wanted }
    }
    return found
  }

  /// True when `values` (sorted in place) holds one value twice.
  private static func hasRepeat(_ values: inout [UInt64]) -> Bool {
    values.sort()
    for index in values.indices.dropFirst() where values[index] == values[index - 1] {
      return true
    }
    return false
  }

  /// The two queries of bucket `bucket`'s rows (those with a name index in its range, those
  /// without one whose record id is), and the range's bounds, their parameters.
  ///
  /// A row too long for any record (planted to exhaust memory) is left unread: the bucket then
  /// does not add up, an integrity failure.
  private static func bucketQueries(_ bucket: Int) -> (
    queries: (named: String, unnamed: String), bounds: [SQLiteDatabase.Value]
  ) {
    let (lower, upper) = RecordRow.bucketRange(bucket)
    let range = { (column: String) in upper == nil ? " >= ?" : " >= ? AND \(column) < ?" }
    let bounded = " AND length(box) <= \(RecordRow.maximumBoxSize)"
    let select = "SELECT \(RecordRow.selectColumns) FROM records WHERE "
    return (
      (
        select + "lookup" + range("lookup") + bounded,
        select + "lookup IS NULL AND record_id" + range("record_id") + bounded
      ),
      [.blob(lower)] + (upper.map { [.blob($0)] } ?? [])
    )
  }

  /// The failure of rows that do not add up to their bucket's authenticated aggregate.
  static let missingRows = VaultError.integrity(.state(.recordsNotAuthenticated))

  /// Refuses two rows with one record id or one name index.
  static func requireDistinct(_ rows: [RecordRow]) throws {
    guard Set(rows.map(\.recordID)).count == rows.count,
      Set(rows.compactMap(\.lookup)).count == rows.filter({ $0.lookup != nil }).count
    else {
      throw VaultError.integrity(.state(.recordsShareIDOrName))
    }
  }

  /// Every `records` row, read in one scan of the table and checked bucket by bucket.
  ///
  /// - Throws: `VaultError.integrity` on a mismatch, a malformed row, or two rows with one id or
  ///   name.
  package func allRows(db: SQLiteDatabase, rowKey: SymmetricKey) throws -> [RecordRow] {
    var rows: [RecordRow] = []
    try scanRows(db: db, rowKey: rowKey) { rows.append($0) }
    return rows
  }

  /// Hands every `records` row to `each` as one scan of the table steps to it, keeping none,
  /// then checks them all as `allRows` does: what `each` gathered may be used only once this
  /// returns (a listing of 100,000 entries holds their names, not their rows).
  ///
  /// Distinct ids and names are checked by their first 8 bytes (random or keyed hashes), and a
  /// repeat of those by a second scan comparing them whole.
  ///
  /// - Throws: `VaultError.integrity` on a mismatch, a malformed row, or two rows with one id or
  ///   name; what `each` throws.
  func scanRows(db: SQLiteDatabase, rowKey: SymmetricKey, _ each: (RecordRow) throws -> Void)
    throws
  {
    var sums = [Aggregate](repeating: .zero, count: Self.bucketCount)
    let hasher = RowHash.Hasher(key: rowKey)
    var ids: [UInt64] = []
    var lookups: [UInt64] = []
    try db.prepare(
      "SELECT \(RecordRow.selectColumns) FROM records NOT INDEXED"
        + " WHERE length(box) <= \(RecordRow.maximumBoxSize)"
    ).forEachRawRow([]) { raw in
      let row = try RecordRow(raw)
      sums[row.bucket].add(hasher.hash(table: RowHash.records, columns: row.columns))
      ids.append(Self.prefix(row.recordID))
      if let lookup = row.lookup { lookups.append(Self.prefix(lookup)) }
      try each(row)
    }
    guard constantTimeEqual(sums.flatMap(\.bytes), buckets) else {
      throw Self.missingRows
    }
    if Self.hasRepeat(&ids) || Self.hasRepeat(&lookups) {
      var whole: [RecordRow] = []
      try db.forEachRow(
        "SELECT \(RecordRow.selectColumns) FROM records NOT INDEXED"
          + " WHERE length(box) <= \(RecordRow.maximumBoxSize)"
      ) { whole.append(try RecordRow($0)) }
      try Self.requireDistinct(whole)
    }
  }

  /// The `transform` of every `records` row, in one scan of the table checked as `allRows`
  /// checks it.
  ///
  /// The rows are read in batches of `batchSize`, and each batch's row hashes and transforms
  /// (opening and decoding a record) are spread over up to `workers` threads while the calling
  /// thread reads the next batch, so a listing of 100,000 entries keeps every core busy.
  /// Results are in table order; nil ones dropped.
  ///
  /// `transform` runs on several threads at once: it must use nothing but its row and
  /// thread-safe state (keys it only reads, guarded memory from shared slabs).
  ///
  /// - Throws: as `scanRows`; then the first error `transform` threw (in table order), once the
  ///   scan and its checks are done (`transform` is not run again after one).
  func mapRows<T>(
    db: SQLiteDatabase, rowKey: SymmetricKey, batchSize: Int = 1024,
    workers: Int = ProcessInfo.processInfo.activeProcessorCount,
    _ transform: (RecordRow) throws -> T?
  ) throws -> [T] {
    let workers = max(1, min(workers, 8))
    let hashers = (0..<workers).map { _ in RowHash.Hasher(key: rowKey) }
    let sums = BucketSums(workers: workers)
    var ids: [UInt64] = []
    var lookups: [UInt64] = []
    var out: [T] = []
    var failure: Error?
    var batch: [RecordRow] = []
    batch.reserveCapacity(batchSize)
    try withoutActuallyEscaping(transform) { transform in
      // The batch being processed, if any: one at a time, so each worker's sums stay its own.
      var inFlight: InFlightBatch<T>?
      func collect() {
        guard let running = inFlight else { return }
        inFlight = nil
        for result in running.finish() where failure == nil {
          switch result {
          case .success(let value?): out.append(value)
          case .success(nil): break
          case .failure(let error): failure = error
          }
        }
      }
      func launch() {
        collect()
        guard !batch.isEmpty else { return }
        let transforming = failure == nil
        inFlight = InFlightBatch(rows: batch) { rows in
          Self.spread(rows, workers: workers) { worker, row in
            sums.add(
              hashers[worker].hash(table: RowHash.records, columns: row.columns), worker, row)
            return transforming ? try transform(row) : nil
          }
        }
        batch = []
        batch.reserveCapacity(batchSize)
      }
      // A row that fails to read ends the scan, but never while a batch still uses `transform`.
      defer { _ = inFlight?.finish() }
      try db.prepare(
        "SELECT \(RecordRow.selectColumns) FROM records NOT INDEXED"
          + " WHERE length(box) <= \(RecordRow.maximumBoxSize)"
      ).forEachRawRow([]) { raw in
        let row = try RecordRow(raw)
        ids.append(Self.prefix(row.recordID))
        if let lookup = row.lookup { lookups.append(Self.prefix(lookup)) }
        batch.append(row)
        if batch.count == batchSize { launch() }
      }
      launch()
      collect()
    }
    guard constantTimeEqual(sums.total(), buckets) else {
      throw Self.missingRows
    }
    if Self.hasRepeat(&ids) || Self.hasRepeat(&lookups) {
      try Self.requireDistinct(allRowsUnchecked(db: db))
    }
    if let failure { throw failure }
    return out
  }

  /// Every `records` row as stored, unchecked (for the distinctness check after a scan).
  private func allRowsUnchecked(db: SQLiteDatabase) throws -> [RecordRow] {
    try db.query(
      "SELECT \(RecordRow.selectColumns) FROM records NOT INDEXED"
        + " WHERE length(box) <= \(RecordRow.maximumBoxSize)"
    ).map(RecordRow.init)
  }

  /// `body(worker, row)` of every row, worker `w` taking rows `w`, `w + workers`, …, all at
  /// once on `workers` threads; each row's result or error, in order.
  private static func spread<T>(
    _ rows: [RecordRow], workers: Int, _ body: (Int, RecordRow) throws -> T?
  ) -> [Result<T?, Error>] {
    let results = UnsafeMutableBufferPointer<Result<T?, Error>?>.allocate(capacity: rows.count)
    results.initialize(repeating: nil)
    defer {
      results.deinitialize()
      results.deallocate()
    }
    withoutActuallyEscaping(body) { body in
      let work = SpreadWork(rows: rows, results: results, body: body)
      // Worker 0 here, the others on threads of their own; a worker no thread can be had for
      // runs here too, after (each worker's share is still run by one thread at a time).
      var started: [WorkerThread] = []
      var here = [0]
      for worker in 1..<min(workers, max(rows.count, 1)) {
        if let thread = WorkerThread.start({ work.run(worker: worker, workers: workers) }) {
          started.append(thread)
        } else {
          here.append(worker)
        }
      }
      for worker in here { work.run(worker: worker, workers: workers) }
      for thread in started { thread.join() }
    }
    return results.map { $0 ?? .success(nil) }
  }

  /// The first 8 bytes of an id or a name index (both at least 16 bytes), as one integer.
  private static func prefix<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
    bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
  }

  /// How the chunks' aggregate hashes a row, as the (authenticated) header says.
  var chunkHash: ChunkHash? { Header.chunkHash(of: headerBody) }

  /// Verifies the aggregate of every `chunks` row, hashed as the header says.
  ///
  /// - Throws: `VaultError.integrity` on a mismatch or a malformed row.
  package func verifyChunks(db: SQLiteDatabase, rowKey: SymmetricKey) throws {
    try verifyChunks(db: db, hashing: ChunkRowHash(rule: chunkHash, rowKey: rowKey))
  }

  /// `verifyChunks` with the rows hashed by `hashing`; returns the sum of `also`'s hashes of
  /// the same rows (a rule change: the same read yields the new aggregate).
  ///
  /// - Throws: `VaultError.integrity` on a mismatch or a malformed row.
  @discardableResult
  func verifyChunks(db: SQLiteDatabase, hashing: ChunkRowHash, also: ChunkRowHash? = nil) throws
    -> Aggregate
  {
    var sum = Aggregate.zero
    var other = Aggregate.zero
    let oversized = try db.query(
      "SELECT count(*) FROM chunks WHERE length(box) > \(ContentChunks.maximumBoxSize)")
    guard oversized.first?.first?.integer == 0 else {
      throw VaultError.integrity(.state(.oversizedChunk))
    }
    let columns = also == nil ? hashing.selectColumns : ChunkRow.selectColumns
    // A row no rule can hash (a box too short to end in a tag) is one the state cannot hold:
    // it is reported as the aggregate's mismatch, after every row was read.
    var unhashable = false
    func add(_ hash: () throws -> [UInt8], to sum: inout Aggregate) throws {
      do {
        sum.add(try hash())
      } catch is ChunkRowHash.TooShort {
        unhashable = true
      }
    }
    try db.forEachRow("SELECT \(columns) FROM chunks NOT INDEXED") { values in
      if let also {
        let row = try ChunkRow(values)
        try add({ try hashing.hash(row) }, to: &sum)
        try add({ try also.hash(row) }, to: &other)
      } else {
        try add({ try hashing.hash(selected: values) }, to: &sum)
      }
    }
    guard !unhashable, constantTimeEqual(sum.bytes, chunks) else {
      throw VaultError.integrity(.state(.chunksNotAuthenticated))
    }
    return other
  }
}

/// What the threads of one `StateSnapshot.spread` share: the rows, the results (each slot
/// written by one thread) and the work.
private final class SpreadWork<T>: @unchecked Sendable {
  let rows: [RecordRow]
  let results: UnsafeMutableBufferPointer<Result<T?, Error>?>
  let body: (Int, RecordRow) throws -> T?

  init(
    rows: [RecordRow], results: UnsafeMutableBufferPointer<Result<T?, Error>?>,
    body: @escaping (Int, RecordRow) throws -> T?
  ) {
    self.rows = rows
    self.results = results
    self.body = body
  }

  func run(worker: Int, workers: Int) {
    for index in stride(from: worker, to: rows.count, by: workers) {
      results[index] = Result { try body(worker, rows[index]) }
    }
  }
}

/// One batch of `mapRows`, processed on a thread of its own while the next is read.
private final class InFlightBatch<T>: @unchecked Sendable {
  /// Who runs the batch: its thread if that starts first, else `finish` on the caller's (and
  /// always the caller when no thread can be had, under a limit of processes or memory).
  private enum Stage { case waiting, running, done }

  private let stage = Mutex(Stage.waiting)
  private let rows: [RecordRow]
  /// Released once run: `mapRows` lends `process` (over its non-escaping `transform`) only
  /// until the batch is finished.
  private var process: (([RecordRow]) -> [Result<T?, Error>])?
  private var results: [Result<T?, Error>] = []
  /// Touched by the thread that made the batch only.
  private var thread: WorkerThread?
  private var finished = false

  /// Starts `process(rows)` on another thread when one can be had.
  init(rows: [RecordRow], process: @escaping ([RecordRow]) -> [Result<T?, Error>]) {
    self.rows = rows
    self.process = process
    thread = WorkerThread.start { self.runIfWaiting() }
  }

  /// Runs the batch unless another thread has taken it.
  private func runIfWaiting() {
    let claimed = stage.withLock { stage in
      guard stage == .waiting else { return false }
      stage = .running
      return true
    }
    guard claimed else { return }
    results = process?(rows) ?? []
    process = nil
    stage.withLock { $0 = .done }
  }

  /// Runs the batch here if its thread has not started it, waits for that thread, and returns
  /// the results (once; later calls return them at once).
  func finish() -> [Result<T?, Error>] {
    if !finished {
      runIfWaiting()
      thread?.join()
      thread = nil
      finished = true
    }
    return results
  }
}

/// The sum of the row hashes of each bucket, one set of sums per worker (each touched by its
/// own thread only), added up at the end.
private final class BucketSums: @unchecked Sendable {
  /// One worker's sums.
  final class Part {
    var sums = [Aggregate](repeating: .zero, count: StateSnapshot.bucketCount)
  }

  private let parts: [Part]

  init(workers: Int) { parts = (0..<workers).map { _ in Part() } }

  func add(_ hash: [UInt8], _ worker: Int, _ row: RecordRow) {
    parts[worker].sums[row.bucket].add(hash)
  }

  /// Every bucket's sum, in bucket order (`StateSnapshot.buckets`' layout).
  func total() -> [UInt8] {
    var total = parts[0].sums
    for part in parts.dropFirst() {
      for bucket in 0..<total.count { total[bucket].add(part.sums[bucket].bytes) }
    }
    return total.flatMap(\.bytes)
  }
}
