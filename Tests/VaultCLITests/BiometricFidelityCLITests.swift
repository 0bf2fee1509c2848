import Foundation
import VaultFormat
import XCTest

/// The platform behaviours of release 0.9.0 through the built binaries: answers that expire,
/// the device passcode, the fallback button and the other outcomes, removable sensors, the
/// reuse window, the Android profile, enrollment limits, the vault's own lockout rule, and a
/// status that tells what it knows without the key.
final class BiometricFidelityCLITests: XCTestCase {
  var box: Sandbox!

  override func setUp() {
    box = Sandbox(extra: ["VAULT_TEST_BOOTCLOCK": "1000"])
  }

  override func tearDown() { box = nil }

  func at(_ boot: Int) -> [String: String] { ["VAULT_TEST_BOOTCLOCK": "\(boot)"] }

  func biometry(env: [String: String] = [:]) -> [String: Any] {
    let out = box.vault(["biometry", "status", "--json"], env: env).stdout
    return (try? JSONSerialization.jsonObject(with: Data(out)) as? [String: Any]) ?? [:]
  }

  // MARK: - Queued answers

  func testAnAnswerLeftByAFailedCommandIsReportedAndExpires() {
    box.initBiometric()
    box.biosim(["next", "match"])
    let wrong = box.vault(["unlock"], pin: ["999999"])
    XCTAssertEqual(wrong.status, 11)
    XCTAssertEqual(
      wrong.errorLines,
      [
        "vault: error: wrong PIN (4 attempts left before a delay)",
        "vault: note: 1 sensor answer queued with 'biosim next' is still waiting (match): the next"
          + " prompt takes it within 120 s; 'biosim next --clear' drops it",
      ])
    XCTAssertEqual(box.sensor()["queue_seconds_left"] as? [Int], [120])
    // 121 s later it answers nothing: the activation's no-match is the one taken.
    XCTAssertEqual(box.sensor(env: at(1121))["queue"] as? [String], [])
    box.biosim(["next", "no-match"], env: at(1121))
    let unlock = box.vaultPIN(["unlock"], env: at(1121))
    XCTAssertEqual(unlock.status, 12, unlock.stderrText)
    XCTAssertEqual(box.sensor(env: at(1121))["consecutive_failures"] as? Int, 1)
  }

  func testCompletionNeverPrintsTheNote() {
    box.initBiometric()
    let env = ["VAULT_SESSION": box.unlock()]
    XCTAssertEqual(box.vault(["add", "mail"], stdin: Array("pw".utf8), env: env).status, 0)
    box.biosim(["next", "match"])
    let names = box.vault(["__complete"], env: env)
    XCTAssertEqual(names.stdoutText, "mail\n")
    XCTAssertEqual(names.stderr, [], "a completion prints nothing on stderr")
    let listed = box.vault(["list"], env: env)
    XCTAssertEqual(listed.stdoutText, "mail\n")
    XCTAssertEqual(listed.errorLines.count, 1, "the session's check asked the sensor")
  }

  func testNextClearDropsTheQueue() {
    box.biosim(["next", "match", "--count", "2"])
    let cleared = box.biosim(["next", "--clear"])
    XCTAssertEqual(cleared.status, 0)
    XCTAssertEqual(cleared.stderrText, "Dropped 2 queued answers.\n")
    XCTAssertEqual(box.sensor()["queue"] as? [String], [])
    XCTAssertEqual(box.biosim(["next", "--clear"]).stderrText, "No answer was queued.\n")
    let both = box.biosim(["next", "--clear", "match"])
    XCTAssertEqual(both.status, 64)
    XCTAssertEqual(both.errorLines.first, "biosim: error: --clear takes no OUTCOME and no --count")
    let neither = box.biosim(["next"])
    XCTAssertEqual(neither.status, 64)
    XCTAssertEqual(neither.errorLines.first, "biosim: error: say which answer to queue, or --clear")
  }

  func testStatusShowsHowLongEachAnswerWaits() {
    box.biosim(["next", "match"])
    box.biosim(["next", "no-match"], env: at(1030))
    let text = box.biosim(["status"], env: at(1040)).stdoutText
    XCTAssertTrue(text.contains("queue:         match (80 s left), no-match (110 s left)\n"), text)
    XCTAssertTrue(text.contains("passcode:      set\n"), text)
    XCTAssertTrue(text.contains("profile:       apple\n"), text)
  }

  // MARK: - Device passcode

  func testNoPasscodeIsPasscodeNotSetAndItsRemovalDisablesTheActivation() {
    box.initBiometric()
    XCTAssertEqual(box.biosim(["passcode", "clear", "--keep-enrollment"]).status, 0)
    box.biosim(["next", "match"])
    let refused = box.vaultPIN(["unlock"])
    XCTAssertEqual(refused.status, 16, refused.stderrText)
    XCTAssertEqual(
      refused.errorLines.prefix(2),
      [
        "vault: error: passcode not set (LAError -5): biometry needs a device passcode, and none"
          + " is set (simulated)",
        "vault: hint: set one with: biosim passcode set",
      ])
    var status = biometry()
    XCTAssertEqual(status["preflight"] as? String, "passcodeNotSet")
    XCTAssertEqual(status["preflight_code"] as? Int, -5)
    XCTAssertEqual(status["passcode_removed"] as? Bool, true)
    // The unlock above was refused before the PIN (review of 0.11.0, item 11).
    XCTAssertTrue(
      box.vault(["status"]).stdoutText.contains(
        "but the device passcode was removed since; an unlock is refused now (exit 16, passcode"
          + " not set) and changes nothing; the first one the sensor allows disables biometric"
          + " unlock\n"))
    // With a passcode again, the keychain item the activation stored is still gone.
    XCTAssertEqual(box.biosim(["passcode", "set"]).status, 0)
    XCTAssertTrue(
      box.vault(["status"]).stdoutText.contains(
        "but the device passcode was removed since; biometric unlock will be disabled at the next"
          + " unlock\n"))
    let disabled = box.vaultPIN(["unlock"])
    XCTAssertEqual(disabled.status, 15, disabled.stderrText)
    XCTAssertEqual(
      disabled.errorLines.first,
      "vault: error: the device passcode was removed (the keychain item bound to it is gone)"
        + " since biometric unlock was activated; it is now disabled and every session was"
        + " revoked; run 'vault biometry activate'")
    status = biometry()
    XCTAssertEqual(status["state"] as? String, "disabled")
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["biometry", "activate"]).status, 0)
    XCTAssertTrue(box.isSessionToken(box.unlock()))
  }

  /// A device state written before release 0.9.0 has no keychain: its items count as present
  /// while a passcode is set, so it never reads as a removed passcode (new-user review).
  func testAnOlderDeviceStateIsNotARemovedPasscode() throws {
    box.initBiometric()
    let path = box.home + "/state/vault/device.json"
    var state = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any])
    var sensor = try XCTUnwrap(state["sensor"] as? [String: Any])
    for key in ["keychain", "boot_id", "passcode_set", "external", "profile", "queued_at"] {
      sensor[key] = nil
    }
    sensor["queue"] = [String]()
    state["sensor"] = sensor
    try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: path))
    XCTAssertEqual(biometry()["passcode_removed"] as? Bool, false)
    XCTAssertFalse(box.vault(["status"]).stdoutText.contains("passcode was removed"))
    XCTAssertTrue(box.isSessionToken(box.unlock()))
    XCTAssertEqual(biometry()["state"] as? String, "active")
    // Removing the passcode now still disables it.
    XCTAssertEqual(box.biosim(["passcode", "clear", "--keep-enrollment"]).status, 0)
    XCTAssertEqual(box.biosim(["passcode", "set"]).status, 0)
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 15)
  }

  /// Findings of the new-user review: a queued value no control writes is a corrupt state for
  /// biosim status as for an evaluation; widening the reuse window needs a fresh match; an init
  /// without a passcode says what to do first.
  func testReviewFindingsOnCorruptQueuesTheReuseSettingAndInitHints() throws {
    box.biosim(["enroll", "--label", "x"])
    XCTAssertEqual(box.biosim(["passcode", "clear", "--keep-enrollment"]).status, 0)
    let created = box.vault(["init", "--kdf", "test"], pin: [Sandbox.pin])
    XCTAssertEqual(created.status, 16, created.stderrText)
    XCTAssertEqual(
      created.errorLines.last,
      "vault: hint: set one with: biosim passcode set, then run 'vault biometry activate'")
    XCTAssertEqual(box.biosim(["passcode", "set"]).status, 0)
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["biometry", "activate"]).status, 0)
    // A success by reuse unlocks, but never widens the window.
    XCTAssertEqual(box.biosim(["next", "match"]).status, 0)
    XCTAssertEqual(
      box.vaultPIN(["settings", "biometric_reuse_seconds", "60"]).status, 0)
    XCTAssertEqual(box.biosim(["unlock-device"]).status, 0)
    let widened = box.vaultPIN(["settings", "biometric_reuse_seconds", "300"])
    XCTAssertEqual(widened.status, 10, widened.stderrText)
    XCTAssertEqual(box.vaultPIN(["settings", "biometric_reuse_seconds"]).stdoutText, "60\n")
    // The corrupt queue.
    let path = box.home + "/state/vault/device.json"
    var state = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any])
    var sensor = try XCTUnwrap(state["sensor"] as? [String: Any])
    sensor["queue"] = ["bogus"]
    sensor["queued_at"] = [1000.0]
    state["sensor"] = sensor
    try JSONSerialization.data(withJSONObject: state).write(to: URL(fileURLWithPath: path))
    let status = box.biosim(["status"])
    XCTAssertEqual(status.status, 17, status.stderrText)
    XCTAssertEqual(
      status.stderrText,
      "biosim: error: integrity failure: the simulated sensor's queue holds an unknown outcome"
        + " \"bogus\"\n")
  }

  /// Review of 0.11.0, item 12: a cleared passcode (which wipes the enrollment) was recorded as
  /// "the enrollment was emptied" while `vault status` said the passcode was removed, and the
  /// message sent the user to `biosim enroll`, which biosim refuses without a passcode.
  func testAClearedPasscodeIsNamedAsTheReasonAndInTheSteps() throws {
    box.initBiometric()
    XCTAssertEqual(box.biosim(["passcode", "clear"]).status, 0)
    let removed = "the device passcode was removed (the keychain item bound to it is gone)"
    let unlock = box.vaultPIN(["unlock"])
    XCTAssertEqual(unlock.status, 15, unlock.stderrText)
    XCTAssertEqual(
      unlock.errorLines,
      [
        "vault: error: \(removed) since biometric unlock was activated; it is now disabled and"
          + " every session was revoked; set a passcode ('biosim passcode set'), enroll ('biosim"
          + " enroll'), then run 'vault biometry activate'"
      ])
    XCTAssertEqual(biometry()["reason"] as? String, removed)
    let since = try XCTUnwrap(biometry()["since"] as? String)
    XCTAssertEqual(
      biometricUnlockLine(),
      "biometric unlock: DISABLED since \(since): \(removed); set a passcode ('biosim passcode"
        + " set'), enroll ('biosim enroll'), then run 'vault biometry activate'")
    let early = box.vaultPIN(["biometry", "activate"])
    XCTAssertEqual(early.status, 16, early.stderrText)
    XCTAssertEqual(
      early.errorLines,
      [
        "vault: error: biometry not enrolled (LAError -7): no finger or face is enrolled on the"
          + " sensor; set a passcode ('biosim passcode set'), then run 'biosim enroll'"
      ])
    // Each step the words give works, and the steps shrink as they are taken.
    XCTAssertEqual(box.biosim(["passcode", "set"]).status, 0)
    XCTAssertEqual(
      biometricUnlockLine(),
      "biometric unlock: DISABLED since \(since): \(removed); enroll ('biosim enroll'), then run"
        + " 'vault biometry activate'")
    XCTAssertEqual(box.biosim(["enroll"]).status, 0)
    XCTAssertEqual(
      biometricUnlockLine(),
      "biometric unlock: DISABLED since \(since): \(removed); run 'vault biometry activate'")
    box.biosim(["next", "match"])
    let activated = box.vaultPIN(["biometry", "activate"])
    XCTAssertEqual(activated.status, 0, activated.stderrText)
    XCTAssertTrue(box.isSessionToken(box.unlock()))
  }

  func testClearingThePasscodeWipesTheEnrollment() {
    box.initBiometric()
    let cleared = box.biosim(["passcode", "clear"])
    XCTAssertEqual(
      cleared.stderrText,
      "The passcode was removed: biometry cannot be used without one, and every keychain item"
        + " bound to it is gone; the enrollment was wiped.\n")
    XCTAssertEqual((box.sensor()["enrolled"] as? [Any])?.count, 0)
    XCTAssertEqual(box.vault(["unlock"]).status, 15, "an emptied enrollment, before the PIN")
    let enroll = box.biosim(["enroll"])
    XCTAssertEqual(enroll.status, 5)
    XCTAssertEqual(
      enroll.errorLines,
      ["biosim: error: enrolling needs a device passcode; set one with `biosim passcode set`"])
  }

  // MARK: - Outcomes

  func testTheFallbackButtonIsItsOwnOutcome() {
    box.initBiometric()
    box.biosim(["next", "no-match"])
    box.biosim(["next", "fallback"])
    let fallback = box.vaultPIN(["unlock"])
    XCTAssertEqual(fallback.status, 20, fallback.stderrText)
    XCTAssertEqual(
      fallback.errorLines,
      [
        "vault: error: user fallback (LAError -3): the fallback button was chosen; vault has no"
          + " PIN-only path, so a match is still needed",
        "vault: hint: run the command again and present a matching finger, face or iris",
      ])
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 1)
    // Before any failure the button is not there: a script error, and the answer is dropped.
    box.biosim(["next", "fallback"])
    box.biosim(["next", "match"])
    let early = box.vaultPIN(["unlock"])
    XCTAssertEqual(early.status, 64, early.stderrText)
    XCTAssertEqual(
      early.errorLines.first,
      "vault: error: simulated sensor script: the queued answer 'fallback' cannot answer this"
        + " prompt: the fallback button shows only after a failed match (Touch ID one, Face ID"
        + " and Optic ID two); it was dropped")
    XCTAssertEqual(box.sensor()["queue"] as? [String], ["match"])
  }

  func testRetriesAppCancelAndSystemCancel() {
    box.initBiometric()
    box.biosim(["next", "retry", "--count", "3"])
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 0)
    for (answer, line) in [
      (
        "app-cancel",
        "app cancel (LAError -9): the prompt was ended by vault, or timed out waiting"
          + " for the sensor"
      ),
      (
        "timeout",
        "app cancel (LAError -9): the prompt was ended by vault, or timed out waiting"
          + " for the sensor"
      ),
      ("system-cancel", "system cancel (LAError -4): the system interrupted the biometric prompt"),
    ] {
      box.biosim(["next", answer])
      let result = box.vaultPIN(["unlock", "--force"])
      XCTAssertEqual(result.status, 13, answer)
      XCTAssertEqual(result.errorLines, ["vault: error: " + line], answer)
    }
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 0)
  }

  func testOnlyARemovableSensorCanBeDisconnectedOrNotPaired() {
    box.initBiometric()
    let builtIn = box.biosim(["availability", "not-paired"])
    XCTAssertEqual(builtIn.status, 5)
    XCTAssertEqual(
      builtIn.errorLines,
      [
        "biosim: error: only a removable sensor can be not-paired; choose one with"
          + " `biosim hardware TYPE --external`"
      ])
    XCTAssertEqual(box.biosim(["hardware", "touch-id", "--external"]).status, 0)
    XCTAssertEqual(box.sensor()["external"] as? Bool, true)
    XCTAssertEqual((box.sensor()["enrolled"] as? [Any])?.count, 1, "same type: kept")
    for (state, line) in [
      ("not-paired", "biometry not paired (LAError -12): no biometric accessory is paired"),
      ("disconnected", "biometry disconnected (LAError -13): the biometric sensor is disconnected"),
    ] {
      XCTAssertEqual(box.biosim(["availability", state]).status, 0)
      let refused = box.vaultPIN(["unlock"])
      XCTAssertEqual(refused.status, 16, state)
      XCTAssertEqual(refused.errorLines, ["vault: error: " + line + " (simulated)"], state)
    }
    box.biosim(["availability", "available"])
    XCTAssertTrue(box.isSessionToken(box.unlock()))
  }

  func testNoHardwareAndADisabledSensorAreBiometryNotAvailable() {
    box.initBiometric()
    for control in [["availability", "unavailable"], ["hardware", "none"]] {
      XCTAssertEqual(box.biosim(control).status, 0)
      let refused = box.vault(["unlock"])
      XCTAssertEqual(refused.status, 16, control.joined(separator: " "))
      XCTAssertEqual(
        refused.errorLines,
        [
          "vault: error: biometry not available (LAError -6): no biometric sensor is available"
            + " (simulated)"
        ], control.joined(separator: " "))
      XCTAssertEqual(biometry()["preflight"] as? String, "biometryNotAvailable")
      XCTAssertEqual(biometry()["preflight_code"] as? Int, -6)
      box.biosim(["availability", "available"])
    }
    XCTAssertEqual(biometry()["biometry_type"] as? String, "none")
  }

  /// The `biometric unlock:` line of `vault status`.
  func biometricUnlockLine() -> String? {
    box.vault(["status"]).stdoutText.split(separator: "\n")
      .first { $0.hasPrefix("biometric unlock:") }.map(String.init)
  }

  /// Review of 0.11.0, item 11: after `biosim hardware none`, `vault status` said biometric
  /// unlock "will be disabled at the next unlock", yet that unlock exits 16 and leaves it active.
  func testStatusSaysWhatTheNextUnlockDoesWithoutASensor() throws {
    box.initBiometric()
    let since = try XCTUnwrap(biometry()["since"] as? String)
    XCTAssertEqual(box.biosim(["hardware", "none"]).status, 0)
    let refusing =
      "biometric unlock: active since \(since), but the enrollment changed since activation; an"
      + " unlock is refused now (exit 16, biometry not available) and changes nothing; the first"
      + " one the sensor allows disables biometric unlock"
    XCTAssertEqual(biometricUnlockLine(), refusing)
    let refused = box.vaultPIN(["unlock"])
    XCTAssertEqual(refused.status, 16, refused.stderrText)
    XCTAssertEqual(biometry()["state"] as? String, "active")
    XCTAssertEqual(biometricUnlockLine(), refusing)
    // A sensor again, with nothing enrolled: the next unlock disables it, as status says.
    XCTAssertEqual(box.biosim(["hardware", "touch-id"]).status, 0)
    XCTAssertEqual(
      biometricUnlockLine(),
      "biometric unlock: active since \(since), but the enrollment changed since activation;"
        + " biometric unlock will be disabled at the next unlock")
    let disabled = box.vaultPIN(["unlock"])
    XCTAssertEqual(disabled.status, 15, disabled.stderrText)
    XCTAssertEqual(biometry()["state"] as? String, "disabled")
  }

  // MARK: - Reuse window

  func testARecentDeviceUnlockStandsInForTheMatchOfAnUnlockOnly() {
    box.initBiometric()
    box.biosim(["next", "match"])
    let set = box.vaultPIN(["settings", "biometric_reuse_seconds", "60"])
    XCTAssertEqual(set.status, 0, set.stderrText)
    XCTAssertEqual(box.vaultPIN(["settings", "biometric_reuse_seconds", "301"]).status, 5)
    XCTAssertEqual(box.biosim(["unlock-device"], env: at(1000)).status, 0)
    let reused = box.vaultPIN(["unlock", "--raw"], env: at(1060))
    XCTAssertEqual(reused.status, 0, reused.stderrText)
    let late = box.vaultPIN(["unlock", "--raw"], env: at(1061))
    XCTAssertEqual(late.status, 10, "61 s: a match is asked, and there is no terminal")
    // Never for an activation or a guarded read.
    box.biosim(["unlock-device"], env: at(2000))
    XCTAssertEqual(box.vaultPIN(["biometry", "activate"], env: at(2001)).status, 10)
    XCTAssertEqual(
      box.vaultPIN(["add", "--guard", "bank"], stdin: Array("4242".utf8), env: at(2002)).status, 0)
    XCTAssertEqual(box.vaultPIN(["get", "bank"], env: at(2003)).status, 10)
    // The preflight's domain state is compared: an enrollment change is still found.
    box.biosim(["enroll"], env: at(3000))
    box.biosim(["unlock-device"], env: at(3000))
    let changed = box.vaultPIN(["unlock", "--raw"], env: at(3001))
    XCTAssertEqual(changed.status, 15, changed.stderrText)
  }

  // MARK: - Lockout

  func testTheAndroidProfileLocksFor30Seconds() {
    box.biosim(["hardware", "face-id"])
    box.initBiometric()
    XCTAssertEqual(box.biosim(["profile", "android"]).status, 0)
    box.biosim(["next", "no-match", "--count", "2"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 12)
    box.biosim(["next", "no-match", "--count", "2"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 12)
    box.biosim(["next", "no-match"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 14, "the fifth")
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, true)
    XCTAssertEqual(box.sensor()["lockout_seconds_left"] as? Int, 30)
    XCTAssertTrue(
      box.biosim(["status"], env: at(1010)).stdoutText.contains(
        "lockout:       yes, 20 s left (or the PIN) (5 consecutive failures)\n"))
    XCTAssertEqual(box.sensor(env: at(1030))["locked_out"] as? Bool, false)
    // The PIN ends it at once as well.
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 0)
    box.biosim(["force-lockout"])
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 20)
    XCTAssertTrue(box.biosim(["status"]).stdoutText.contains("lockout:       yes, until the PIN"))
  }

  func testThePINEndsALockoutButNotAPartialCount() {
    box.biosim(["hardware", "face-id"])
    box.initBiometric()
    box.biosim(["next", "no-match", "--count", "2"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 12)
    box.biosim(["next", "no-match", "--count", "2"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 12)
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 4)
    box.biosim(["next", "cancel"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 13)
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 4, "the PIN kept the count")
    let passcode = box.biosim(["credential-verified"])
    XCTAssertEqual(passcode.stderrText, "The passcode was entered.\n")
    XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 0, "the lock screen resets it")
  }

  func testFifteenFailedMatchesInADayNeedTheRecoveryCode() {
    box.biosim(["enroll"])
    box.biosim(["next", "match"])
    let code = box.vault(["init", "--kdf", "test"], pin: [Sandbox.pin]).errorLines[2]
    let token = box.unlock()
    // Touch ID: 3 attempts a prompt, a lockout at 5 that the PIN ends.
    let expected = [12, 14, 12, 14, 12]
    for (round, status) in expected.enumerated() {
      box.biosim(["next", "no-match", "--count", "3"])
      let result = box.vaultPIN(["unlock", "--force"])
      XCTAssertEqual(result.status, Int32(status), "round \(round): \(result.stderrText)")
      box.biosim(["next", "--clear"])
    }
    XCTAssertEqual(biometry()["failed_matches_24h"] as? Int, 13)
    XCTAssertTrue(
      box.vault(["status"]).stdoutText.contains(
        "vault lockout:    13 of 15 failed matches within 24 h before the recovery code is needed"))
    box.biosim(["next", "no-match", "--count", "3"])
    let escalated = box.vaultPIN(["unlock", "--force"])
    XCTAssertEqual(escalated.status, 14, escalated.stderrText)
    let refusal = [
      "vault: error: biometry lockout (LAError -8): 15 failed matches within 24 hours for this"
        + " vault (3 lockouts), so the PIN no longer clears the lockout",
      "vault: hint: run 'vault recover' with the recovery code; it sets a new PIN too, as someone"
        + " may know this one",
    ]
    XCTAssertEqual(Array(escalated.errorLines.prefix(2)), refusal)
    XCTAssertEqual(biometry()["recovery_required"] as? Bool, true)
    // Refused before the PIN from now on, and the session is gone.
    let again = box.vault(["unlock", "--force"])
    XCTAssertEqual(again.status, 14)
    XCTAssertEqual(Array(again.errorLines.prefix(2)), refusal)
    let status = box.vault(["status"]).stdoutText.split(separator: "\n").map(String.init)
    // Issue "A first week without friction": one line says that only the recovery code helps,
    // and none offers the PIN.
    XCTAssertEqual(
      status.filter { $0.contains("lockout") },
      [
        "sensor check:     biometry lockout (LAError -8)",
        "sensor lockout:   yes (5 consecutive failed matches)",
        "vault lockout:    only the recovery code helps now: run 'vault recover' (15 failed"
          + " matches within 24 h; the PIN no longer ends the lockout)",
      ])
    XCTAssertEqual(box.vault(["list"], env: ["VAULT_SESSION": token]).status, 10)
    // The recovery code ends it (and sets a new PIN).
    box.biosim(["next", "--clear"])
    box.biosim(["next", "match"])
    let recovered = box.vault(["recover"], pin: [code, "135791"])
    XCTAssertEqual(recovered.status, 0, recovered.stderrText)
    XCTAssertEqual(biometry()["recovery_required"] as? Bool, false)
    XCTAssertEqual(biometry()["failed_matches_24h"] as? Int, 0)
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, false)
    box.biosim(["next", "--clear"])
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vault(["unlock", "--raw"], pin: ["135791"]).status, 0)
  }

  /// Attack review: a failed match answered in a prompt opened earlier (or with the clock set
  /// back) is counted, and erases none of the failures recorded since.
  func testALateOrEarlierStampedFailureStillCounts() {
    box.initBiometric()
    let now = Int(Date().timeIntervalSince1970)
    let later = ["VAULT_TEST_WALLCLOCK": "\(now)"]
    for _ in 0..<14 {
      box.biosim(["next", "no-match"])
      box.vaultPIN(["unlock", "--force"], env: later)
      box.biosim(["next", "--clear"])
    }
    XCTAssertEqual(biometry(env: later)["failed_matches_24h"] as? Int, 14)
    box.biosim(["next", "no-match"])
    let earlier = box.vaultPIN(["unlock", "--force"], env: ["VAULT_TEST_WALLCLOCK": "\(now - 60)"])
    XCTAssertEqual(earlier.status, 14, earlier.stderrText)
    XCTAssertEqual(biometry(env: later)["failed_matches_24h"] as? Int, 15)
    XCTAssertEqual(biometry(env: later)["recovery_required"] as? Bool, true)
  }

  /// Attack review: once the 15th failure is recorded, a match later in the same prompt
  /// releases nothing (the sensor's own count had been cleared by `credential-verified`).
  func testAMatchAfterTheFifteenthFailureReleasesNothing() {
    box.initBiometric()
    for _ in 0..<14 {
      box.biosim(["next", "no-match"])
      box.vaultPIN(["unlock", "--force"])
      box.biosim(["next", "--clear"])
    }
    XCTAssertEqual(box.biosim(["credential-verified"]).status, 0)
    box.biosim(["next", "no-match"])
    box.biosim(["next", "match"])
    let result = box.vaultPIN(["unlock", "--force"])
    XCTAssertEqual(result.status, 14, result.stderrText)
    XCTAssertTrue(
      result.stderrText.hasPrefix(
        "vault: error: biometry lockout (LAError -8): 15 failed matches within 24 hours"),
      result.stderrText)
    XCTAssertEqual(biometry()["recovery_required"] as? Bool, true)
    XCTAssertEqual(biometry()["failed_matches_24h"] as? Int, 15)
    XCTAssertEqual(box.vault(["status", "--check"]).status, 10)
  }

  /// Attack review: a sensor lockout made by failures in another vault does not let the PIN
  /// stand in for a guarded read's match; one this vault's own failures made still does.
  func testALockoutFromAnotherVaultBuysNoGuardedRead() {
    box.initBiometric()
    box.biosim(["next", "match"])
    XCTAssertEqual(
      box.vaultPIN(["add", "--guard", "g"], stdin: Array("guarded".utf8)).status, 0)
    let token = box.unlock()
    let session = ["VAULT_SESSION": token]
    let other = ["VAULT_PATH": box.home + "/other.db"]
    XCTAssertEqual(
      box.vault(["init", "--kdf", "test", "--no-biometry"], pin: ["111111"], env: other).status, 0)
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vault(["biometry", "activate"], pin: ["111111"], env: other).status, 0)
    for _ in 0..<2 {
      box.biosim(["next", "no-match", "--count", "3"])
      box.vault(["unlock", "--force"], pin: ["111111"], env: other)
      box.biosim(["next", "--clear"])
    }
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, true)
    let refused = box.vault(["get", "g"], pin: [Sandbox.pin], env: session)
    XCTAssertEqual(refused.status, 14, refused.stderrText)
    XCTAssertEqual(
      refused.errorLines.first,
      "vault: error: biometry lockout (LAError -8): the sensor was locked out by failed matches"
        + " outside this vault, so the PIN does not stand in for this guarded entry's match")
    XCTAssertEqual(biometry()["failed_matches_24h"] as? Int, 0)
  }

  /// Review of 0.11.0, item 1: five failed matches of this vault within 24 hours once made
  /// every later lockout count as its own, so after `biosim force-lockout` the PIN alone read
  /// a guarded entry, again and again.
  func testAForcedLockoutAfterOwnFailuresBuysNoGuardedRead() {
    box.initBiometric()
    box.biosim(["next", "match"])
    XCTAssertEqual(
      box.vaultPIN(["add", "--guard", "g"], stdin: Array("guarded".utf8)).status, 0)
    let token = box.unlock()
    for _ in 0..<2 {
      box.biosim(["next", "no-match", "--count", "3"])
      box.vaultPIN(["unlock", "--force"])
      box.biosim(["next", "--clear"])
    }
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, true)
    let own = box.vaultPIN(["get", "g"], env: ["VAULT_SESSION": token])
    XCTAssertEqual(own.status, 0, "this vault's own lockout: the PIN stands in")
    XCTAssertEqual(own.stdoutText, "guarded")
    for boot in [1005, 1010] {
      box.biosim(["force-lockout"])
      let refused = box.vaultPIN(
        ["get", "g"], env: ["VAULT_SESSION": token, "VAULT_TEST_BOOTCLOCK": "\(boot)"])
      XCTAssertEqual(refused.status, 14, refused.stderrText)
      XCTAssertEqual(refused.stdout, [])
      XCTAssertEqual(
        refused.errorLines.first,
        "vault: error: biometry lockout (LAError -8): the sensor was locked out by failed matches"
          + " outside this vault, so the PIN does not stand in for this guarded entry's match")
    }
  }

  /// Review of 0.11.0, item 15: a guarded read in a session that ran into a lockout of this
  /// vault's own exited 10, "no terminal to ask for the PIN", and never named the lockout.
  func testAGuardedReadIntoALockoutWithNoWayToAskNamesTheLockout() {
    box.initBiometric()
    box.biosim(["next", "match"])
    XCTAssertEqual(
      box.vaultPIN(["add", "--guard", "g"], stdin: Array("guarded".utf8)).status, 0)
    let session = ["VAULT_SESSION": box.unlock()]
    for _ in 0..<2 {
      box.biosim(["next", "no-match", "--count", "3"])
      box.vaultPIN(["unlock", "--force"])
      box.biosim(["next", "--clear"])
    }
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, true)
    let refused = box.vault(["get", "g"], env: session)
    XCTAssertEqual(refused.status, 14, refused.stderrText)
    XCTAssertEqual(refused.stdout, [])
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: biometry lockout (LAError -8): the sensor is locked out after too many"
          + " failed matches, and the PIN that stands in for this guarded entry's match cannot be"
          + " asked: no terminal and no --pin-fd",
        "vault: hint: give the PIN with --pin-fd N, or run it on a terminal; the PIN also ends the"
          + " lockout",
      ])
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, true, "nothing was asked")
    let read = box.vaultPIN(["get", "g"], env: session)
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "guarded")
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, false)
  }

  /// Review of 0.11.0, item 1: a run of failures that locked the sensor counts as this vault's
  /// only when every failure in it was; three of its own and two of another vault's do not,
  /// in either order.
  func testALockoutOfMixedFailuresBuysNoGuardedRead() {
    box.initBiometric()
    box.biosim(["next", "match"])
    XCTAssertEqual(
      box.vaultPIN(["add", "--guard", "g"], stdin: Array("guarded".utf8)).status, 0)
    let token = box.unlock()
    let other = ["VAULT_PATH": box.home + "/other.db"]
    XCTAssertEqual(
      box.vault(["init", "--kdf", "test", "--no-biometry"], pin: ["111111"], env: other).status, 0)
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vault(["biometry", "activate"], pin: ["111111"], env: other).status, 0)
    // (PIN, environment, failed matches): this vault's three and the other vault's two.
    let own = (Sandbox.pin, [String: String](), 3)
    let theirs = ("111111", other, 2)
    for (round, order) in [[own, theirs], [theirs, own]].enumerated() {
      for (pin, env, failures) in order {
        box.biosim(["next", "no-match", "--count", "\(failures)"])
        box.vault(["unlock", "--force"], pin: [pin], env: env)
      }
      XCTAssertEqual(box.sensor()["locked_out"] as? Bool, true)
      XCTAssertEqual(box.sensor()["consecutive_failures"] as? Int, 5)
      let refused = box.vaultPIN(
        ["get", "g"],
        env: ["VAULT_SESSION": token, "VAULT_TEST_BOOTCLOCK": "\(1005 + round * 5)"])
      XCTAssertEqual(refused.status, 14, "round \(round): \(refused.stderrText)")
      XCTAssertEqual(refused.stdout, [])
      XCTAssertEqual(box.sensor()["locked_out"] as? Bool, true, "nothing ended the lockout")
      XCTAssertEqual(box.biosim(["credential-verified"]).status, 0)
    }
  }

  /// Attack review: a success by reuse of a recent device unlock is no match, so a bulk read
  /// with the PIN leaves guarded entries out as a held key does, and a reference to one needs
  /// its fresh check.
  func testASuccessByReuseReleasesNoGuardedEntry() {
    box.initBiometric()
    box.biosim(["next", "match", "--count", "2"])
    XCTAssertEqual(
      box.vaultPIN(["add", "--guard", "g"], stdin: Array("guarded-value".utf8)).status, 0)
    XCTAssertEqual(box.vaultPIN(["add", "open"], stdin: Array("open-value".utf8)).status, 0)
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["settings", "biometric_reuse_seconds", "300"]).status, 0)
    XCTAssertEqual(box.biosim(["unlock-device"]).status, 0)
    let grep = box.vaultPIN(["grep", "value"])
    XCTAssertEqual(grep.stdoutText, "open:1:open-value\n", grep.stderrText)
    XCTAssertTrue(
      grep.stderrText.contains("once the reuse window has passed, with a fresh match"),
      grep.stderrText)
    let exported = box.vaultPIN(["export", "--to", "jsonl", "--plaintext"])
    XCTAssertFalse(exported.stdoutText.contains("guarded-value"), exported.stdoutText)
    let run = box.vaultPIN(["run", "--env", "X=g", "--", "/bin/sh", "-c", "echo $X"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertFalse(run.stdoutText.contains("guarded-value"))
    let injected = box.vaultPIN(["inject"], stdin: Array("v={{ vault g }}\n".utf8))
    XCTAssertNotEqual(injected.status, 0)
    XCTAssertFalse(injected.stdoutText.contains("guarded-value"))
  }

  // MARK: - Enrollment limits and types

  func testEnrollmentLimits() {
    for (type, limit, message) in [
      ("touch-id", 5, "Touch ID holds 5 fingers at most"),
      ("face-id", 2, "Face ID holds 2 faces (an appearance and one alternate) at most"),
      ("optic-id", 1, "Optic ID holds 1 iris at most"),
    ] {
      box.biosim(["hardware", type])
      for _ in 0..<limit { XCTAssertEqual(box.biosim(["enroll"]).status, 0, type) }
      let full = box.biosim(["enroll"])
      XCTAssertEqual(full.status, 5, type)
      XCTAssertEqual(
        full.errorLines,
        ["biosim: error: \(message); remove one first with `biosim unenroll --label LABEL`"])
      box.biosim(["unenroll", "--all"])
    }
  }

  // MARK: - Status without the key

  func testStatusTellsAnEnrollmentChangeBeforeTheNextUnlock() {
    box.initBiometric()
    XCTAssertEqual(biometry()["domain_state_matches"] as? Bool, true)
    box.biosim(["enroll"])
    XCTAssertEqual(biometry()["domain_state_matches"] as? Bool, false)
    XCTAssertEqual(biometry()["state"] as? String, "active")
    let text = box.vault(["status"]).stdoutText
    XCTAssertTrue(
      text.contains(
        "biometric unlock: active since 2026-"), text)
    XCTAssertTrue(
      text.contains(
        ", but the enrollment changed since activation; biometric unlock will be disabled at the"
          + " next unlock\n"), text)
    XCTAssertTrue(text.contains("sensor check:     available\n"), text)
    box.biosim(["force-lockout"])
    XCTAssertTrue(
      box.vault(["status"]).stdoutText.contains("sensor check:     biometry lockout (LAError -8)\n")
    )
    XCTAssertEqual(biometry()["preflight"] as? String, "biometryLockout")
    XCTAssertEqual(biometry()["preflight_code"] as? Int, -8)
  }

  /// Review of 0.11.0, item 20: every check that needs no key comes before "no terminal".
  ///
  /// After `biosim reset`, `vault list` with no terminal exited 10 "no terminal to ask on",
  /// though vault knows before any prompt that the PIN is bound to another device (with
  /// `--pin-fd` it said so, exit 11, nothing counted).
  func testChecksThatNeedNoKeyComeBeforeNoTerminal() {
    box.initBiometric()
    XCTAssertEqual(box.biosim(["reset", "--yes"]).status, 0)
    let other = [
      "vault: error: the PIN of this vault is bound to another device (a copied vault, or the"
        + " device state was reset); no attempt was counted",
      "vault: hint: set a PIN for this device with 'vault recover'",
    ]
    let list = box.vault(["list"])
    XCTAssertEqual(list.status, 11, list.stderrText)
    XCTAssertEqual(list.errorLines, other)
    let given = box.vaultPIN(["list"])
    XCTAssertEqual(given.status, 11, given.stderrText)
    XCTAssertEqual(given.errorLines, other)
    // A PIN delay, in a PIN-only vault: said with its wait, not as a missing terminal.
    let pinOnly = Sandbox(extra: ["VAULT_TEST_BOOTCLOCK": "1000"])
    pinOnly.initPINOnly()
    for attempt in 1...5 { pinOnly.vault(["list"], pin: ["000\(attempt)00"]) }
    let delayed = pinOnly.vault(["list"])
    XCTAssertEqual(delayed.status, 14, delayed.stderrText)
    XCTAssertEqual(
      delayed.errorLines.first?.hasPrefix("vault: error: too many wrong PINs; try again in "),
      true, delayed.stderrText)
  }

  func testStatusAfterAResetNamesTheOtherDevice() {
    box.initBiometric()
    XCTAssertEqual(box.biosim(["reset", "--yes"]).status, 0)
    let text = box.vault(["status"]).stdoutText
    XCTAssertTrue(
      text.contains(
        "biometric unlock: not set up on this device (the PIN is bound to another device); after"
          + " 'vault recover', run 'vault biometry activate'\n"), text)
    XCTAssertTrue(text.contains("sensor:           Touch ID (simulated), available, 0 enrolled\n"))
  }
}
