import Foundation
import XCTest

@testable import VaultAgent
@testable import VaultCLI
@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// The session file as `vault(5)` SESSIONS specifies it, through the built binary: one record of
/// a fixed size whose box authenticates every field, so an edited timer or boot id is refused,
/// and a JSON session of an older release is never parsed.
final class SessionRecordCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]
  var token: String { session["VAULT_SESSION"] ?? "" }

  override func setUp() {
    box = Sandbox(extra: ["VAULT_TEST_BOOTCLOCK": "1000", "VAULT_TEST_BOOT_ID": "boot-A"])
    session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "note"], stdin: Array("hello".utf8), env: session).status, 0)
  }
  override func tearDown() { box = nil }

  /// The one session file: its folder (the vault id in hex) and its path.
  func sessionFile() throws -> (vaultID: String, path: String) {
    let root = box.home + "/run/vault"
    let folders = try FileManager.default.contentsOfDirectory(atPath: root)
    XCTAssertEqual(folders.count, 1, "\(folders)")
    let files = try FileManager.default.contentsOfDirectory(atPath: root + "/" + folders[0])
    XCTAssertEqual(files.count, 1, "\(files)")
    return (folders[0], root + "/" + folders[0] + "/" + files[0])
  }

  func bytes(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  func write(_ bytes: [UInt8], _ path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    XCTAssertEqual(chmod(path, 0o600), 0)
  }

  func get(boot: String = "1010", bootID: String = "boot-A") -> Subprocess.Result {
    box.vault(
      ["get", "note"],
      env: session.merging(["VAULT_TEST_BOOTCLOCK": boot, "VAULT_TEST_BOOT_ID": bootID]) { $1 })
  }

  static func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
  }

  func testTheFileIsOneRecordOfTheSpecifiedSizeAndLayout() throws {
    let (vaultID, path) = try sessionFile()
    let record = try bytes(path)
    XCTAssertEqual(record.count, 149)
    XCTAssertEqual(SessionStore.recordByteCount, 149)
    XCTAssertEqual(Array(record[0..<5]), Array("VSES".utf8) + [2])
    XCTAssertEqual(record[5..<21].map { String(format: "%02x", $0) }.joined(), vaultID)
    XCTAssertEqual(Array(record[21..<37]), SessionStore.bootHash("boot-A"))
    XCTAssertEqual(Array(record[37..<53]), SessionStore.pathHash(box.vaultPath))
    // Issued at boot-clock second 1000, 15 minutes idle, 8 hours at most.
    XCTAssertEqual(
      Array(record[53..<69]), Self.bigEndian(UInt64(1_000_000)) + Self.bigEndian(UInt64(1_000_000)))
    XCTAssertEqual(
      Array(record[69..<77]), Self.bigEndian(UInt32(900)) + Self.bigEndian(UInt32(28800)))
    XCTAssertNil(String(bytes: record, encoding: .utf8).flatMap { $0.range(of: token) })
    // A renewal rewrites it at the same size, with the new last use and a new box.
    // Not within the minute after the last renewal; then once.
    XCTAssertEqual(get(boot: "1059.9").stdoutText, "hello")
    XCTAssertEqual(try bytes(path), record)
    XCTAssertEqual(get(boot: "1060.5").stdoutText, "hello")
    let renewed = try bytes(path)
    XCTAssertEqual(renewed.count, 149)
    XCTAssertEqual(Array(renewed[61..<69]), Self.bigEndian(UInt64(1_060_500)))
    XCTAssertNotEqual(Array(renewed[77...]), Array(record[77...]))
  }

  /// A timeout shorter than a minute is renewed every quarter of it, so a session used every
  /// 12 seconds under a 30-second timeout stays open; 30 seconds after its last renewal it ends.
  func testAShortTimeoutIsRenewedByUseAndEndsWhenIdle() throws {
    let unlocked = box.vaultPIN(["unlock", "--raw", "--timeout", "30s"])
    XCTAssertEqual(unlocked.status, 0, unlocked.stderrText)
    session = ["VAULT_SESSION": unlocked.stdoutText.trimmingCharacters(in: .newlines)]
    XCTAssertEqual(SessionStore.renewalMilliseconds(idle: 30), 7_500)
    XCTAssertEqual(SessionStore.renewalMilliseconds(idle: 900), 60_000)
    for second in stride(from: 1012, through: 1072, by: 12) {
      let read = get(boot: "\(second)")
      XCTAssertEqual(read.status, 0, "at \(second): \(read.stderrText)")
      XCTAssertEqual(read.stdoutText, "hello")
    }
    // A use 7 s after the last renewal (second 1072) is under a quarter and renews nothing: the
    // session then ends 30 s after 1072, though 1079 was used.
    XCTAssertEqual(get(boot: "1079").status, 0)
    let idle = get(boot: "1102.5")
    XCTAssertEqual(idle.status, 10)
    XCTAssertEqual(
      idle.errorLines,
      [
        "vault: error: locked: the session has expired",
        "vault: hint: unlock first with: vault unlock",
      ])
  }

  func testEditingATimerOrTheBootIDIsRefusedAsAnEdit() throws {
    let (_, path) = try sessionFile()
    // Renewed at second 1060: created 1000000, last_used 1060000.
    XCTAssertEqual(get(boot: "1060").stdoutText, "hello")
    let original = try bytes(path)
    // Each edit stays within the bounds, so only the box can tell: a later start, a later last
    // use, a longer idle timeout, a shorter hard limit (the field itself), the hash of another
    // boot (a session carried over a reboot), another path, and the box.
    let edits: [(field: String, offset: Int, value: [UInt8])] = [
      ("created", 53, Self.bigEndian(UInt64(1_060_000))),
      ("last_used", 61, Self.bigEndian(UInt64(1_000_000 + 8 * 3600 * 1000))),
      ("idle", 69, Self.bigEndian(UInt32(28800))),
      ("hard", 73, Self.bigEndian(UInt32(3600))),
      ("boot", 21, SessionStore.bootHash("boot-B")),
      ("path", 37, SessionStore.pathHash(box.home + "/other.db")),
      ("box", 100, [original[100] ^ 1]),
    ]
    for edit in edits {
      var edited = original
      edited.replaceSubrange(edit.offset..<edit.offset + edit.value.count, with: edit.value)
      XCTAssertNotEqual(edited, original, edit.field)
      try write(edited, path)
      let result = get(boot: "1070", bootID: edit.field == "boot" ? "boot-B" : "boot-A")
      XCTAssertEqual(result.status, 17, "\(edit.field): \(result.stderrText)")
      XCTAssertEqual(result.stdout, [], edit.field)
      XCTAssertEqual(
        result.errorLines,
        [
          "vault: error: integrity failure: the session file \(path) failed authentication (it"
            + " was edited or damaged)"
        ], edit.field)
      XCTAssertTrue(FileManager.default.fileExists(atPath: path), edit.field)
    }
    try write(original, path)
    XCTAssertEqual(get(boot: "1070").stdoutText, "hello")
    // Unedited, the same file after a reboot has expired (and is removed).
    let rebooted = get(boot: "1070", bootID: "boot-B")
    XCTAssertEqual(rebooted.status, 10)
    XCTAssertEqual(rebooted.errorLines.first, "vault: error: locked: the session has expired")
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))
  }

  func testFieldsOutOfBoundsAndAnotherSizeAreMalformed() throws {
    let (_, path) = try sessionFile()
    let original = try bytes(path)
    var cases: [(String, [UInt8])] = [
      ("truncated", Array(original.dropLast())), ("extended", original + [0]),
      ("empty", []), ("magic", [UInt8(ascii: "X")] + original.dropFirst()),
      ("version", Array(original[0..<4]) + [3] + original[5...]),
    ]
    for (field, offset, value) in [
      ("created after last_used", 53, Self.bigEndian(UInt64(1_000_001))),
      ("time beyond 10^13", 61, Self.bigEndian(UInt64(10_000_000_000_001))),
      ("idle 0", 69, Self.bigEndian(UInt32(0))),
      ("idle beyond 8 h", 69, Self.bigEndian(UInt32(28801))),
      ("hard beyond 8 h", 73, Self.bigEndian(UInt32.max)),
    ] as [(String, Int, [UInt8])] {
      var edited = original
      edited.replaceSubrange(offset..<offset + value.count, with: value)
      cases.append((field, edited))
    }
    for (field, edited) in cases {
      try write(edited, path)
      let result = get()
      XCTAssertEqual(result.status, 17, "\(field): \(result.stderrText)")
      XCTAssertEqual(
        result.errorLines,
        ["vault: error: integrity failure: the session file \(path) is malformed"], field)
    }
    try write(original, path)
    XCTAssertEqual(get().stdoutText, "hello")
  }

  func testAJSONSessionOfAnOlderReleaseIsRefusedUnreadAndRemoved() throws {
    let (vaultID, path) = try sessionFile()
    // What release 0.2 wrote: its timers in the clear, here edited never to expire.
    let old =
      #"{"boot_id":"boot-A","created":1000,"hard":1e300,"idle":1e300,"last_used":1000,"#
      + #""vault_id":"\#(vaultID)","vault_path":"\#(box.vaultPath)","wrapped":"AAAA"}"#
    try write(Array(old.utf8), path)
    let result = get()
    XCTAssertEqual(result.status, 10, result.stderrText)
    XCTAssertEqual(result.stdout, [])
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: locked: the session was issued by an older release of vault; unlock again",
        "vault: hint: unlock first with: vault unlock",
      ])
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    // With the PIN at hand, the command goes on with it, as for any session that ended.
    try write(Array(old.utf8), path)
    let withPIN = box.vaultPIN(["get", "note"], env: session)
    XCTAssertEqual(withPIN.stdoutText, "hello", withPIN.stderrText)
  }

  func testAFileMovedIntoAnotherVaultsFolderIsRefused() throws {
    let (vaultID, path) = try sessionFile()
    let other = box.home + "/other.db"
    XCTAssertEqual(
      box.vault(["init", "--kdf", "test", "--no-biometry", "--vault", other], pin: ["999900"])
        .status, 0)
    XCTAssertEqual(box.vault(["unlock", "--raw", "--vault", other], pin: ["999900"]).status, 0)
    let root = box.home + "/run/vault"
    let otherFolder = try XCTUnwrap(
      FileManager.default.contentsOfDirectory(atPath: root).first { $0 != vaultID })
    // The other vault's session file, put under this token's name in this vault's folder.
    let otherFile = try XCTUnwrap(
      FileManager.default.contentsOfDirectory(atPath: root + "/" + otherFolder).first)
    let moved = try bytes(root + "/" + otherFolder + "/" + otherFile)
    try write(moved, path)
    let result = get()
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      ["vault: error: integrity failure: the session file \(path) holds another vault's id"])
    // With the other vault's id in its place, the box still does not open: it is another token's.
    var relabelled = moved
    relabelled.replaceSubrange(5..<21, with: hexBytes(vaultID))
    try write(relabelled, path)
    let relabelledResult = get()
    XCTAssertEqual(relabelledResult.status, 17)
    XCTAssertEqual(
      relabelledResult.errorLines,
      [
        "vault: error: integrity failure: the session file \(path) failed authentication (it"
          + " was edited or damaged)"
      ])
  }

  func testLockRevokesTheSessionsIssuedForThisFileUnderAnyVaultID() throws {
    let (vaultID, _) = try sessionFile()
    // The header's vault id edited: the session sits in the folder of the id it was issued for.
    box.editHeader { header in
      var id = [UInt8](Data(base64Encoded: header["vault_id"] as? String ?? "") ?? Data())
      id[0] ^= 1
      header["vault_id"] = Data(id).base64EncodedString()
    }
    let lock = box.vault(["lock"])
    XCTAssertEqual(lock.status, 0, lock.stderrText)
    let left = try FileManager.default.contentsOfDirectory(atPath: box.home + "/run/vault")
    XCTAssertEqual(
      left.filter { !$0.hasSuffix(".revoked") }, [], "the folder of \(vaultID) is gone")
  }

  func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).compactMap {
      UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)
    }
  }
}
