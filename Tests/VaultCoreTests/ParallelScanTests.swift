import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// The scans a listing and a read make.
///
/// `StateSnapshot.mapRows` spreads each batch of rows over threads: results come back in table
/// order whatever the number of workers and batch size, the first error in table order is the one
/// thrown, and a changed row still fails the whole scan. `StateSnapshot.row(lookup:)` (every
/// `vault get`) verifies the bucket as `rows(inBucket:)` does, keeping one row.
final class ParallelScanTests: XCTestCase {
  var home: TemporaryHome!

  override func setUp() { home = TemporaryHome() }
  override func tearDown() { home = nil }

  /// A vault of `count` entries `e00000`…, filled in one import.
  func store(_ count: Int) throws -> EntryStore {
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinOnly,
      environment: home.environment())
    let store = EntryStore(vault: created.vault, masterKey: created.masterKey)
    let names = (0..<count).map { String(format: "e%05d", $0) }
    var plan = ImportPlan()
    for name in names {
      try plan.addEntry(named: name, content: secure("x" + name), origin: name, guarded: false)
    }
    _ = try store.importItems(plan, replacing: false, dryRun: false) { writer in
      for name in names { try writer.entry(named: name, content: secure("x" + name)) }
    }
    return store
  }

  func scan<T>(
    _ store: EntryStore, workers: Int, batch: Int, _ transform: (RecordRow) throws -> T?
  ) throws -> [T] {
    try store.vault.reading(masterKey: store.masterKey) { snapshot in
      try snapshot.mapRows(
        db: store.db, rowKey: store.rowKey, batchSize: batch, workers: workers, transform)
    }
  }

  func testResultsAreInTableOrderForAnyWorkersAndBatch() throws {
    let store = try store(2500)
    let once = try scan(store, workers: 1, batch: 100_000) { $0.recordID }
    XCTAssertGreaterThanOrEqual(once.count, 2500)
    for (workers, batch) in [(2, 1024), (3, 7), (8, 1), (2, 2499)] {
      XCTAssertEqual(try scan(store, workers: workers, batch: batch) { $0.recordID }, once)
    }
    let names = try store.listing().map(\.name)
    XCTAssertEqual(names, (0..<2500).map { String(format: "e%05d", $0) })
  }

  func testTheFirstErrorInTableOrderIsThrown() throws {
    struct Stop: Error, Equatable { let index: Int }
    let store = try store(600)
    let ids = try scan(store, workers: 1, batch: 600) { $0.recordID }
    let position = [ids[37]: 37, ids[401]: 401, ids[402]: 402]
    for workers in [1, 2, 4] {
      XCTAssertThrowsError(
        try scan(store, workers: workers, batch: 64) { row -> Int? in
          if let index = position[row.recordID] { throw Stop(index: index) }
          return nil
        }
      ) { XCTAssertEqual($0 as? Stop, Stop(index: 37), "\(workers) workers") }
    }
  }

  func testALookupVerifiesItsBucketAndKeepsOneRow() throws {
    let store = try store(600)
    try store.vault.reading(masterKey: store.masterKey) { snapshot in
      for index in stride(from: 0, to: 600, by: 7) {
        let lookup = store.lookup(try EntryName(String(format: "e%05d", index)))
        let all = try snapshot.rows(inBucket: Int(lookup[0]), db: store.db, rowKey: store.rowKey)
        let one = try snapshot.row(lookup: lookup, db: store.db, rowKey: store.rowKey)
        XCTAssertEqual(one, all.first { $0.lookup == lookup })
        XCTAssertNotNil(one)
      }
      let absent = store.lookup(try EntryName("absent"))
      XCTAssertNil(try snapshot.row(lookup: absent, db: store.db, rowKey: store.rowKey))
    }
    // Another row of the same bucket changed: the lookup fails, though its own row is intact.
    let shared = try (0..<600).map { String(format: "e%05d", $0) }.first { name in
      let lookup = store.lookup(try EntryName(name))
      guard lookup[0] < 255 else { return false }
      return try store.vault.reading(masterKey: store.masterKey) {
        try $0.rows(inBucket: Int(lookup[0]), db: store.db, rowKey: store.rowKey).count >= 2
      }
    }
    let name = try XCTUnwrap(shared)
    let target = store.lookup(try EntryName(name))
    let db = try SQLiteDatabase(path: home.vaultPath, create: false)
    _ = try db.query(
      "UPDATE records SET revision = revision + 1 WHERE lookup >= ? AND lookup < ? AND lookup != ?",
      [.blob([target[0]]), .blob([target[0] &+ 1]), .blob(target)])
    XCTAssertEqual(try db.query("SELECT changes()").first?.first?.integer.map { $0 >= 1 }, true)
    XCTAssertThrowsError(try store.get(EntryName(name))) {
      XCTAssertEqual(VaultError($0), .integrity(.state(.recordsNotAuthenticated)))
    }
  }

  func testAnEditedRowFailsTheScan() throws {
    let store = try store(300)
    let db = try SQLiteDatabase(path: home.vaultPath, create: false)
    try db.execute(
      "UPDATE records SET revision = revision + 1 WHERE rowid = (SELECT max(rowid) FROM records)")
    XCTAssertThrowsError(try store.listing()) {
      XCTAssertEqual(VaultError($0), .integrity(.state(.recordsNotAuthenticated)))
    }
  }
}
