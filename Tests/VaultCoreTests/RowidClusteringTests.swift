import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// A bucket's rows are stored side by side (rowids from `bucket << 48`), so reading one bucket,
/// as every `vault get` does, touches a few pages whatever the size of the vault.
final class RowidClusteringTests: XCTestCase {
  var home: TemporaryHome!

  override func setUp() { home = TemporaryHome() }
  override func tearDown() { home = nil }

  func testEveryRowLiesInItsBucketsRangeAndRowsWrittenEarlierStay() throws {
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinOnly,
      environment: home.environment())
    let store = EntryStore(vault: created.vault, masterKey: created.masterKey)
    // A row as release 0.6.0 numbered it (1, 2, 3, …) stays where it is; later rows of bucket 0
    // go after it, those of other buckets into their own range.
    var plan = ImportPlan()
    let names = (0..<700).map { "site-\($0)/login" }
    for name in names {
      try plan.addEntry(named: name, content: secure("x"), origin: name, guarded: false)
    }
    _ = try store.importItems(plan, replacing: false, dryRun: false) { writer in
      for name in names { try writer.entry(named: name, content: secure("x")) }
    }
    try store.put(EntryName("one more"), content: secure("y"), overwrite: false, guarded: false)
    let db = try SQLiteDatabase(path: home.vaultPath, create: false)
    let rows = try db.query("SELECT rowid, lookup, record_id FROM records")
    XCTAssertGreaterThan(rows.count, 700)
    var perBucket: [Int64: [Int64]] = [:]
    for row in rows {
      let rowid = try XCTUnwrap(row[0].integer)
      let key = row[1].blob ?? row[2].blob ?? []
      let bucket = Int64(key[0])
      XCTAssertEqual(rowid >> StateWrite.rowidBucketShift, bucket, "rowid \(rowid)")
      perBucket[bucket, default: []].append(rowid)
    }
    for (bucket, rowids) in perBucket {
      let first = bucket << StateWrite.rowidBucketShift
      XCTAssertEqual(Set(rowids).count, rowids.count)
      XCTAssertTrue(rowids.allSatisfy { $0 > first && $0 <= first + Int64(rowids.count) + 8 })
    }
    XCTAssertEqual(try store.listing().count, 701)
    XCTAssertEqual(try store.get(EntryName("one more")).content.unprotectedBytes, Array("y".utf8))
  }
}
