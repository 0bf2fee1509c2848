import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultSecrets

/// Local state edited or corrupted to extreme values (a session's timers, the PIN counters, the
/// sensor's counters) is an integrity failure with a clear message, exit 17, never a trap.
final class CorruptLocalStateTests: XCTestCase {
  var box: Sandbox!

  override func setUp() { box = Sandbox() }
  override func tearDown() { box = nil }

  var devicePath: String { box.home + "/state/vault/device.json" }

  /// Rewrites one JSON file through `edit` on its top-level object.
  func editJSON(_ path: String, _ edit: (inout [String: Any]) -> Void) throws {
    var object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        as? [String: Any])
    edit(&object)
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
  }

  func sessionFile(_ token: String) throws -> String {
    let folder = box.home + "/run/vault"
    let vaults = try FileManager.default.contentsOfDirectory(atPath: folder)
    let sessions = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + vaults[0])
    XCTAssertEqual(sessions.count, 1)
    return folder + "/" + vaults[0] + "/" + sessions[0]
  }

  func testHugeSessionTimersAreAnIntegrityFailure() throws {
    let session = box.pinOnlySession()
    // The record's timers (vault(5) SESSIONS) at the largest value of their field.
    for (field, offset, width) in [
      ("created", 53, 8), ("last_used", 61, 8), ("idle", 69, 4), ("hard", 73, 4),
    ] {
      let token = try XCTUnwrap(session["VAULT_SESSION"])
      let path = try sessionFile(token)
      let original = try Data(contentsOf: URL(fileURLWithPath: path))
      var edited = original
      edited.replaceSubrange(offset..<offset + width, with: [UInt8](repeating: 0xff, count: width))
      try edited.write(to: URL(fileURLWithPath: path))
      let result = box.vault(["list"], env: session)
      XCTAssertEqual(result.status, 17, "\(field): \(result.stderrText)")
      XCTAssertEqual(
        result.errorLines,
        ["vault: error: integrity failure: the session file \(path) is malformed"], field)
      try original.write(to: URL(fileURLWithPath: path))
    }
    XCTAssertEqual(box.vault(["list"], env: session).status, 0)
  }

  func testAPINCounterAtItsMaximumIsAnIntegrityFailure() throws {
    box.initPINOnly()
    XCTAssertEqual(box.vault(["list"], pin: ["999999"]).status, 11)
    try editJSON(devicePath) { state in
      var attempts = state["pin_attempts"] as? [String: Any] ?? [:]
      for key in attempts.keys {
        attempts[key] = ["failures": Int.max, "last_attempt_at": 1.0]
      }
      state["pin_attempts"] = attempts
    }
    let result = box.vault(["list"], pin: ["999999"])
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      ["vault: error: integrity failure: the device state \(devicePath) is corrupt"])
  }

  func testSensorCountersAtTheirMaximumAreAnIntegrityFailure() throws {
    XCTAssertEqual(box.biosim(["enroll"]).status, 0)
    for (field, value, command) in [
      ("enrollment_generation", UInt64.max as Any, ["enroll"]),
      ("os_epoch", UInt32.max as Any, ["os-upgrade"]),
    ] {
      try editJSON(devicePath) { state in
        var sensor = state["sensor"] as? [String: Any] ?? [:]
        sensor[field] = value
        state["sensor"] = sensor
      }
      let result = box.biosim(command)
      XCTAssertEqual(result.status, 17, "\(field): \(result.stderrText)")
      XCTAssertEqual(
        result.errorLines,
        ["biosim: error: integrity failure: the simulated sensor's \(field) is at its maximum"])
    }
  }
}
