import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

final class PINLimiterTests: XCTestCase {
  var home: TemporaryHome!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { home = nil }

  override func setUp() { home = TemporaryHome() }

  func vault(at wallclock: Double) throws -> Vault {
    try Vault.open(
      path: home.vaultPath, environment: home.environment(["VAULT_TEST_WALLCLOCK": "\(wallclock)"]))
  }

  func testScheduleMatchesApple() {
    XCTAssertEqual(
      (0...10).map { PINLimiter.delay(afterFailures: $0) },
      [0, 0, 0, 0, 0, 60, 300, 900, 900, 3600, 3600])
  }

  func testFiveWrongPINsThenDelaysAndACorrectPINResets() throws {
    _ = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: Policy.pinOnly,
      environment: home.environment())
    let t0 = 1_000_000.0
    for attempt in 1...4 {
      XCTAssertThrowsError(try vault(at: t0).unlock(pin: pin("000\(attempt)"))) {
        XCTAssertEqual(VaultError($0), .wrongPIN(attemptsBeforeDelay: 5 - attempt))
      }
    }
    XCTAssertThrowsError(try vault(at: t0).unlock(pin: pin("000500"))) {
      XCTAssertEqual(VaultError($0), .wrongPINDelayed(seconds: 60))
    }
    XCTAssertThrowsError(try vault(at: t0 + 30).unlock(pin: pin("123400"))) {
      XCTAssertEqual(VaultError($0), .pinDelay(seconds: 30))
    }
    // Setting the wall clock back never shortens the delay.
    XCTAssertThrowsError(try vault(at: t0 - 86400).unlock(pin: pin("123400"))) {
      XCTAssertEqual(VaultError($0), .pinDelay(seconds: 60))
    }
    XCTAssertThrowsError(try vault(at: t0 + 61).unlock(pin: pin("000600"))) {
      XCTAssertEqual(VaultError($0), .wrongPINDelayed(seconds: 300))
    }
    XCTAssertThrowsError(try vault(at: t0 + 62).unlock(pin: pin("123400"))) {
      XCTAssertEqual(VaultError($0), .pinDelay(seconds: 299))
    }
    let v = try vault(at: t0 + 61 + 300)
    XCTAssertEqual(v.limiter.currentDelay(try v.device.read()), 0)
    _ = try v.unlock(pin: pin("123400"))
    XCTAssertEqual(v.limiter.failures(try v.device.read()), 0)
  }

  func testTheSameWrongPINCountsOnce() throws {
    _ = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: Policy.pinOnly,
      environment: home.environment())
    for _ in 1...4 {
      XCTAssertThrowsError(try vault(at: 10).unlock(pin: pin("999900"))) {
        XCTAssertEqual(VaultError($0), .wrongPIN(attemptsBeforeDelay: 4))
      }
    }
    XCTAssertThrowsError(try vault(at: 10).unlock(pin: pin("888800"))) {
      XCTAssertEqual(VaultError($0), .wrongPIN(attemptsBeforeDelay: 3))
    }
  }

  func testACheckKilledBeforeItEndsStillCounts() throws {
    _ = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: Policy.pinOnly,
      environment: home.environment())
    let v = try vault(at: 10)
    // `begin` runs before the KDF; a process killed during the KDF never reaches the end.
    try v.limiter.begin()
    XCTAssertEqual(v.limiter.failures(try v.device.read()), 1)
    XCTAssertThrowsError(try vault(at: 11).unlock(pin: pin("999900"))) {
      XCTAssertEqual(VaultError($0), .wrongPIN(attemptsBeforeDelay: 3))
    }
  }

  /// Five checks in progress: a sixth waits for them instead of being refused, and goes on as
  /// soon as one of them is a correct PIN.
  func testChecksInProgressAreWaitedForNotRefused() throws {
    _ = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: Policy.pinOnly,
      environment: home.environment())
    let v = try vault(at: 10)
    for _ in 1...5 { try v.limiter.begin() }
    XCTAssertEqual(try v.device.read().pinAttempts[v.vaultID.hex]?.inFlight, [10, 10, 10, 10, 10])
    // The refusals made before a PIN is asked for do not count checks still in flight either.
    XCTAssertEqual(v.limiter.currentDelay(try v.device.read()), 0)
    XCTAssertNoThrow(try v.checkBeforePIN(v.device.read()))
    let started = Date()
    let done = expectation(description: "the sixth check begins")
    let sixth = try vault(at: 10).limiter
    DispatchQueue.global().async {
      do {
        try sixth.begin()
      } catch {
        XCTFail("the sixth check was refused: \(error)")
      }
      done.fulfill()
    }
    Thread.sleep(forTimeInterval: 0.3)
    try v.limiter.succeeded()
    wait(for: [done], timeout: 10)
    XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3)
    XCTAssertEqual(try v.device.read().pinAttempts[v.vaultID.hex]?.failures, 1)
  }

  /// Checks begun a minute ago and never resolved were killed: they count, and no longer hold
  /// anyone up.
  func testKilledChecksCountAndAreNotWaitedFor() throws {
    _ = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: Policy.pinOnly,
      environment: home.environment())
    let v = try vault(at: 10)
    for _ in 1...5 { try v.limiter.begin() }
    // A minute on, the five are killed checks: counted (the delay they started has run), and
    // no longer in progress.
    let late = try vault(at: 70)
    try late.limiter.begin()
    let record = try XCTUnwrap(try late.device.read().pinAttempts[late.vaultID.hex])
    XCTAssertEqual(record.failures, 6)
    XCTAssertEqual(record.inFlight, [70])
    XCTAssertThrowsError(try vault(at: 71).limiter.begin()) {
      XCTAssertEqual(VaultError($0), .pinDelay(seconds: 299))
    }
  }

  func testARepeatTagIsLiveOnlyBeforeItsEndAndNotFromTooFarBefore() throws {
    XCTAssertEqual(PINLimiter.repeatWindow, 120)
    XCTAssertEqual(PINLimiter.repeatTagLifetime, 3720)
    var record = PINAttempts()
    record.lastWrongTag = Data(repeating: 7, count: 32).base64EncodedString()
    XCTAssertFalse(record.hasLiveTag(at: 100), "a tag without an end")
    record.lastWrongTagUntil = 5000
    XCTAssertEqual(
      [1279, 1280, 4999, 5000, 6000].map { record.hasLiveTag(at: $0) },
      [false, true, true, false, false])
    var state = DeviceState.fresh()
    state.pinAttempts = ["a": record, "b": record]
    state.pinAttempts["b"]?.lastWrongTagUntil = 8000
    state.dropExpiredPINTags(at: 5000)
    XCTAssertNil(state.pinAttempts["a"]?.lastWrongTag)
    XCTAssertNil(state.pinAttempts["a"]?.lastWrongTagUntil)
    XCTAssertNotNil(state.pinAttempts["b"]?.lastWrongTag)
  }

  func testATagOrItsEndOutOfBoundsIsCorrupt() throws {
    // A device state whose one PIN record is `record`, read by the device state's decoder.
    let fresh = String(decoding: try JSONEncoder().encode(DeviceState.fresh()), as: UTF8.self)
    XCTAssertTrue(fresh.contains(#""pin_attempts":{}"#))
    func decoded(_ record: String) -> DeviceState? {
      let text = fresh.replacingOccurrences(
        of: #""pin_attempts":{}"#, with: #""pin_attempts":{"aa":"# + record + "}")
      return DeviceState(decoding: Array(text.utf8))
    }
    for bad in [
      #"{"failures":1,"last_wrong_tag":"AAAA","last_wrong_tag_until":10}"#,
      #"{"failures":1,"last_wrong_tag_until":1e12}"#,
      #"{"failures":1,"last_wrong_tag_until":-1}"#,
    ] {
      XCTAssertNil(decoded(bad), bad)
    }
    let tag = Data(count: 32).base64EncodedString()
    let good = try XCTUnwrap(decoded(#"{"failures":1,"last_wrong_tag":"\#(tag)"}"#))
    XCTAssertEqual(good.pinAttempts["aa"]?.failures, 1)
    XCTAssertEqual(good.pinAttempts["aa"]?.lastWrongTag, tag)
  }
}
