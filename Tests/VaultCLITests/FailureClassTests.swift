import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

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
        "vault: error: integrity failure: the vault id in the header changed since the vault was"
          + " unlocked (the file was edited or damaged)"
      ])
  }

  /// Review of 0.11.0, item 9: a header whose MAC was zeroed is damage (17) whatever the
  /// credential.
  ///
  /// With a session it read as "the session holds a master key this vault no
  /// longer uses (it was rotated)" (exit 10), `vault check` too; with the PIN it was 17.
  func testAZeroedHeaderMACIsDamageWithASessionAndWithThePIN() {
    XCTAssertEqual(box.vault(["unlock"], pin: [Sandbox.pin]).status, 0, "the agent holds it")
    box.tamper { _ = try $0.execute("UPDATE header SET mac = zeroblob(32)") }
    let expected = [
      "vault: error: integrity failure: the vault header failed authentication (the file was"
        + " edited)"
    ]
    let withSession = box.vault(["get", "x"], env: session)
    XCTAssertEqual(withSession.status, 17, withSession.stderrText)
    XCTAssertEqual(withSession.errorLines, expected)
    XCTAssertEqual(withSession.stdout, [])
    // The agent let go of every key of the vault it found damage with, the plain hold's too:
    // what follows runs here, with the PIN.
    let plain = box.vault(["get", "x"])
    XCTAssertEqual(plain.status, 10, plain.stderrText)
    for arguments in [["get", "x"], ["check"]] {
      let withPIN = box.vault(arguments, pin: [Sandbox.pin])
      XCTAssertEqual(withPIN.status, 17, "\(arguments): \(withPIN.stderrText)")
      XCTAssertEqual(withPIN.errorLines, expected, "\(arguments)")
    }
  }

  func testADamagedSchemaIsAnIntegrityFailure() {
    box.tamper {
      _ = try $0.execute("PRAGMA writable_schema = ON")
      _ = try $0.execute(
        "UPDATE sqlite_master SET sql = replace(sql, 'box BLOB', 'bxx BLOB')"
          + " WHERE name = 'records'")
    }
    let result = box.vault(["list"], env: session)
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: integrity failure: the vault's schema was changed: table 'records' is not"
          + " format 2's (a trigger, view or index could make writes do nothing)"
      ])
  }

  func testAPlantedTriggerIsAnIntegrityFailure() {
    box.tamper {
      _ = try $0.execute(
        "CREATE TRIGGER keep BEFORE DELETE ON records BEGIN SELECT RAISE(IGNORE); END")
    }
    let result = box.vault(["rm", "x"], env: session)
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(box.vault(["check"], env: session).status, 17)
  }

  func testADamagedFileFormatByteIsAnIntegrityFailure() throws {
    // Bytes SQLite accepts silently (WAL, a read-only write version, another schema format) are
    // damage too.
    for (offset, value) in [(18, 2), (19, 0), (47, 0)] as [(UInt64, UInt8)] {
      let copy = box.home + "/copy-\(offset).db"
      try FileManager.default.copyItem(atPath: box.vaultPath, toPath: copy)
      let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: copy))
      try handle.seek(toOffset: offset)
      try handle.write(contentsOf: Data([value]))
      try handle.close()
      let result = box.vault(["list", "--vault", copy], env: session)
      XCTAssertEqual(result.status, 17, "byte \(offset): \(result.stderrText)")
    }
    let handle = try XCTUnwrap(FileHandle(forUpdatingAtPath: box.vaultPath))
    try handle.seek(toOffset: 19)
    try handle.write(contentsOf: Data([9]))
    try handle.close()
    let result = box.vault(["list"], env: session)
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: integrity failure: the vault file's SQLite header is damaged (byte 19 is"
          + " 9, not 1)"
      ])
  }

  func testADamagedJournalIDIsNamedByShowAsByCheck() {
    let written = box.vault(["journal"], stdin: Array("dear diary\n".utf8))
    XCTAssertEqual(written.status, 0, written.stderrText)
    let id = box.vault(["journal", "list", "--json"], env: session).stdoutText
    let short = String(id.split(separator: "\"")[3])
    box.tamper {
      _ = try $0.execute("UPDATE pending SET record_id = zeroblob(16)")
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
          "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_records_2'")
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
        try $0.blob("SELECT CAST(sql AS BLOB) FROM sqlite_master WHERE name = 'records'")
      } ?? []
    let loose = String(decoding: schema, as: UTF8.self).replacingOccurrences(
      of: " NOT NULL", with: "")
    for sql in [loose, nil] as [String?] {
      box.tamper {
        _ = try $0.execute("PRAGMA writable_schema = ON")
        _ = try $0.execute(
          "UPDATE sqlite_master SET sql = ? WHERE name = 'records'",
          [.text(sql ?? String(decoding: schema, as: UTF8.self))])
      }
      if sql != nil {
        box.tamper {
          _ = try $0.execute(
            "UPDATE records SET record_id = NULL, lookup = NULL, kind = NULL, revision = NULL,"
              + " box = NULL WHERE kind = 1")
        }
      }
    }
    let check = box.vault(["check"], env: session)
    XCTAssertEqual(check.status, 17, check.stderrText)
    XCTAssertEqual(
      check.errorLines,
      [
        "vault: error: integrity failure: the database structure is damaged: NULL value in"
          + " records.kind (and 2 more)"
      ])
  }
}

/// What the second review found: dash values, a removed sensor, an unverified header in status,
/// raw device-state text, the PIN on an editor's input, loose session files.
final class RecheckTests: XCTestCase {
  var box: Sandbox!

  override func setUp() { box = Sandbox() }
  override func tearDown() { box = nil }

  func testNoWordThatLooksLikeAnOptionIsTakenAsAValue() {
    let enroll = box.biosim(["enroll", "--label", "--all"])
    XCTAssertEqual(enroll.status, 64)
    XCTAssertEqual(
      enroll.errorLines.prefix(2),
      [
        "biosim: error: option '--label' needs a value LABEL",
        "biosim: hint: a value that starts with '-' is given as --label=--all",
      ])
    XCTAssertEqual((box.sensor()["enrolled"] as? [Any])?.count, 0)
    let made = box.vault(["init", "--vault", "--force", "--kdf", "test"], pin: ["246810"])
    XCTAssertEqual(made.status, 64)
    XCTAssertFalse(FileManager.default.fileExists(atPath: box.home + "/--force"))
  }

  func testASessionEndsWhenTheSensorIsRemoved() {
    box.initBiometric()
    let token = box.unlock()
    box.biosim(["hardware", "none"])
    let read = box.vault(["list"], env: ["VAULT_SESSION": token])
    XCTAssertEqual(read.status, 15, read.stderrText)
    XCTAssertEqual(
      read.errorLines.first,
      "vault: error: the biometry type changed from touch-id to none since biometric unlock was"
        + " activated; it is now disabled and every session was revoked; choose a sensor"
        + " ('biosim hardware touch-id'), enroll ('biosim enroll'), then run 'vault biometry"
        + " activate'")
    box.biosim(["hardware", "touch-id"])
    box.biosim(["enroll"])
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["biometry", "activate"]).status, 0, "the steps named work")
  }

  /// biometry.md section 8, scenario 14: an enrollment change ends the session (15); a later
  /// command in it exits 10, and its hint names the steps that work, not a `vault unlock` that
  /// would be refused (exit 15) while biometric unlock is disabled.
  func testLaterCommandsOfARevokedSessionNameTheReactivation() {
    box.initBiometric()
    let token = box.unlock()
    box.biosim(["enroll", "--label", "second"])
    XCTAssertEqual(box.vault(["list"], env: ["VAULT_SESSION": token]).status, 15)
    let later = box.vault(["list"], env: ["VAULT_SESSION": token])
    XCTAssertEqual(later.status, 10, later.stderrText)
    XCTAssertEqual(
      later.errorLines.last,
      "vault: hint: biometric unlock is disabled for this vault: run 'vault biometry activate';"
        + " then unlock with: vault unlock")
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 15, "what the old hint gave")
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["biometry", "activate"]).status, 0)
    XCTAssertTrue(box.isSessionToken(box.unlock()))
  }

  func testStatusSaysWhenTheHeaderIsUnverifiedAndPrintsNoRawText() throws {
    box.initBiometric()
    box.editHeader { $0["policy"] = "pin" }
    XCTAssertTrue(
      box.vault(["status"]).stdoutText.contains(
        "header:           not verified on this device since it last changed"))
    let path = box.home + "/state/vault/device.json"
    var state = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any])
    var sensor = try XCTUnwrap(state["sensor"] as? [String: Any])
    sensor["hardware"] = "\u{1b}[31mRED\nvault: injected"
    state["sensor"] = sensor
    try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: path))
    for output in [box.vault(["status"]).stdoutText, box.biosim(["status"]).stdoutText] {
      XCTAssertFalse(output.contains("\u{1b}"), output)
      XCTAssertFalse(output.contains("\nvault: injected"), output)
    }
  }

  func testThePINIsNeverTheEditorsStandardInput() {
    box.initPINOnly()
    XCTAssertEqual(box.vaultPIN(["add", "a"], stdin: Array("x".utf8)).status, 0)
    let edit = box.shell(
      "printf '%s\\n' \"$PIN\" > \"$HOME/pin\"; EDITOR=true vault edit a --pin-fd 0 < \"$HOME/pin\""
    )
    XCTAssertEqual(edit.status, 5)
    XCTAssertEqual(
      edit.errorLines,
      [
        "vault: error: --pin-fd 0 is standard input, which the editor inherits; give the PIN on"
          + " another descriptor, such as --pin-fd 3 3<pin-file"
      ])
  }

  func testAnOpenAgentFolderIsRefused() throws {
    let session = box.pinOnlySession()
    let root = box.home + "/run/vault"
    chmod(root, 0o777)
    let refused = box.vault(["list"], env: session)
    XCTAssertEqual(refused.status, 19, refused.stderrText)
    XCTAssertEqual(refused.stdout, [])
    chmod(root, 0o700)
    XCTAssertEqual(box.vault(["list"], env: session).status, 0)
  }
}
