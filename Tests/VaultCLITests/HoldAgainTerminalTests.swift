import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat

/// Issue "The agent as the one key holder": `passwd`, `biometry activate`, `recover` and `rekey`
/// end every hold and, on a terminal, hand the agent the vault afresh (`--no-hold` leaves it
/// locked; so does a run without a terminal); a one-off command that asked for the PIN on a
/// terminal says once that `vault unlock` asks once for every shell.
final class HoldAgainTerminalTests: XCTestCase {
  var box: Sandbox!

  override func setUpWithError() throws {
    try TestTier.requireSystem("a terminal and the agent")
    box = Sandbox()
  }

  override func tearDown() { box = nil }

  func drive(_ arguments: [String], _ script: [String]) throws -> TerminalTests.Run {
    try TerminalTests.drive(box, arguments, script: script)
  }

  var held: Bool { box.vault(["status", "--check"]).status == 0 }

  func testAPINChangeOnATerminalHoldsTheVaultAgain() throws {
    box.initPINOnly()
    let change = try drive(
      ["passwd"],
      [
        "expect PIN: ", "send \(Sandbox.pin)\\r", "expect New PIN: ", "send 13579246\\r",
        "expect Repeat the new PIN: ", "send 13579246\\r",
      ])
    XCTAssertEqual(change.status, 0, change.output)
    XCTAssertTrue(
      change.output.contains(
        "The agent holds \(box.vaultPath) again for every shell of yours: it locks after 15 min"
          + " without use (at most 8 h), or with 'vault lock'."), change.output)
    XCTAssertTrue(held, "held under the new PIN's unlock")
    XCTAssertEqual(box.vault(["lock"]).status, 0)
    let noHold = try drive(
      ["passwd", "--no-hold"],
      [
        "expect PIN: ", "send 13579246\\r", "expect New PIN: ", "send \(Sandbox.pin)\\r",
        "expect Repeat the new PIN: ", "send \(Sandbox.pin)\\r",
      ])
    XCTAssertEqual(noHold.status, 0, noHold.output)
    XCTAssertFalse(noHold.output.contains("The agent holds"), noHold.output)
    XCTAssertFalse(held)
  }

  func testWithoutATerminalItStaysLocked() {
    box.initPINOnly()
    XCTAssertEqual(box.vault(["unlock"], pin: [Sandbox.pin]).status, 0)
    let change = box.vault(["passwd"], pin: [Sandbox.pin, "13579246"])
    XCTAssertEqual(change.status, 0, change.stderrText)
    XCTAssertEqual(change.errorLines.first, "PIN changed; every session was revoked.")
    XCTAssertFalse(held, "the old hold ended and none came instead")
  }

  func testAnActivationOnATerminalHoldsTheVaultUnderTheNewSeal() throws {
    box.initBiometric()
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vault(["unlock"], pin: [Sandbox.pin]).status, 0)
    box.biosim(["enroll", "--label", "left-index"])
    // The enrollment changed: the next use disables biometric unlock; activate seals it again.
    XCTAssertEqual(box.vault(["list"]).status, 15)
    box.biosim(["next", "match"])
    let activate = try drive(["biometry", "activate"], ["expect PIN: ", "send \(Sandbox.pin)\\r"])
    XCTAssertEqual(activate.status, 0, activate.output)
    XCTAssertTrue(activate.output.contains("Biometric unlock activated"), activate.output)
    XCTAssertTrue(
      activate.output.contains("The agent holds \(box.vaultPath) again"), activate.output)
    XCTAssertTrue(held, "one round of PIN and match, not two")
  }

  func testAOneOffCommandSaysOnceThatUnlockAsksOnceForEveryShell() throws {
    box.initPINOnly()
    XCTAssertEqual(box.vaultPIN(["add", "x"], stdin: Array("v".utf8)).status, 0)
    let note =
      "vault: note: 'vault unlock' asks for the PIN once for every shell of yours, and the agent"
      + " holds the key until it locks (said once)"
    let first = try drive(["get", "x"], ["expect PIN: ", "send \(Sandbox.pin)\\r"])
    XCTAssertEqual(first.status, 0, first.output)
    XCTAssertTrue(first.output.contains(note), first.output)
    let second = try drive(["get", "x"], ["expect PIN: ", "send \(Sandbox.pin)\\r"])
    XCTAssertEqual(second.status, 0, second.output)
    XCTAssertFalse(second.output.contains("note:"), second.output)
    // A script's PIN from a descriptor is no terminal: nothing to say.
    XCTAssertEqual(box.vaultPIN(["get", "x"]).stderrText, "")
  }
}
