import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// Prompts that forgive a mistake, on a pseudo-terminal: a wrong PIN, a new PIN that differs or
/// is too short, a malformed recovery code are said and asked again, up to 3 times; a
/// shell-session unlock on a screen or that fails; `biosim reset`'s confirmation.
final class PromptCLITests: XCTestCase {
  var box: Sandbox!
  /// The recovery code `vault init` showed.
  var recoveryCode = ""

  override func setUp() {
    box = Sandbox()
    let created = box.vault(["init", "--kdf", "test", "--no-biometry"], pin: [Sandbox.pin])
    XCTAssertEqual(created.status, 0, created.stderrText)
    let lines = created.errorLines
    let heading = lines.firstIndex(of: Context.recoveryCodeHeading) ?? lines.count
    recoveryCode = heading + 1 < lines.count ? lines[heading + 1] : ""
    XCTAssertEqual(box.vaultPIN(["add", "a"], stdin: Array("v".utf8)).status, 0)
  }

  override func tearDown() { box = nil }

  func drive(_ arguments: [String], script: [String], program: String = "vault") throws
    -> TerminalTests.Run
  {
    let result = Subprocess.run(
      "/usr/bin/env",
      ["python3", "-c", TerminalTests.driver, Sandbox.binDirectory + "/" + program]
        + arguments,
      environment: box.environment, stdin: Array((script.joined(separator: "\n") + "\n").utf8))
    XCTAssertEqual(result.status, 0, result.stderrText)
    return try JSONDecoder().decode(TerminalTests.Run.self, from: Data(result.stdout))
  }

  var failures: Int? {
    (box.statusJSON()["pin"] as? [String: Any])?["consecutive_failures"] as? Int
  }

  func testAWrongPINIsAskedAgainAndEachIsCounted() throws {
    let run = try drive(
      ["get", "a"],
      script: [
        "expect PIN: ", "send 000000\\n", "expect try again", "expect PIN: ",
        "send \(Sandbox.pin)\\n", "expect v",
      ])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(
      run.output.contains("wrong PIN (4 attempts left before a delay); try again\r\nPIN: "),
      run.output.debugDescription)
    // The first PIN asked on a terminal with no agent holding the vault: said once.
    XCTAssertTrue(
      run.output.hasSuffix(
        "PIN: \r\nv\r\nvault: note: 'vault unlock' asks for the PIN once for every shell of"
          + " yours, and the agent holds the key until it locks (said once)\r\n"),
      run.output.debugDescription)
    XCTAssertEqual(failures, 0, "the right PIN resets the count")
  }

  /// New-user review: a PIN too short to be one is said and asked again at the terminal, and
  /// never tried (the attempt counter stays at 0); from --pin-fd it ends the command (exit 5).
  func testAPINTooShortIsAskedAgainWithoutBeingCounted() throws {
    let run = try drive(
      ["get", "a"],
      script: [
        "expect PIN: ", "send 12\\n", "expect try again", "expect PIN: ",
        "send \(Sandbox.pin)\\n", "expect v",
      ])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(
      run.output.contains("the PIN must have at least 4 characters; try again\r\nPIN: "),
      run.output.debugDescription)
    XCTAssertEqual(failures, 0)
    let fromDescriptor = box.vault(["get", "a"], pin: ["12", Sandbox.pin])
    XCTAssertEqual(fromDescriptor.status, 5, fromDescriptor.stderrText)
    XCTAssertEqual(
      fromDescriptor.errorLines, ["vault: error: the PIN must have at least 4 characters"])
  }

  func testThreeWrongPINsEndTheCommandWithExit11() throws {
    let run = try drive(
      ["get", "a"],
      script: [
        "expect PIN: ", "send 000000\\n", "expect try again", "send 000001\\n",
        "expect try again", "send 000002\\n",
      ])
    XCTAssertEqual(run.status, 11, run.output)
    XCTAssertEqual(run.output.components(separatedBy: "PIN: ").count - 1, 3, run.output)
    XCTAssertEqual(failures, 3, "every attempt is counted by the limiter")
  }

  func testAPINFromADescriptorIsNeverAskedAgain() {
    let result = box.vault(["get", "a"], pin: ["000000", Sandbox.pin])
    XCTAssertEqual(result.status, 11)
    XCTAssertEqual(failures, 1)
  }

  func testANewPINThatDiffersOrIsTooShortIsAskedAgain() throws {
    let run = try drive(
      ["passwd"],
      script: [
        "expect Current PIN: ", "send \(Sandbox.pin)\\n", "expect New PIN: ", "send 1234\\n",
        "expect New PIN: ", "send 1357911\\n", "expect Repeat", "send 1357912\\n",
        "expect New PIN: ", "send 1357911\\n", "expect Repeat", "send 1357911\\n",
        "expect changed",
      ])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(
      run.output.contains(
        "a new PIN needs at least 6 characters (the current PIN still unlocks)\r\nNew PIN: "),
      run.output)
    XCTAssertTrue(run.output.contains("the two PINs differ; try again\r\nNew PIN: "), run.output)
    XCTAssertEqual(box.vault(["get", "a"], pin: ["1357911"]).stdoutText, "v")
  }

  func testAMalformedRecoveryCodeIsAskedAgainBeforeAnyDerivation() throws {
    let run = try drive(
      ["recover"],
      script: [
        "expect Recovery code: ", "send abc\\n", "expect try again", "expect Recovery code: ",
        "send \(recoveryCode)\\n", "expect New PIN: ", "send 1357911\\n", "expect Repeat",
        "send 1357911\\n", "expect every session was revoked", "send 1357911\\n",
        "expect The agent holds",
      ])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(run.output.contains("try again\r\nRecovery code: "), run.output)
    // On a terminal the agent holds the vault once the new PIN unlocks it, as at an unlock.
    XCTAssertTrue(run.output.contains("The agent holds \(box.vaultPath) again"), run.output)
    XCTAssertEqual(box.vault(["get", "a"], pin: ["1357911"]).stdoutText, "v")
  }

  func testAShellSessionOnAScreenSaysHowInsteadOfAsking() throws {
    let run = try drive(["unlock", "--shell-session"], script: [])
    XCTAssertEqual(run.status, 64, run.output)
    XCTAssertEqual(
      run.output,
      "vault: error: --shell-session prints shell code for your shell to run, not for the screen:"
        + " eval \"$(vault unlock --shell-session)\" (or 'vault unlock' alone, for every shell)\r\n"
    )
  }

  func testAFailedShellSessionUnlockPrintsCodeThatFails() {
    let failed = box.vault(["unlock", "--shell-session"], pin: ["000000"])
    XCTAssertEqual(failed.status, 11)
    XCTAssertEqual(failed.stdoutText, "false\n")
    let chain = box.shell(
      #"eval "$(printf '000000\n' | vault unlock --shell-session --pin-fd 0)" && echo reached"#)
    XCTAssertEqual(chain.status, 1)
    XCTAssertEqual(chain.stdoutText, "")
    let raw = box.vault(["unlock", "--raw"], pin: ["000000"])
    XCTAssertEqual(raw.stdout, [], "--raw prints the token alone, or nothing")
  }

  func testBiosimResetOnATerminalAsksFirst() throws {
    let before = try String(
      contentsOfFile: box.folder.path + "/state/vault/device.json", encoding: .utf8)
    let declined = try drive(
      ["reset"], script: ["expect Type 'erase' to go on: ", "send no\\n"], program: "biosim")
    XCTAssertEqual(declined.status, 13, declined.output)
    XCTAssertTrue(declined.output.contains("biosim: error: cancelled: nothing was erased"))
    XCTAssertEqual(
      try String(contentsOfFile: box.folder.path + "/state/vault/device.json", encoding: .utf8),
      before)
    let yes = try drive(["reset", "--yes"], script: ["expect erased"], program: "biosim")
    XCTAssertEqual(yes.status, 0, yes.output)
    XCTAssertFalse(yes.output.contains("Type 'erase'"))
    XCTAssertEqual(box.vault(["get", "a"], pin: [Sandbox.pin]).status, 11, "a new device secret")
  }
}
