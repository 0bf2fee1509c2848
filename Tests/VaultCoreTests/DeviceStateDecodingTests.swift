import Foundation
import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// `device.json` is decoded by hand on every command (its one decoder): every field reads back as
/// it was written, and every value out of bounds is refused.
final class DeviceStateDecodingTests: XCTestCase {
  func stored(_ state: DeviceState) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(state), as: UTF8.self)
  }

  func rich() -> DeviceState {
    var state = DeviceState.fresh()
    var attempts = PINAttempts()
    attempts.failures = 3
    attempts.lastWrongTag = [UInt8](repeating: 7, count: 32).base64
    attempts.lastWrongTagUntil = 1_700_000_123.25
    attempts.lastAttemptAt = 1_700_000_000
    attempts.previousAttemptAt = 0.5
    attempts.inFlight = [1.0, 2.5, 1e10]
    state.pinAttempts = ["aa": attempts, "bb": PINAttempts()]
    state.sensor = .object([
      "enrolled": .array([.string("finger-1"), .integer(-4), .number(2.75), .bool(true), .null]),
      "big": .unsigned(UInt64.max), "nested": .object(["x": .integer(Int64.max)]),
    ])
    state.lastGuardedRead = ["aa": 12.5]
    state.journalKeys = ["aa": [UInt8](repeating: 1, count: 32).base64]
    state.pendingDisables = [
      "aa": PendingDisable(reason: PendingDisable.emptiedEnrollment, at: "2026-12-02T05:00:00Z")
    ]
    state.headerDigests = ["aa": [UInt8](repeating: 2, count: 32).base64]
    state.guessSeconds = ["aa": 0.42]
    state.shortPINs = ["aa", "cc"]
    state.states = ["aa": RememberedState(generation: 41, mac: [UInt8](repeating: 3, count: 32))]
    state.writers = [
      "aa": WriterRecord(
        deviceID: [UInt8](repeating: 4, count: 16).base64,
        secretKey: SecureBytes(copying: [UInt8](repeating: 5, count: 64)), sequence: 1 << 62)
    ]
    var strikes = BiometricStrikes()
    strikes.failures = [1_700_000_000, 1_700_000_001.5]
    strikes.recoveryRequiredSince = 1_700_000_002
    strikes.ownRun = FailureRun(run: 1 << 40, failures: 4)
    state.biometricStrikes = ["aa": strikes, "bb": BiometricStrikes()]
    state.sealedDomains = [
      "aa": SealedDomainRecord(
        digest: [UInt8](repeating: 6, count: 32).base64, passcodeBound: true)
    ]
    state.vaultSettings = [
      "aa": VaultDeviceSettings(syncAuto: true), "bb": VaultDeviceSettings(syncAuto: false),
    ]
    return state
  }

  func testEveryFieldReadsBackAsWritten() throws {
    for state in [rich(), DeviceState.fresh()] {
      let text = try stored(state)
      let byHand = try XCTUnwrap(DeviceState(decoding: Array(text.utf8)))
      XCTAssertEqual(byHand, state)
    }
  }

  func testValuesOutOfBoundsAreRefused() throws {
    let text = try stored(rich())
    let changes: [(String, String)] = [
      ("\"failures\" : 3", "\"failures\" : -1"),
      ("\"failures\" : 3", "\"failures\" : \"3\""),
      ("\"sequence\" : 4611686018427387904", "\"sequence\" : 4611686018427387905"),
      ("\"generation\" : 41", "\"generation\" : 0"),
      ("the enrollment was emptied", "the enrollment was changed"),
      ("\"aa\" : 0.42", "\"aa\" : 10000000"),
      ("\"aa\" : 12.5", "\"aa\" : -1"),
      ("\"schema\" : 1", "\"schema\" : null"),
      ("\"short_pins\" : [", "\"short_pins\" : [1,"),
      // From the attack review: a number beyond a Double is refused, in the sensor's section too
      // (it was read as infinity, and every later write failed to encode it).
      ("\"aa\" : 0.42", "\"aa\" : 1e400"),
      ("2.75", "1e400"),
      ("1700000001.5", "-1"),
      ("\"recovery_required_since\" : 1700000002", "\"recovery_required_since\" : 1e12"),
      ("\"passcode_bound\" : true", "\"passcode_bound\" : 1"),
      ("\"failures\" : 4", "\"failures\" : -4"),
      ("\"run\" : 1099511627776", "\"run\" : -1"),
      ("\"sync_auto\" : true", "\"sync_auto\" : \"on\""),
    ]
    for (old, new) in changes {
      XCTAssertTrue(text.contains(old), old)
      let changed = Array(text.replacingOccurrences(of: old, with: new).utf8)
      XCTAssertNil(DeviceState(decoding: changed), new)
    }
    let secret = try XCTUnwrap(text.range(of: "\"device_secret\" : \""))
    var short = text
    short.insert(contentsOf: "AAAA", at: secret.upperBound)
    XCTAssertNil(DeviceState(decoding: Array(short.utf8)))
    XCTAssertNil(DeviceState(decoding: Array("[]".utf8)))
  }
}
