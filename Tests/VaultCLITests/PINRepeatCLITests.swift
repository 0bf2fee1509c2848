import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// The repeat tag of a wrong PIN (`vault(5)`, PIN ATTEMPT LIMITING) through the built binaries:
/// the same wrong PIN counts once while the tag is live, twice after, and the tag, a near miss of
/// the PIN, leaves the device state at the first update after it expired.
final class PINRepeatCLITests: XCTestCase {
  var box: Sandbox!
  let start = 1_800_000_000

  override func setUp() {
    box = Sandbox(extra: ["VAULT_TEST_WALLCLOCK": "\(start)"])
    box.initPINOnly()
  }
  override func tearDown() { box = nil }

  var devicePath: String { box.home + "/state/vault/device.json" }

  /// Sixteen commands (four outside the stress tier) given the right PIN at once, on a vault whose PIN costs a real Argon2id:
  /// every one passes (they used to be refused as too many wrong PINs past the fifth).
  func testCommandsGivenTheRightPINAtOnceAllPass() throws {
    let path = box.home + "/moderate.db"
    XCTAssertEqual(
      box.vault(["init", "--kdf", "moderate", "--no-biometry", "--vault", path], pin: ["135799"])
        .status, 0)
    try Data("135799\n".utf8).write(to: URL(fileURLWithPath: box.home + "/pin"))
    let result = box.shell(
      """
      for i in $(seq 1 \(TestTier.rounds(sample: 4, stress: 16))); do
        (vault list --vault \(path) --pin-fd 3 3<"$HOME/pin" >/dev/null 2>>"$HOME/errors" \\
          || echo $? >>"$HOME/codes") &
      done
      wait
      cat "$HOME/codes" "$HOME/errors" 2>/dev/null || true
      """, env: ["VAULT_TEST_WALLCLOCK": "\(start)"])
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.stdoutText, "")
  }

  /// `pin_attempts` of device.json, keyed by vault id.
  func attempts() throws -> [String: [String: Any]] {
    let object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: devicePath)))
        as? [String: Any])
    return try XCTUnwrap(object["pin_attempts"] as? [String: [String: Any]])
  }

  func list(pin: String, at seconds: Int, vault: String? = nil) -> Subprocess.Result {
    box.vault(
      ["list"] + (vault.map { ["--vault", $0] } ?? []), pin: [pin],
      env: ["VAULT_TEST_WALLCLOCK": "\(start + seconds)"])
  }

  func assertWrong(
    _ result: Subprocess.Result, left: Int, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(result.status, 11, result.stderrText, file: file, line: line)
    XCTAssertEqual(
      result.errorLines,
      ["vault: error: wrong PIN (\(left) attempt\(left == 1 ? "" : "s") left before a delay)"],
      file: file, line: line)
  }

  func testTheSameWrongPINCountsOnceWithinTheWindowAndTwiceAfter() throws {
    assertWrong(list(pin: "999999", at: 0), left: 4)
    let record = try XCTUnwrap(attempts().values.first)
    XCTAssertEqual((record["last_wrong_tag"] as? String)?.count, 44)
    XCTAssertEqual(record["last_wrong_tag_until"] as? Double, Double(start + 120))
    assertWrong(list(pin: "999999", at: 119), left: 4)
    // Past the window the tag is gone: the same PIN is a new wrong PIN.
    assertWrong(list(pin: "999999", at: 120), left: 3)
    let renewed = try XCTUnwrap(attempts().values.first)
    XCTAssertEqual(renewed["last_wrong_tag_until"] as? Double, Double(start + 240))
    assertWrong(list(pin: "888888", at: 130), left: 2)
    // A correct PIN removes the record.
    XCTAssertEqual(list(pin: Sandbox.pin, at: 140).status, 0)
    XCTAssertEqual(try attempts().count, 0)
  }

  func testAfterADelayTheWindowStartsWhenTheDelayEnds() throws {
    for (index, pin) in ["100001", "100002", "100003", "100004"].enumerated() {
      assertWrong(list(pin: pin, at: 0), left: 4 - index)
    }
    let fifth = list(pin: "100005", at: 0)
    XCTAssertEqual(fifth.status, 11)
    XCTAssertEqual(
      fifth.errorLines, ["vault: error: wrong PIN; the next attempt is allowed in 1 min"])
    XCTAssertEqual(
      try XCTUnwrap(attempts().values.first)["last_wrong_tag_until"] as? Double,
      Double(start + 60 + 120))
    // 179 s later, after the 60 s delay, the same PIN still counts once: still 5 failures, no
    // longer delay.
    XCTAssertEqual(list(pin: "100005", at: 179).status, 11)
    XCTAssertEqual(try XCTUnwrap(attempts().values.first)["failures"] as? Int, 5)
    // Once the window has passed it counts: the 6th failure starts the 5 min delay.
    let sixth = list(pin: "100005", at: 180)
    XCTAssertEqual(
      sixth.errorLines, ["vault: error: wrong PIN; the next attempt is allowed in 5 min"])
    XCTAssertEqual(try XCTUnwrap(attempts().values.first)["failures"] as? Int, 6)
  }

  func testAnExpiredTagLeavesTheDeviceStateAtTheNextUpdateOfAnyVault() throws {
    let other = box.home + "/other.db"
    XCTAssertEqual(
      box.vault(["init", "--kdf", "test", "--no-biometry", "--vault", other], pin: ["777777"])
        .status, 0)
    assertWrong(list(pin: "999999", at: 0), left: 4)
    let id = try XCTUnwrap(attempts().keys.first)
    // A command that updates nothing before the window ends leaves the tag; the other vault's
    // unlock at 121 s removes it, keeping the count.
    XCTAssertEqual(list(pin: "777777", at: 60, vault: other).status, 0)
    XCTAssertNotNil(try attempts()[id]?["last_wrong_tag"])
    XCTAssertEqual(list(pin: "777777", at: 121, vault: other).status, 0)
    let record = try XCTUnwrap(attempts()[id])
    XCTAssertEqual(
      Set(record.keys), ["failures", "last_attempt_at"], "no tag left: \(record)")
    XCTAssertEqual(record["failures"] as? Int, 1)
    XCTAssertEqual(record["last_attempt_at"] as? Double, Double(start))
    XCTAssertEqual(try attempts().count, 1)
  }

  func testBiosimUpdatesAndAClockSetBackRemoveATagToo() throws {
    assertWrong(list(pin: "999999", at: 0), left: 4)
    let id = try XCTUnwrap(attempts().keys.first)
    // The clock set back by more than the longest a tag lives: the tag is not live there.
    box.environment["VAULT_TEST_WALLCLOCK"] = "\(start - 3721)"
    XCTAssertEqual(box.biosim(["enroll"]).status, 0)
    XCTAssertNil(try attempts()[id]?["last_wrong_tag"])
    XCTAssertNil(try attempts()[id]?["last_wrong_tag_until"])
    XCTAssertEqual(try attempts()[id]?["failures"] as? Int, 1)
  }

  func testATagWithoutItsEndFromAnOlderReleaseIsNeverCompared() throws {
    assertWrong(list(pin: "999999", at: 0), left: 4)
    var object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: devicePath)))
        as? [String: Any])
    var all = try XCTUnwrap(object["pin_attempts"] as? [String: [String: Any]])
    let id = try XCTUnwrap(all.keys.first)
    all[id]?["last_wrong_tag_until"] = nil
    object["pin_attempts"] = all
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: devicePath))
    assertWrong(list(pin: "999999", at: 1), left: 3)
  }
}
