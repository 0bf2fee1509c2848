import Foundation
import VaultFormat
import XCTest

/// `vault export` of guarded entries (review of 0.11.0, item 19): one fresh match covers every
/// guarded entry of one export, whatever holds the key (the agent, a session, or the PIN, whose
/// own match is that one); a refused or cancelled match writes nothing; `--skip-guarded` leaves
/// them out instead, named (exit 5).
final class ExportGuardedCLITests: XCTestCase {
  var box: Sandbox!

  /// A biometric vault with an open entry and two guarded ones.
  override func setUp() {
    box = Sandbox(extra: ["VAULT_TEST_BOOTCLOCK": "1000"])
    box.initBiometric()
    for (name, guarded) in [("a", false), ("g/one", true), ("g/two", true)] {
      box.biosim(["next", "match"])
      let result = box.vaultPIN(
        ["add", name] + (guarded ? ["--guard"] : []), stdin: Array("\(name)-value".utf8))
      XCTAssertEqual(result.status, 0, result.stderrText)
    }
  }

  override func tearDown() { box = nil }

  /// Every entry, as `--to jsonl` writes it.
  static let whole =
    "{\"name\":\"a\",\"content\":\"a-value\"}\n{\"name\":\"g/one\",\"content\":\"g/one-value\"}\n"
    + "{\"name\":\"g/two\",\"content\":\"g/two-value\"}\n"

  var outputExists: Bool { FileManager.default.fileExists(atPath: box.home + "/out.jsonl") }

  func testOneMatchThroughTheAgentCoversEveryGuardedEntry() {
    box.biosim(["next", "match"])
    let unlocked = box.vaultPIN(["unlock"])
    XCTAssertEqual(unlocked.status, 0, unlocked.stderrText)
    box.biosim(["next", "match"])
    let exported = box.vault(["export", "--to", "jsonl", "--plaintext"])
    XCTAssertEqual(exported.status, 0, exported.stderrText)
    XCTAssertEqual(exported.stdoutText, Self.whole)
    XCTAssertEqual(
      exported.errorLines, ["exported 3 entries and 0 journal entries to standard output"])
    XCTAssertEqual(box.sensor()["queue"] as? [String], [], "one match for both")
    // A PREFIX with no guarded entry under it asks nothing (there is no terminal to ask on).
    let open = box.vault(["export", "--to", "jsonl", "--plaintext", "a"])
    XCTAssertEqual(open.status, 0, open.stderrText)
    XCTAssertEqual(open.stdoutText, "{\"name\":\"a\",\"content\":\"a-value\"}\n")
    // A finger that does not match writes no file, and the agent lets the vault go.
    box.biosim(["next", "no-match", "--count", "3"])
    let refused = box.vault(
      ["export", "--to", "jsonl", "--plaintext", "--output", "out.jsonl"],
      env: ["VAULT_TEST_BOOTCLOCK": "1010"])
    XCTAssertEqual(refused.status, 12, refused.stderrText)
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: authentication failed (LAError -1): biometric not recognised (simulated"
          + " sensor)"
      ])
    XCTAssertFalse(outputExists)
    XCTAssertEqual(box.vault(["status", "--check"]).status, 10, "someone else may be at the keys")
  }

  /// A `--to vault` export's passphrase, and its import's, is a line of `--pin-fd` whatever holds
  /// the key: the agent hands such a command back to the calling process, as it does one that
  /// reads the PIN (review of 0.12.0 as a new user: exit 10, "no terminal to ask for the
  /// export's passphrase and no --pin-fd", though --pin-fd was given).
  func testAPassphraseFromPINFDThroughTheAgent() {
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 0)
    box.biosim(["next", "match"])
    let passphrase = ["correct-horse-battery-staple-9"]
    let exported = box.vault(["export", "--to", "vault", "--output", "ex.vault"], pin: passphrase)
    XCTAssertEqual(exported.status, 0, exported.stderrText)
    XCTAssertEqual(exported.errorLines, ["exported 3 entries and 0 journal entries to ex.vault"])
    let imported = box.vault(
      ["import", "--from", "vault", "--dry-run", "--force", "ex.vault"], pin: passphrase)
    XCTAssertEqual(imported.status, 0, imported.stderrText)
    XCTAssertEqual(imported.stdoutText, "")
    XCTAssertEqual(
      imported.errorLines,
      [
        "Would import 3 entries (3 replacing existing ones) and 0 journal entries; nothing was written."
      ])
    let verified = box.vault(["export", "--verify", "ex.vault"], pin: passphrase)
    XCTAssertEqual(verified.status, 0, verified.stderrText)
    // A line past the limit ends as it does when read in the calling process.
    let long = box.vault(
      ["export", "--to", "vault", "--output", "long.vault"],
      pin: [String(repeating: "x", count: 5000)])
    XCTAssertEqual(long.status, 5, long.stderrText)
    XCTAssertEqual(
      long.errorLines.first, "vault: error: a line longer than 4096 bytes was given")
    XCTAssertFalse(FileManager.default.fileExists(atPath: box.home + "/long.vault"))
  }

  func testOneMatchInASessionAndACancelledOneWritesNothing() throws {
    let session = ["VAULT_SESSION": box.unlock()]
    box.biosim(["next", "cancel"])
    let cancelled = box.vault(
      ["export", "--to", "jsonl", "--plaintext", "--output", "out.jsonl"], env: session)
    XCTAssertEqual(cancelled.status, 13, cancelled.stderrText)
    XCTAssertEqual(
      cancelled.errorLines,
      ["vault: error: user cancel (LAError -2): the biometric prompt was cancelled"])
    XCTAssertFalse(outputExists)
    box.biosim(["next", "match"])
    let exported = box.vault(
      ["export", "--to", "jsonl", "--plaintext", "--output", "out.jsonl"], env: session)
    XCTAssertEqual(exported.status, 0, exported.stderrText)
    XCTAssertEqual(exported.errorLines, ["exported 3 entries and 0 journal entries to out.jsonl"])
    XCTAssertEqual(try String(contentsOfFile: box.home + "/out.jsonl", encoding: .utf8), Self.whole)
    XCTAssertEqual(box.sensor()["queue"] as? [String], [])
  }

  func testThePINsOwnMatchIsTheOneMatch() {
    box.biosim(["next", "match"])
    let exported = box.vaultPIN(["export", "--to", "jsonl", "--plaintext"])
    XCTAssertEqual(exported.status, 0, exported.stderrText)
    XCTAssertEqual(exported.stdoutText, Self.whole)
    XCTAssertEqual(
      exported.errorLines, ["exported 3 entries and 0 journal entries to standard output"])
    XCTAssertEqual(box.sensor()["queue"] as? [String], [])
  }

  func testSkipGuardedLeavesThemOutAsksNothingAndExits5() {
    let session = ["VAULT_SESSION": box.unlock()]
    let skipped = box.vault(
      ["export", "--to", "jsonl", "--plaintext", "--skip-guarded"], env: session)
    XCTAssertEqual(skipped.status, 5, skipped.stderrText)
    XCTAssertEqual(skipped.stdoutText, "{\"name\":\"a\",\"content\":\"a-value\"}\n")
    XCTAssertEqual(
      skipped.errorLines,
      [
        "vault: note: 2 guarded entries were left out (--skip-guarded): 'g/one', 'g/two'",
        "vault: error: exported 1 entry and 0 journal entries to standard output; 2 entries were"
          + " left out (named above)",
      ])
    // With the PIN's own match too: the flag says to leave them out.
    box.biosim(["next", "match"])
    let withPIN = box.vaultPIN(["export", "--to", "jsonl", "--plaintext", "--skip-guarded", "g/"])
    XCTAssertEqual(withPIN.status, 5, withPIN.stderrText)
    XCTAssertEqual(withPIN.stdoutText, "")
  }
}
