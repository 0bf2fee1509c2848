import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// The minimum scenarios of biometry.md section 8, each through the built binaries.
final class BiometricScenarioTests: XCTestCase {
  var box: Sandbox!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }

  override func setUp() { box = Sandbox() }

  func biometry() -> [String: Any] { box.statusJSON()["biometry"] as? [String: Any] ?? [:] }

  func add(_ name: String, _ content: String, guarded: Bool = false) {
    box.biosim(["next", "match"])
    let result = box.vaultPIN(
      ["add", name] + (guarded ? ["--guard"] : []), stdin: Array(content.utf8))
    XCTAssertEqual(result.status, 0, result.stderrText)
  }

  func assertRefusedWith15(reason: String, file: StaticString = #filePath, line: UInt = #line) {
    box.biosim(["next", "match"])
    let result = box.vaultPIN(["unlock"])
    XCTAssertEqual(result.status, 15, result.stderrText, file: file, line: line)
    XCTAssertEqual(result.stdout, [], file: file, line: line)
    // An emptied enrollment sends the user to enroll first, as the guarded screen it models does.
    let enroll = reason == "the enrollment was emptied" ? "enroll ('biosim enroll'), then " : ""
    XCTAssertEqual(
      result.errorLines.first,
      "vault: error: \(reason) since biometric unlock was activated; it is now disabled and every"
        + " session was revoked; \(enroll)run 'vault biometry activate'", file: file, line: line)
    XCTAssertEqual(biometry()["state"] as? String, "disabled", file: file, line: line)
    XCTAssertEqual(biometry()["reason"] as? String, reason, file: file, line: line)
    // Until re-activation, the PIN alone never unlocks.
    box.biosim(["next", "match"])
    let again = box.vaultPIN(["unlock"])
    XCTAssertEqual(again.status, 15, file: file, line: line)
    XCTAssertTrue(
      again.errorLines.first?.hasPrefix("vault: error: biometric unlock is disabled since ")
        ?? false,
      again.stderrText, file: file, line: line)
  }

  // 1
  func testMatchUnlocksAndIssuesASession() {
    box.environment["VAULT_TEST_BOOTCLOCK"] = "1000"
    box.initBiometric()
    XCTAssertEqual(biometry()["state"] as? String, "active")
    box.biosim(["next", "match"])
    let result = box.vaultPIN(["unlock", "--shell-session"])
    XCTAssertEqual(result.status, 0, result.stderrText)
    let output = result.stdoutText
    XCTAssertTrue(output.hasPrefix("export VAULT_SESSION="), output)
    let token = String(output.dropFirst("export VAULT_SESSION=".count).dropLast(2))
    XCTAssertTrue(box.isSessionToken(token), token)
    XCTAssertTrue(output.hasSuffix(";\n"))
    let session = box.statusJSON(env: ["VAULT_SESSION": token])["session"] as? [String: Any]
    XCTAssertEqual(session?["idle_seconds"] as? Int, 900)
    XCTAssertEqual(box.sensor()["queue"] as? [String], [])
  }

  // 2
  func testASecondEnrollmentDisablesBiometricUnlockAndRevokesSessions() {
    box.initBiometric()
    add("diary", "secret")
    let token = box.unlock()
    XCTAssertEqual(box.vault(["get", "diary"], env: ["VAULT_SESSION": token]).stdoutText, "secret")
    box.biosim(["enroll"])
    assertRefusedWith15(reason: "the biometric enrollment changed")
    let revoked = box.vault(["get", "diary"], env: ["VAULT_SESSION": token])
    XCTAssertEqual(revoked.status, 10)
    XCTAssertEqual(revoked.stdout, [])
    let text = box.vault(["status"]).stdoutText
    XCTAssertTrue(text.contains("biometric unlock: DISABLED since "), text)
    XCTAssertTrue(
      text.contains(": the biometric enrollment changed; run 'vault biometry activate'"))
  }

  // 3
  func testAnEmptiedEnrollmentDisablesBiometricUnlock() {
    box.initBiometric()
    box.biosim(["unenroll", "--all"])
    assertRefusedWith15(reason: "the enrollment was emptied")
  }

  // 4
  func testEnrollThenUnenrollStillCountsAsAChange() {
    box.initBiometric()
    box.biosim(["enroll", "--label", "temp"])
    box.biosim(["unenroll", "--label", "temp"])
    XCTAssertEqual((box.sensor()["enrolled"] as? [Any])?.count, 1)
    assertRefusedWith15(reason: "the biometric enrollment changed")
  }

  // 5
  func testAnOSUpgradeIsHandledLikeAChange() {
    box.initBiometric()
    box.biosim(["os-upgrade"])
    assertRefusedWith15(reason: "the biometric enrollment changed")
  }

  // 6
  func testAChangedBiometryTypeDisablesBiometricUnlock() {
    box.initBiometric()
    box.biosim(["hardware", "face-id"])
    box.biosim(["enroll"])
    assertRefusedWith15(reason: "the biometry type changed from touch-id to face-id")
  }

  // 7 and 8
  func testFailedMatchesThenLockoutThenThePINClearsIt() {
    box.biosim(["hardware", "face-id"])
    box.initBiometric()
    box.biosim(["next", "no-match", "--count", "2"])
    let first = box.vaultPIN(["unlock"])
    XCTAssertEqual(first.status, 12, first.stderrText)
    XCTAssertEqual(
      first.errorLines,
      [
        "vault: error: authentication failed (LAError -1): biometric not recognised (simulated sensor)"
      ])
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 2)

    box.biosim(["next", "no-match", "--count", "2"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 12)
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 4)
    box.biosim(["next", "no-match"])
    let locked = box.vaultPIN(["unlock"])
    XCTAssertEqual(locked.status, 14, locked.stderrText)
    XCTAssertEqual(
      locked.errorLines,
      [
        "vault: error: biometry lockout (LAError -8): the biometric sensor is locked out after"
          + " too many failed matches",
        "vault: hint: the lockout ends the next time the PIN is verified: run the command again,"
          + " and the match is asked after the PIN",
      ], "the PIN was just typed: the hint does not ask for it as if it had not been")
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, true)

    box.biosim(["next", "match"])
    let unlocked = box.vaultPIN(["unlock", "--raw"])
    XCTAssertEqual(unlocked.status, 0, unlocked.stderrText)
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, false)
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 0)
  }

  // 9
  func testCancelExits13AndChangesNoCounter() {
    box.initBiometric()
    box.biosim(["next", "cancel"])
    let result = box.vaultPIN(["unlock"])
    XCTAssertEqual(result.status, 13)
    XCTAssertEqual(
      result.errorLines,
      ["vault: error: user cancel (LAError -2): the biometric prompt was cancelled"])
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 0)
    let pin = box.statusJSON()["pin"] as? [String: Any]
    XCTAssertEqual(pin?["consecutive_failures"] as? Int, 0)
    box.biosim(["next", "system-cancel"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 13)
    box.biosim(["next", "timeout"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 13)
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 0)
  }

  // 10
  func testNoTerminalAndAnEmptyQueueExits10() {
    box.initBiometric()
    let result = box.vaultPIN(["unlock"])
    XCTAssertEqual(result.status, 10)
    XCTAssertEqual(result.stdout, [])
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: not interactive (LAError -1004): a biometric match is needed and there is no"
          + " terminal to ask on",
        "vault: hint: run it on a terminal, or queue the simulated sensor's answer: biosim next"
          + " match",
      ])
  }

  // 11
  func testReactivationIsTheWayBack() {
    box.initBiometric()
    box.biosim(["enroll"])
    assertRefusedWith15(reason: "the biometric enrollment changed")
    box.biosim(["next", "match"])
    let activated = box.vaultPIN(["biometry", "activate"])
    XCTAssertEqual(activated.status, 0, activated.stderrText)
    // assertRefusedWith15 queued a match its refused unlock never took: the note says so.
    XCTAssertEqual(activated.errorLines.count, 2, activated.stderrText)
    XCTAssertEqual(activated.errorLines.first, "Biometric unlock activated (simulated Touch ID).")
    let note = activated.errorLines.last ?? ""
    XCTAssertTrue(
      note.hasPrefix(
        "vault: note: 1 sensor answer queued with 'biosim next' is still waiting (match): the next"
          + " prompt takes it within 1"), note)
    XCTAssertTrue(note.hasSuffix(" s; 'biosim next --clear' drops it"), note)
    XCTAssertEqual(biometry()["state"] as? String, "active")
    XCTAssertTrue(box.isSessionToken(box.unlock()))
  }

  // 12
  func testActivationWithAWrongPINNeverPrompts() {
    box.biosim(["enroll"])
    box.initPINOnly()
    box.biosim(["next", "match"])
    let result = box.vault(["biometry", "activate"], pin: ["000000"])
    XCTAssertEqual(result.status, 11)
    XCTAssertEqual(box.sensor()["queue"] as? [String], ["match"])
    XCTAssertEqual(box.statusJSON()["policy"] as? String, "pin")
    XCTAssertEqual(biometry()["state"] as? String, "off")
  }

  // 13
  func testActivationWithoutAMatchSealsNothing() {
    box.biosim(["enroll"])
    box.vault(["init", "--kdf", "test"], pin: [Sandbox.pin])
    XCTAssertEqual(biometry()["state"] as? String, "not-activated")
    box.biosim(["next", "no-match"])
    let result = box.vaultPIN(["biometry", "activate"])
    XCTAssertEqual(result.status, 12, result.stderrText)
    XCTAssertEqual(biometry()["state"] as? String, "not-activated")
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 16)
  }

  // 14
  func testAGuardedReadDetectsAChangeInsideASession() {
    box.environment["VAULT_TEST_BOOTCLOCK"] = "1000"
    box.initBiometric()
    add("bank", "4242", guarded: true)
    add("plain", "hello")
    let token = box.unlock()
    box.biosim(["next", "match"])
    let ok = box.vault(["get", "bank"], env: ["VAULT_SESSION": token])
    XCTAssertEqual(ok.stdoutText, "4242", ok.stderrText)
    box.biosim(["enroll"])
    box.biosim(["next", "match"])
    box.environment["VAULT_TEST_BOOTCLOCK"] = "1002"
    let changed = box.vault(["get", "bank"], env: ["VAULT_SESSION": token])
    XCTAssertEqual(changed.status, 15, changed.stderrText)
    XCTAssertEqual(changed.stdout, [])
    let later = box.vault(["get", "plain"], env: ["VAULT_SESSION": token])
    XCTAssertEqual(later.status, 10)
    XCTAssertEqual(later.stdout, [])
  }

  // 15
  func testFiveWrongPINsThenTheSixthWaits() {
    box.initPINOnly()
    for attempt in 1...5 {
      let result = box.vault(["list"], pin: ["000\(attempt)"])
      XCTAssertEqual(result.status, 11)
      XCTAssertEqual(result.stdout, [])
    }
    let sixth = box.vaultPIN(["list"])
    XCTAssertEqual(sixth.status, 14)
    XCTAssertEqual(sixth.errorLines, ["vault: error: too many wrong PINs; try again in 1 min"])
    let pin = box.statusJSON()["pin"] as? [String: Any]
    XCTAssertEqual(pin?["consecutive_failures"] as? Int, 5)
    XCTAssertTrue((57...60).contains(pin?["delay_seconds"] as? Int ?? 0))
  }

  // 16
  func testAPINOnlyVaultUnlocksWithoutAPrompt() {
    box.biosim(["enroll"])
    box.initPINOnly()
    box.biosim(["next", "match"])
    let result = box.vaultPIN(["unlock", "--raw"])
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(box.sensor()["queue"] as? [String], ["match"])
    XCTAssertTrue(
      box.vault(["status"]).stdoutText.contains("policy:           PIN only (no biometric check)\n")
    )
  }
}

/// What the vault knows without a key is said before any PIN is read: no attempt is counted.
final class RefusalsBeforeThePINTests: XCTestCase {
  var box: Sandbox!

  override func setUp() { box = Sandbox() }
  override func tearDown() { box = nil }

  func pinFailures() -> Int? {
    (box.statusJSON()["pin"] as? [String: Any])?["consecutive_failures"] as? Int
  }

  func testADisabledVaultRefusesBeforeThePIN() {
    box.initBiometric()
    box.biosim(["enroll"])
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 15)
    // A wrong PIN now is never checked: the refusal comes first and counts nothing.
    let refused = box.vault(["unlock"], pin: ["000000"])
    XCTAssertEqual(refused.status, 15)
    XCTAssertTrue(
      refused.errorLines.first?.hasPrefix("vault: error: biometric unlock is disabled since ")
        ?? false, refused.stderrText)
    XCTAssertEqual(pinFailures(), 0)
  }

  func testAnEmptiedEnrollmentIsRefusedBeforeThePINAndDisablesAtOnce() {
    box.initBiometric()
    let token = box.unlock()
    box.biosim(["unenroll", "--all"])
    let refused = box.vault(["list"], pin: ["000000"])
    XCTAssertEqual(refused.status, 15)
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: the enrollment was emptied since biometric unlock was activated; it is now"
          + " disabled and every session was revoked; enroll ('biosim enroll'), then run 'vault biometry activate'"
      ])
    XCTAssertEqual(pinFailures(), 0)
    XCTAssertEqual(box.vault(["list"], env: ["VAULT_SESSION": token]).status, 10)
    let biometry = box.statusJSON()["biometry"] as? [String: Any]
    XCTAssertEqual(biometry?["state"] as? String, "disabled")
    XCTAssertEqual(biometry?["reason"] as? String, "the enrollment was emptied")
    // Enroll and re-activate: the way back.
    box.biosim(["enroll"])
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["biometry", "activate"]).status, 0)
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 0)
  }

  func testAnActivationWithNothingEnrolledIsRefusedBeforeThePIN() {
    box.initPINOnly()
    let refused = box.vault(["biometry", "activate"], pin: ["000000"])
    XCTAssertEqual(refused.status, 16)
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: biometry not enrolled (LAError -7): no finger or face is enrolled on the"
          + " sensor; run 'biosim enroll'"
      ])
    XCTAssertEqual(pinFailures(), 0)
  }
}

/// What the access review found: an edited header is reported as an edit, a correct PIN is never
/// counted as wrong, the device-side record takes no foreign text, a re-activation ends the
/// sessions of the old binding, and the journal trusts only a key this device authenticated.
final class AccessReviewTests: XCTestCase {
  var box: Sandbox!

  override func setUp() { box = Sandbox() }
  override func tearDown() { box = nil }

  func pinFailures() -> Int? {
    (box.statusJSON()["pin"] as? [String: Any])?["consecutive_failures"] as? Int
  }

  func testAnEditedHeaderWithTheRightPINIsAnEditNeverAWrongPIN() {
    box.initBiometric()
    box.editHeader { $0["policy"] = "pin" }
    for _ in 0..<6 {
      let result = box.vaultPIN(["list"])
      XCTAssertEqual(result.status, 17, result.stderrText)
    }
    XCTAssertEqual(pinFailures(), 0)
  }

  func testEditedBiometryFieldsAreAnEditNotADisable() {
    box.initBiometric()
    box.editHeader {
      var devices = $0["devices"] as? [[String: Any]] ?? []
      devices[0]["biometry"] = [
        "state": "disabled", "changed_at": "2026-01-01T00:00:00Z",
        "reason": "the biometric enrollment changed",
      ]
      $0["devices"] = devices
    }
    let result = box.vaultPIN(["list"])
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: integrity failure: the vault header failed authentication (the file was edited)"
      ])
  }

  func testAPendingDisableWithForeignTextIsACorruptState() throws {
    box.initBiometric()
    let path = box.home + "/state/vault/device.json"
    var state = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any])
    let id = try XCTUnwrap((state["journal_keys"] as? [String: Any])?.keys.first)
    state["pending_disables"] = [id: ["reason": "\u{1b}[2Jpwned", "at": "not-a-time"]]
    try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: path))
    let status = box.vault(["status"])
    XCTAssertEqual(status.status, 17)
    XCTAssertEqual(
      status.errorLines, ["vault: error: integrity failure: the device state \(path) is corrupt"])
  }

  func testAReActivationRevokesTheSessionsOfTheOldBinding() {
    box.initBiometric()
    let token = box.unlock()
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["biometry", "activate"]).status, 0)
    XCTAssertEqual(box.vault(["list"], env: ["VAULT_SESSION": token]).status, 10)
  }

  func testTheJournalTrustsNoKeyThisDeviceNeverAuthenticated() {
    box.initPINOnly()
    box.editHeader { $0["vault_id"] = Data(repeating: 5, count: 16).base64EncodedString() }
    let write = box.vault(["journal"], stdin: Array("secret diary\n".utf8))
    XCTAssertEqual(write.status, 10, write.stderrText)
    XCTAssertEqual(
      write.errorLines,
      [
        "vault: error: this device has never unlocked this vault, so its journal key is not"
          + " trusted; nothing was written",
        "vault: hint: unlock it once: vault unlock",
      ])
  }
}
