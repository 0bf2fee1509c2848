import Foundation
import VaultTestSupport
import XCTest

/// An export imported back gives the same entries, byte for byte: `vault`, `jsonl` and `csv`,
/// through the built binaries, into a fresh vault each.
final class TransferRoundTripCLITests: XCTestCase {
  var source: Sandbox!
  static let passphrase = "correct horse battery staple"
  static let large = [UInt8]((0..<2_100_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })
  static let entries: [(String, [UInt8])] = [
    ("bin/blob", [0x00, 0xFF, 0xFE, 0x80, 0x0A]),
    ("big", large),
    ("crlf", Array("pw\r\nuser: win\r\n".utf8)),
    (
      "mail/work", Array("hunter2\nusername: ada\nurl: https://mail.example.org\nnotes here\n".utf8)
    ),
    ("no-newline", Array("only".utf8)),
    ("unicode/café ☕", Array("pässwörd\n".utf8)),
  ]

  override func setUp() {
    source = Sandbox()
    source.initPINOnly()
    for (name, content) in Self.entries {
      XCTAssertEqual(source.vaultPIN(["add", name], stdin: content).status, 0, name)
    }
    XCTAssertEqual(source.vaultPIN(["add", "g/guarded", "--guard"], stdin: [0x67]).status, 0)
    XCTAssertEqual(source.vaultPIN(["journal"], stdin: Array("Walked. @dog\n".utf8)).status, 0)
  }

  override func tearDown() { source = nil }

  /// A fresh vault with a session, the import of `file` in `format` into it, and its session.
  func imported(_ format: String, _ file: String, pin: [String]? = nil) -> (
    Sandbox, [String: String]
  ) {
    let target = Sandbox()
    let session = target.pinOnlySession()
    let result = target.vault(
      ["import", "--from", format, source.home + "/" + file], pin: pin, env: session)
    XCTAssertEqual(result.status, 0, "\(format): \(result.stderrText)")
    return (target, session)
  }

  func assertSameEntries(
    _ target: Sandbox, _ session: [String: String], file: StaticString = #filePath,
    line: UInt = #line
  ) {
    for (name, content) in Self.entries {
      XCTAssertEqual(
        target.vault(["get", name], env: session).stdout, content, name, file: file, line: line)
    }
    let names = Self.entries.map(\.0) + ["g/guarded"]
    XCTAssertEqual(
      target.vault(["list"], env: session).stdoutText,
      names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        .map { $0 + "\n" }.joined(), file: file, line: line)
  }

  func testTheVaultFormatRoundTripsEntriesGuardsAndTheJournal() throws {
    let made = source.vault(
      ["export", "--to", "vault", "--kdf", "test", "--output", "e.vx"],
      pin: [Self.passphrase, Sandbox.pin])
    XCTAssertEqual(made.status, 0, made.stderrText)
    let (target, session) = imported("vault", "e.vx", pin: [Self.passphrase])
    assertSameEntries(target, session)
    // The guarded entry came in guarded: a session does not read it.
    XCTAssertEqual(target.vaultPIN(["get", "g/guarded"]).stdout, [0x67])
    XCTAssertNotEqual(target.vault(["get", "g/guarded"], env: session).status, 0)
    XCTAssertTrue(
      target.vault(["journal", "show", "today"], env: session).stdoutText.hasSuffix(
        "Walked. @dog\n"))
    let wrong = Sandbox()
    let wrongSession = wrong.pinOnlySession()
    let refused = wrong.vault(
      ["import", "--from", "vault", source.home + "/e.vx"], pin: ["not the passphrase at all"],
      env: wrongSession)
    XCTAssertEqual(refused.status, 11, refused.stderrText)
    XCTAssertEqual(wrong.vault(["list"], env: wrongSession).stdoutText, "")
  }

  func testJSONLinesAndCSVRoundTripEveryByte() throws {
    for format in ["jsonl", "csv"] {
      let made = source.vault(
        ["export", "--to", format, "--plaintext", "--output", "e.\(format)"], pin: [Sandbox.pin])
      XCTAssertEqual(made.status, 0, made.stderrText)
      let (target, session) = imported(format, "e.\(format)")
      assertSameEntries(target, session)
      XCTAssertEqual(target.vault(["get", "g/guarded"], env: session).stdout, [0x67])
    }
  }
}
