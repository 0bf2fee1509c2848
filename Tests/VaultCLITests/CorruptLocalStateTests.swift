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
