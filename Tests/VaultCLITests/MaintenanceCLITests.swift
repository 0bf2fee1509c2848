import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault check` and `vault backup` through the built binary.
final class MaintenanceCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
    box.vault(["add", "small"], stdin: Array("s".utf8), env: session)
    box.vault(["add", "big"], stdin: Array(repeating: 7, count: 70_000), env: session)
    box.vault(["journal"], stdin: Array("dear diary\n".utf8))
  }

  /// Runs one SQL statement on the vault file, as an attacker with write access would.
  func sql(_ statement: String, file: StaticString = #filePath, line: UInt = #line) {
    box.tamper(file: file, line: line) { try $0.execute(statement) }
  }

  static let chunksChanged =
    "vault: error: integrity failure: the vault's content chunks are not the ones its state"
    + " authenticates (a chunk was changed, deleted, added or put back)"
  static let recordsChanged =
    "vault: error: integrity failure: the vault's records are not the ones its state"
    + " authenticates (a record was deleted, added or put back from an older copy)"

  func testCheckOpensEveryRecord() {
    let result = box.vault(["check"], env: session)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.stdoutText, "ok: header, 2 entries (3 chunks), 1 journal entry\n")
  }

  func testCheckFindsADamagedJournalEntry() {
    box.tamper {
      try $0.replaceBlob(
        "select box from pending", "update pending set box = ?"
      ) { $0[60] ^= 1 }
    }
    let id = box.vault(["journal", "list", "--json"], env: session).stdoutText
    let result = box.vault(["check"], env: session)
    XCTAssertEqual(result.status, 17)
    XCTAssertEqual(result.stdout, [])
    XCTAssertEqual(result.errorLines.count, 1)
    XCTAssertTrue(
      result.errorLines[0].hasPrefix(
        "vault: error: integrity failure: pending journal entry "), id)
    XCTAssertTrue(result.errorLines[0].hasSuffix(" failed authentication"))
  }

  func testCheckFindsAChunkWithoutItsEntry() {
    sql("insert into chunks values (x'00', 1, 0, x'00')")
    let result = box.vault(["check"], env: session)
    XCTAssertEqual(result.status, 17)
    XCTAssertEqual(result.errorLines, [Self.chunksChanged])
  }

  func testCheckReportsADamagedNameIndex() {
    // "small" is the entry with one chunk, "big" has two (row order says nothing: rowids follow
    // buckets).
    box.tamper {
      _ = try $0.execute(
        "update records set lookup = randomblob(32) where kind = 1 and record_id in"
          + " (select record_id from chunks group by record_id having count(*) = 1)")
      XCTAssertEqual(try $0.integer("select changes()"), 1)
    }
    let index = box.vault(["check"], env: session)
    XCTAssertEqual(index.status, 17)
    XCTAssertEqual(index.errorLines, [Self.recordsChanged])
    XCTAssertEqual(box.vault(["get", "small"], env: session).status, 17)
  }

  func testCheckReportsAChunkAttachedToAJournalEntry() {
    sql(
      "insert into chunks values ((select record_id from records where kind = 1), 5, 0,"
        + " randomblob(47))")
    let stray = box.vault(["check"], env: session)
    XCTAssertEqual(stray.status, 17)
    XCTAssertEqual(stray.errorLines, [Self.chunksChanged])
  }

  func testBackupToAOneLetterNameAndAMissingFolder() {
    let made = box.shell("cd \"$HOME\" && vault backup a")
    XCTAssertEqual(made.status, 0, made.stderrText)
    XCTAssertTrue(FileManager.default.fileExists(atPath: box.home + "/a"))
    let missing = box.vault(["backup", box.home + "/no/such/copy.db"])
    // Refused before the vault is opened, as export and inject refuse it (exit 5).
    XCTAssertEqual(missing.status, 5)
    XCTAssertEqual(
      missing.errorLines,
      [
        "vault: error: \(box.home)/no/such/copy.db cannot be made: \(box.home)/no/such is not a"
          + " folder this user can write in; nothing was written"
      ])
  }

  func testBackupWritesAConsistentPrivateCopyAndNeverOverwrites() {
    let copy = box.home + "/copy.db"
    let result = box.vault(["backup", copy])
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.errorLines, ["Wrote a copy of \(box.vaultPath) to \(copy)."])
    var info = stat()
    XCTAssertEqual(stat(copy, &info), 0)
    XCTAssertEqual(info.st_mode & 0o777, 0o600)
    let checked = box.vault(["check", "--vault", copy], pin: [Sandbox.pin])
    XCTAssertEqual(checked.stdoutText, "ok: header, 2 entries (3 chunks), 1 journal entry\n")
    XCTAssertEqual(
      box.vault(["get", "big", "--vault", copy], pin: [Sandbox.pin]).stdout.count, 70_000)
    let again = box.vault(["backup", copy])
    XCTAssertEqual(again.status, 4)
    XCTAssertEqual(
      again.errorLines, ["vault: error: \(copy) already exists; vault never overwrites a file"])
  }
}
