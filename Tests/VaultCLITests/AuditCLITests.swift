import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault audit` through the built binary: each problem, its exact line, JSON and exit codes.
final class AuditCLITests: XCTestCase {
  var box: Sandbox!
  // XCTest keeps every test case alive until the run ends: release the folder (and its agent).
  override func tearDown() { box = nil }
  var session: [String: String] = [:]
  let start = 1_800_000_000

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
  }

  func add(_ name: String, _ content: String, at time: Int, _ extra: [String] = []) {
    let result = box.vault(
      ["add", name] + extra, stdin: Array(content.utf8),
      env: session.merging(["VAULT_TEST_WALLCLOCK": "\(time)"]) { $1 })
    XCTAssertEqual(result.status, 0, result.stderrText)
  }

  func audit(_ arguments: [String] = [], at time: Int) -> Subprocess.Result {
    box.vault(
      ["audit"] + arguments, env: session.merging(["VAULT_TEST_WALLCLOCK": "\(time)"]) { $1 })
  }

  func testEachProblemIsOneLine() {
    add("bank", "hunter2\nuser: ada\n", at: start)
    add("shop", "hunter2", at: start)
    add("good", "Xq7#mP2$vL9@wR4!kT8z", at: start)
    add("phrase", "river-amber-candle-orbit", at: start)
    add("aged", "Zr8#Lm2$Qp5@Wx9!Tc4v\n", at: start)
    // A field change keeps the password: its age counts from the add.
    XCTAssertEqual(
      box.vault(
        ["set", "aged", "user"], stdin: Array("ada".utf8),
        env: session.merging(["VAULT_TEST_WALLCLOCK": "\(start + 300 * 86_400)"]) { $1 }
      ).status, 0)
    let later = start + 400 * 86_400
    let result = audit(at: later)
    XCTAssertEqual(result.status, 1, result.stderrText)
    XCTAssertEqual(
      result.stdoutText,
      """
      aged: old: not changed since 2027-01-15 (400 days)
      bank: reused: the same password as 'shop'
      bank: short: 7 characters (fewer than 12)
      bank: weak: about 36 bits (fewer than 50)
      bank: old: not changed since 2027-01-15 (400 days)
      good: old: not changed since 2027-01-15 (400 days)
      phrase: weak: about 45 bits (fewer than 50)
      phrase: old: not changed since 2027-01-15 (400 days)
      shop: reused: the same password as 'bank'
      shop: short: 7 characters (fewer than 12)
      shop: weak: about 36 bits (fewer than 50)
      shop: old: not changed since 2027-01-15 (400 days)

      """)
    XCTAssertEqual(result.errorLines, ["Checked 5 passwords: 5 entries have a problem."])
    XCTAssertFalse(result.stdoutText.contains("hunter2"), "no password is ever printed")

    let json = audit(["bank", "--json"], at: start + 10)
    XCTAssertEqual(json.status, 1)
    XCTAssertEqual(
      json.stdoutText,
      #"[{"name":"bank","problems":[{"problem":"reused","with":["shop"]},{"problem":"short","length":7},{"problem":"weak","bits":36}]}]"#
        + "\n", "reuse counts every entry; only those under PREFIX are reported")
  }

  func testAClearVaultExitsZeroAndAChangedPasswordIsYoung() {
    add("good", "Xq7#mP2$vL9@wR4!kT8z", at: start)
    let clean = audit(at: start + 10)
    XCTAssertEqual(clean.status, 0, clean.stderrText)
    XCTAssertEqual(clean.stdout, [])
    XCTAssertEqual(clean.errorLines, ["Checked 1 password: no problem found."])
    let later = start + 500 * 86_400
    XCTAssertEqual(
      box.vault(
        ["generate", "--in-place", "good"],
        env: session.merging(["VAULT_TEST_WALLCLOCK": "\(later - 86_400)"]) { $1 }
      ).status, 0)
    XCTAssertEqual(audit(at: later).status, 0, "the password changed a day ago")
  }

  func testAgeIsALowerBoundWhenHistoryWasDropped() {
    XCTAssertEqual(box.vault(["settings", "history_keep", "0"], env: session).status, 0)
    XCTAssertEqual(box.vault(["settings", "history_days", "0"], env: session).status, 0)
    add("aged", "Zr8#Lm2$Qp5@Wx9!Tc4v", at: start)
    XCTAssertEqual(
      box.vault(
        ["set", "aged", "user"], stdin: Array("ada".utf8),
        env: session.merging(["VAULT_TEST_WALLCLOCK": "\(start + 86_400)"]) { $1 }
      ).status, 0)
    let result = audit(["--json"], at: start + 401 * 86_400)
    XCTAssertEqual(
      result.stdoutText,
      #"[{"name":"aged","problems":[{"problem":"old","since":"2027-01-16T08:00:00Z","days":400,"at_least":true}]}]"#
        + "\n")
  }

  func testGuardedAndBinaryEntriesAreLeftOutInASession() {
    add("g", "hunter2", at: start, ["--guard"])
    XCTAssertEqual(box.vault(["add", "bin"], stdin: [0xFF, 0xFE], env: session).status, 0)
    let result = audit(at: start + 10)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      [
        "Checked 0 passwords: no problem found.",
        "vault: note: 1 entry has no password to check (an empty first line, content that is"
          + " not text, or a large content of more than 1 MiB)",
        "vault: note: 1 guarded entry was left out; run 'vault audit' without a session to"
          + " check them too",
      ])
  }
}
