import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// The tamper helper the CLI tests edit vault files with: it writes headers exactly as the Python
/// scripts it replaced did, and its SQL reaches the file.
final class VaultFileTampererTests: XCTestCase {
  var home: TemporaryHome!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { home = nil }

  override func setUp() { home = TemporaryHome() }

  func testCompactJSONWritesWhatPythonWrites() throws {
    let value: [String: Any] = [
      "x": [
        "é/\u{01}\u{7f}\t\"\\😀", true, false, NSNull(), -5, Int.max,
        ["b": 1, "a": [Any](), "B": [String: Any](), "é": 0, "z": 1],
      ] as [Any],
      "kdf": ["profile": "interactive", "opslimit": 2, "memlimit": 67_108_864],
    ]
    // python3 -c 'import json; print(json.dumps(value, sort_keys=True, separators=(",", ":")))'
    let python =
      #"{"kdf":{"memlimit":67108864,"opslimit":2,"profile":"interactive"},"#
      + #""x":["\u00e9/\u0001\u007f\t\"\\\ud83d\ude00",true,false,null,-5,"#
      + #"9223372036854775807,{"B":{},"a":[],"b":1,"z":1,"\u00e9":0}]}"#
    XCTAssertEqual(String(decoding: try CompactJSON.encode(value), as: UTF8.self), python)
    let parsed = try JSONSerialization.jsonObject(with: Data(python.utf8))
    XCTAssertEqual(String(decoding: try CompactJSON.encode(parsed), as: UTF8.self), python)
    XCTAssertThrowsError(try CompactJSON.encode(["a": 1.5]))
  }

  func testAnUnchangedHeaderIsStoredWithUnescapedSlashesAndStillParses() throws {
    _ = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: Policy.pinOnly,
      environment: home.environment())
    let file = try VaultFileTamperer(path: home.vaultPath)
    let stored = try file.headerBody()
    try file.editHeader { _ in }
    // JSONEncoder writes `\/`; Python's json.dumps, and so the tamper helper, writes `/`.
    let expected = String(decoding: stored, as: UTF8.self).replacing(#"\/"#, with: "/")
    XCTAssertEqual(String(decoding: try file.headerBody(), as: UTF8.self), expected)
    XCTAssertEqual(try Header.parse(file.headerBody()), try Header.parse(stored))
  }

  func testStatementsAndBlobsReachTheFile() throws {
    _ = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: Policy.pinOnly,
      environment: home.environment())
    let file = try VaultFileTamperer(path: home.vaultPath)
    try file.execute(
      "insert into chunks values (?, 1, 0, ?)", [.blob([1, 2, 3]), .blob([0xFF, 0x00])])
    try file.replaceBlob(
      "select box from chunks where record_id = x'010203'",
      "update chunks set box = ? where record_id = x'010203'"
    ) { $0[1] ^= 1 }
    XCTAssertEqual(
      try file.blob("select box from chunks where record_id = ?", [.blob([1, 2, 3])]), [0xFF, 0x01])
    XCTAssertEqual(try file.integer("select count(*) from chunks"), 1)
    XCTAssertThrowsError(try file.blob("select box from chunks where idx = 7"))
    XCTAssertThrowsError(try file.execute("update nowhere set x = 1"))
    XCTAssertThrowsError(try VaultFileTamperer(path: home.path + "/none.db"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: home.path + "/none.db"))
  }
}
