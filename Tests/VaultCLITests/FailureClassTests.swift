import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI

/// Damage is an integrity failure (exit 17) that names it, whichever command meets it first.
final class FailureClassTests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "x"], stdin: Array("v".utf8), env: session).status, 0)
  }
  override func tearDown() { box = nil }

  func testAFlippedBitInTheVaultIDWithASessionIsDamageNotALock() {
    box.tamper {
      let body = try $0.headerBody()
      var header = try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
      var id = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(header["vault_id"] as? String)))
      id[3] ^= 0x10
      header["vault_id"] = id.base64EncodedString()
      try $0.setHeaderBody(
        Array(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])))
    }
    let result = box.vault(["list"], env: session)
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: integrity failure: the vault id in the header changed since this session"
          + " was issued (the file was edited or damaged)"
      ])
  }

  func testADamagedSchemaIsAnIntegrityFailure() {
    box.tamper {
      _ = try $0.execute("PRAGMA writable_schema = ON")
      _ = try $0.execute(
        "UPDATE sqlite_master SET sql = replace(sql, 'meta BLOB', 'mxta BLOB')"
          + " WHERE name = 'entries'")
    }
    let result = box.vault(["list"], env: session)
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: integrity failure: the vault's schema is not format 1's (a table, index"
          + " or trigger was added, removed or changed)"
      ])
  }

  func testAPlantedTriggerIsAnIntegrityFailure() {
    box.tamper {
      _ = try $0.execute(
        "CREATE TRIGGER keep BEFORE DELETE ON entries BEGIN SELECT RAISE(IGNORE); END")
    }
    let result = box.vault(["rm", "x"], env: session)
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(box.vault(["check"], env: session).status, 17)
  }

  func testADamagedFileFormatByteIsAnIntegrityFailure() throws {
    let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: box.vaultPath))
    try handle.seek(toOffset: 19)
    try handle.write(contentsOf: Data([9]))
    try handle.close()
    let result = box.vault(["list"], env: session)
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(result.errorLines.count, 1, result.stderrText)
    XCTAssertTrue(
      result.errorLines.first?.hasPrefix("vault: error: integrity failure: the vault file is")
        ?? false,
      result.stderrText)
  }

  func testADamagedJournalIDIsNamedByShowAsByCheck() {
    let written = box.vault(["journal"], stdin: Array("dear diary\n".utf8))
    XCTAssertEqual(written.status, 0, written.stderrText)
    let id = box.vault(["journal", "list", "--json"], env: session).stdoutText
    let short = String(id.split(separator: "\"")[3])
    box.tamper {
      _ = try $0.execute("UPDATE entries SET entry_id = zeroblob(16) WHERE kind = 1")
    }
    let show = box.vault(["journal", "show", short], env: session)
    XCTAssertEqual(show.status, 17, show.stderrText)
    XCTAssertEqual(box.vault(["check"], env: session).status, 17)
  }
}

/// `vault lock` revokes what was issued for this file even when the header's (unauthenticated)
/// vault id was changed.
final class LockByPathTests: XCTestCase {
  func testLockRevokesSessionsIssuedForThisFileUnderAnyID() {
    let box = Sandbox()
    let session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "x"], stdin: Array("v".utf8), env: session).status, 0)
    let original = box.tamper { try $0.headerBody() } ?? []
    box.editHeader { $0["vault_id"] = Data(repeating: 7, count: 16).base64EncodedString() }
    XCTAssertEqual(box.vault(["lock"]).status, 0)
    box.tamper { try $0.setHeaderBody(original) }
    XCTAssertEqual(box.vault(["get", "x"], env: session).status, 10)
  }
}

/// `vault check` finds damage SQLite's own check finds, and every row it cannot account for.
final class CheckCoverageTests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "x"], stdin: Array("v".utf8), env: session).status, 0)
  }
  override func tearDown() { box = nil }

  func testADamagedNameIndexIsFoundByCheck() throws {
    let page =
      box.tamper {
        try $0.integer(
          "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_entries_2'")
      } ?? 0
    let size = box.tamper { try $0.integer("PRAGMA page_size") } ?? 4096
    XCTAssertGreaterThan(page, 1)
    let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: box.vaultPath))
    // The last byte of the index's page: inside its last key.
    let offset = UInt64((page - 1) * size + size - 2)
    try handle.seek(toOffset: offset)
    let byte = try XCTUnwrap(handle.readData(ofLength: 1).first)
    try handle.seek(toOffset: offset)
    try handle.write(contentsOf: Data([byte ^ 0x5a]))
    try handle.close()
    let check = box.vault(["check"], env: session)
    XCTAssertEqual(check.status, 17, check.stderrText)
    XCTAssertTrue(
      check.errorLines.first?.hasPrefix(
        "vault: error: integrity failure: the database structure is damaged: ") ?? false,
      check.stderrText)
  }

  func testARowThatReadsAsNullIsNotSilentlyDropped() {
    XCTAssertEqual(box.vault(["journal"], stdin: Array("dear diary\n".utf8)).status, 0)
    // A record damaged so that every column reads as NULL: made by lifting the NOT NULL
    // constraints for one write, then putting the schema text back as it was.
    let schema =
      box.tamper {
        try $0.blob("SELECT CAST(sql AS BLOB) FROM sqlite_master WHERE name = 'entries'")
      } ?? []
    let loose = String(decoding: schema, as: UTF8.self).replacingOccurrences(
      of: " NOT NULL", with: "")
    for sql in [loose, nil] as [String?] {
      box.tamper {
        _ = try $0.execute("PRAGMA writable_schema = ON")
        _ = try $0.execute(
          "UPDATE sqlite_master SET sql = ? WHERE name = 'entries'",
          [.text(sql ?? String(decoding: schema, as: UTF8.self))])
      }
      if sql != nil {
        box.tamper {
          _ = try $0.execute(
            "UPDATE entries SET entry_id = NULL, lookup = NULL, kind = NULL, meta = NULL"
              + " WHERE kind = 1")
        }
      }
    }
    let check = box.vault(["check"], env: session)
    XCTAssertEqual(check.status, 17, check.stderrText)
    XCTAssertEqual(
      check.errorLines,
      [
        "vault: error: integrity failure: the database structure is damaged: NULL value in"
          + " entries.kind (and 1 more)"
      ])
  }
}
