import CSQLite
import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// A read that SQLite refuses with `SQLITE_TOOBIG` is damage, not a storage failure.
///
/// The tamper suite met it once in a byte flip of a cell pointer: the cell it then pointed into
/// gave a payload length beyond SQLite's 1,000,000,000-byte limit, and `PRAGMA integrity_check`
/// (which reads every column) failed with "string or blob too big". The vault writes no value
/// near the limit, so the test lowers it on its own connection to meet it with a real row.
final class SQLiteLengthLimitTests: XCTestCase {
  var home: TemporaryHome!

  override func setUp() { home = TemporaryHome() }
  override func tearDown() { home = nil }

  func testAReadPastTheLengthLimitIsAnIntegrityFailureAndAWriteStaysAStorageOne() throws {
    let db = try SQLiteDatabase(path: home.path + "/limit.db", create: true)
    try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, box BLOB NOT NULL)")
    try db.query(
      "INSERT INTO t (id, box) VALUES (1, ?)", [.blob([UInt8](repeating: 7, count: 200))])
    sqlite3_limit(db.handle, SQLITE_LIMIT_LENGTH, 100)

    XCTAssertThrowsError(try db.query("SELECT box FROM t WHERE id = 1")) { error in
      XCTAssertEqual(VaultError(error), .integrity(.database(.lengthOutOfBounds)))
    }
    XCTAssertThrowsError(try db.query("PRAGMA integrity_check")) { error in
      XCTAssertEqual(VaultError(error), .integrity(.database(.lengthOutOfBounds)))
    }
    // A value too long to bind is this process's doing, not the file's.
    XCTAssertThrowsError(
      try db.query(
        "INSERT INTO t (id, box) VALUES (2, ?)", [.blob([UInt8](repeating: 7, count: 200))])
    ) { error in
      XCTAssertEqual(
        VaultError(error), .storage(.database(SQLiteFailure(message: "string or blob too big"))))
    }
    XCTAssertEqual(try db.query("SELECT count(*) FROM t").first?.first?.integer, 1)
  }
}
