import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault rekey` through the built binary on a pseudo-terminal: the new recovery code is shown
/// and typed back, everything is sealed again, old sessions, codes and keys open nothing new,
/// and a rotation killed before or after its commit leaves the old vault or the new one.
final class RekeyCLITests: XCTestCase {
  var box: Sandbox!
  /// The recovery code `init` printed.
  var oldCode = ""
  /// A recovery code as shown: groups of four symbols joined by '-'.
  static let shownCode = "[0-9A-Z]{4}(?:-[0-9A-Z]{4}){7,8}"

  override func setUpWithError() throws {
    box = Sandbox()
    let created = box.vault(["init", "--kdf", "test", "--no-biometry"], pin: [Sandbox.pin])
    XCTAssertEqual(created.status, 0, created.stderrText)
    oldCode = try XCTUnwrap(
      created.stderrText.range(of: Self.shownCode, options: .regularExpression).map {
        String(created.stderrText[$0])
      })
    XCTAssertEqual(box.vaultPIN(["add", "mail"], stdin: Array("hunter2".utf8)).status, 0)
    XCTAssertEqual(box.vaultPIN(["add", "--force", "mail"], stdin: [0, 1, 2]).status, 0)
    let big = [UInt8]((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    XCTAssertEqual(box.vaultPIN(["add", "big"], stdin: big).status, 0)
    XCTAssertEqual(box.vaultPIN(["add", "gone"], stdin: Array("bye".utf8)).status, 0)
    XCTAssertEqual(box.vaultPIN(["rm", "gone"]).status, 0)
    XCTAssertEqual(box.vault(["journal"], stdin: Array("dear diary\n".utf8)).status, 0)
    XCTAssertEqual(box.vaultPIN(["check"]).status, 0)
  }

  override func tearDown() { box = nil }

  /// Runs `vault rekey` under a pty: the PIN, then the code typed back as `typeBack` says.
  func rekey(typeBack: [String] = ["sendre"], env: [String: String] = [:]) throws -> (
    TerminalTests.Run, code: String
  ) {
    let result = try Self.rekey(box, typeBack: typeBack, env: env)
    return (result.run, result.code)
  }

  /// `vault rekey` in `box` under a pty (see `TerminalTests.driver`), and the new code shown.
  static func rekey(
    _ box: Sandbox, typeBack: [String] = ["sendre"], env: [String: String] = [:],
    currentCode: String? = nil, currentTries: Int = 1
  ) throws -> (run: TerminalTests.Run, code: String) {
    var script = ["expect Current PIN: ", "send \(Sandbox.pin)\\r"]
    // A vault with other devices: the code in force authorizes the rotation they take.
    if let currentCode {
      for _ in 0..<currentTries {
        script += ["expect Recovery code in force", "send \(currentCode)\\r"]
      }
    }
    for step in typeBack {
      script += ["expect Type the new recovery code back: ", "\(step) \(shownCode)"]
    }
    let result = Subprocess.run(
      "/usr/bin/env",
      ["python3", "-c", TerminalTests.driver, Sandbox.binDirectory + "/vault", "rekey"],
      environment: box.environment.merging(env) { $1 },
      stdin: Array((script.joined(separator: "\n") + "\n").utf8))
    XCTAssertEqual(result.status, 0, result.stderrText)
    let run = try JSONDecoder().decode(TerminalTests.Run.self, from: Data(result.stdout))
    let code =
      run.output.range(of: shownCode, options: .regularExpression).map {
        String(run.output[$0])
      } ?? ""
    return (run, code)
  }

  /// Every record reads as it did before.
  func assertContentsIntact(file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(box.vaultPIN(["get", "mail"]).stdout, [0, 1, 2], file: file, line: line)
    XCTAssertEqual(
      box.vaultPIN(["get", "mail", "--revision", "1"]).stdoutText, "hunter2", file: file,
      line: line)
    XCTAssertEqual(
      box.vaultPIN(["get", "big"]).stdout,
      (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }, file: file, line: line)
    XCTAssertEqual(
      box.vaultPIN(["get", "gone", "--revision", "1"]).stdoutText, "bye", file: file, line: line)
    XCTAssertEqual(
      box.vaultPIN(["journal", "show", "today"]).stdoutText.hasSuffix("dear diary\n"), true,
      file: file, line: line)
    XCTAssertEqual(
      box.vaultPIN(["check"]).stdoutText,
      "ok: header, 2 entries (7 chunks), 1 journal entry, 2 kept revisions, 1 removed entry\n",
      file: file, line: line)
  }

  func recover(with code: String) -> Subprocess.Result {
    box.vault(["recover"], pin: [code, "135799"])
  }

  func testRekeySealsEverythingAgainAndEndsEverySession() throws {
    let token = box.vaultPIN(["unlock", "--raw"]).stdoutText.trimmingCharacters(in: .newlines)
    let session = ["VAULT_SESSION": token]
    XCTAssertEqual(box.vault(["get", "mail"], env: session).stdout, [0, 1, 2])
    let before = try Data(contentsOf: URL(fileURLWithPath: box.vaultPath))

    let (run, code) = try rekey()
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(
      run.output.contains(
        "Rotated the master key: 7 records and 7 content chunks sealed again, the key sealed to"
          + " 1 device; the old recovery code no longer works and every session was revoked."),
      run.output)
    XCTAssertNotEqual(code, oldCode)
    // The agent let go of the grant that held the old key: nothing of it is left anywhere.
    XCTAssertEqual(box.statusJSON(env: session)["session"] as? NSNull, NSNull())
    let stale = box.vault(["get", "mail"], env: session)
    XCTAssertEqual(stale.status, 10)
    // The rotation ran on a terminal: the agent holds the vault again (with the new key),
    // for shells without a session.
    XCTAssertEqual(
      stale.errorLines,
      [
        "vault: error: locked: every session was revoked when the master key was rotated",
        "vault: hint: the unlock agent holds this vault and serves a shell without a session: run"
          + " 'unset VAULT_SESSION'",
      ])
    XCTAssertEqual(box.vault(["get", "mail"]).stdout, [0, 1, 2], "the agent holds the new key")
    XCTAssertEqual(stale.stdout, [])
    // Every box changed; nothing of the old file reads with the new keys, and contents stay.
    let after = try Data(contentsOf: URL(fileURLWithPath: box.vaultPath))
    XCTAssertNotEqual(before, after)
    assertContentsIntact()
    // The old recovery code no longer opens the vault; the new one does.
    XCTAssertEqual(recover(with: oldCode).status, 11)
    XCTAssertEqual(recover(with: code).status, 0)
    XCTAssertEqual(box.vault(["get", "mail"], pin: ["135799"]).stdout, [0, 1, 2])
    // The journal can still be written without the key, and folds as verified.
    XCTAssertEqual(box.vault(["journal"], stdin: Array("after\n".utf8)).status, 0)
    XCTAssertEqual(box.vault(["check"], pin: ["135799"]).status, 0)
  }

  func testABiometricVaultStillUnlocksAfterARotation() throws {
    let bio = Sandbox()
    bio.initBiometric()
    bio.biosim(["next", "match"])
    XCTAssertEqual(bio.vaultPIN(["add", "s1"], stdin: Array("bio-secret".utf8)).status, 0)
    bio.biosim(["next", "match"])
    let rotated = try Self.rekey(bio)
    XCTAssertEqual(rotated.run.status, 0, rotated.run.output)
    bio.biosim(["next", "match"])
    let read = bio.vaultPIN(["get", "s1"])
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "bio-secret")
    XCTAssertEqual(bio.statusJSON()["policy"] as? String, "pin+biometry")
  }

  func testTheOldFilePutBackIsRefused() throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: box.vaultPath))
    XCTAssertEqual(try rekey().0.status, 0)
    try before.write(to: URL(fileURLWithPath: box.vaultPath))
    let refused = box.vaultPIN(["get", "mail"])
    XCTAssertEqual(refused.status, 17, refused.stderrText)
  }

  func testATypoInTheNewCodeIsRefusedAndAskedAgain() throws {
    let (run, code) = try rekey(typeBack: ["sendre-typo", "sendre-swap", "sendre"])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertEqual(
      run.output.components(separatedBy: "Type the new recovery code back: ").count, 4,
      run.output)
    XCTAssertTrue(
      run.output.contains(
        "vault: the recovery code has a typo: its last group does not match the other symbols;"),
      run.output)
    XCTAssertTrue(run.output.contains("type it again (2 tries left)"), run.output)
    XCTAssertTrue(run.output.contains("type it again (1 try left)"), run.output)
    XCTAssertEqual(recover(with: code).status, 0)
  }

  func testThreeWrongAnswersChangeNothing() throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: box.vaultPath))
    let (run, _) = try rekey(typeBack: ["sendre-typo", "sendre-typo", "sendre-typo"])
    XCTAssertEqual(run.status, 5, run.output)
    XCTAssertTrue(
      run.output.contains(
        "vault: error: the new recovery code was not typed back correctly in 3 tries; nothing"
          + " was changed (the old recovery code still works)"), run.output)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: box.vaultPath)), before)
    XCTAssertEqual(recover(with: oldCode).status, 0)
  }

  func testKilledBeforeItsCommitTheOldKeyAndCodeStillWork() throws {
    let (run, code) = try rekey(env: ["VAULT_TEST_CRASH": "rekey-before-commit"])
    XCTAssertEqual(run.status, 137, run.output)
    assertContentsIntact()
    XCTAssertEqual(recover(with: code).status, 11)
    XCTAssertEqual(recover(with: oldCode).status, 0)
  }

  func testACtrlCJustAfterTheCommitWaitsForTheReport() throws {
    let (run, code) = try rekey(env: ["VAULT_TEST_CRASH": "rekey-interrupt-after-commit"])
    XCTAssertEqual(run.status, 130, run.output)
    XCTAssertTrue(
      run.output.contains("the old recovery code no longer works and every session was revoked."),
      run.output)
    XCTAssertEqual(recover(with: code).status, 0)
  }

  func testKilledAfterItsCommitTheNewKeyAndCodeWork() throws {
    let token = box.vaultPIN(["unlock", "--raw"]).stdoutText.trimmingCharacters(in: .newlines)
    let (run, code) = try rekey(env: ["VAULT_TEST_CRASH": "rekey-after-commit"])
    XCTAssertEqual(run.status, 137, run.output)
    // The sessions were not revoked yet, but their old key opens nothing. This device had not
    // yet recorded the new header as authenticated, so it cannot tell it from an edited one.
    let stale = box.vault(["get", "mail"], env: ["VAULT_SESSION": token])
    XCTAssertEqual(stale.status, 17)
    XCTAssertEqual(stale.stdout, [])
    assertContentsIntact()
    // This device's writer key was rotated in the file but not here: the next unlock makes a
    // new one, and the journal folds as verified.
    XCTAssertEqual(box.vault(["journal"], stdin: Array("after the crash\n".utf8)).status, 0)
    XCTAssertEqual(box.vaultPIN(["check"]).status, 0)
    XCTAssertEqual(
      box.vaultPIN(["journal", "list", "--json"]).stdoutText.contains("unverified"), false)
    XCTAssertEqual(recover(with: oldCode).status, 11)
    XCTAssertEqual(recover(with: code).status, 0)
  }

  func testWithoutAnAnswerNothingChanges() throws {
    let before = try Data(contentsOf: URL(fileURLWithPath: box.vaultPath))
    // The binary, whose --pin-fd is descriptor 3 as the message says.
    let refused = box.vaultPIN(["rekey"], spawn: true)
    XCTAssertEqual(refused.status, 5)
    XCTAssertEqual(
      refused.errorLines.last,
      "vault: error: --pin-fd 3 ended before a line was read; nothing was changed (the old"
        + " recovery code still works)")
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: box.vaultPath)), before)
    XCTAssertEqual(box.vault(["rekey"]).status, 10)
  }
}
