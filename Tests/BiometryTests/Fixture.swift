import Biometry
import Foundation
import VaultCore
import VaultFormat
import VaultTestSupport

/// A throwaway device store in a `TemporaryHome`, removed when the fixture is released.
final class Fixture {
  /// 2026-01-01T00:00:00Z, the wall clock every fixture runs at.
  static let wallClock = "1767225600"

  let home = TemporaryHome(prefix: "biometry-test")
  let store: DeviceStore
  private(set) var clock: Clock
  private(set) var controls: SensorControls

  /// A fixture at boot time `boot` seconds (CLOCK_BOOTTIME through the test switch).
  init(boot: Double = 1000) throws {
    let environment = home.environment([
      "VAULT_TEST_WALLCLOCK": Self.wallClock, "VAULT_TEST_BOOTCLOCK": "\(boot)",
      "VAULT_TEST_BOOT_ID": "boot-1",
    ])
    store = DeviceStore(environment: environment)
    clock = environment.clock
    controls = SensorControls(store: store, clock: clock)
  }

  /// Moves the boot clock to `boot` seconds (and to another boot when `bootID` is given).
  func travel(to boot: Double, bootID: String = "boot-1") {
    let environment = home.environment([
      "VAULT_TEST_WALLCLOCK": Self.wallClock, "VAULT_TEST_BOOTCLOCK": "\(boot)",
      "VAULT_TEST_BOOT_ID": bootID,
    ])
    clock = environment.clock
    controls = SensorControls(store: store, clock: clock)
  }

  func context(
    app: String = "com.example.vault", prompter: BiometricPrompter? = nil,
    interactionNotAllowed: Bool = false, reuse: Double = 0,
    observer: SimulatedContext.AttemptObserver? = nil
  ) -> SimulatedContext {
    let context = SimulatedContext(
      store: store, clock: clock, appID: app, prompter: prompter,
      interactionNotAllowed: interactionNotAllowed, observer: observer)
    context.touchIDAuthenticationAllowableReuseDuration = reuse
    return context
  }

  /// Changes the stored sensor directly, as a hand edit would.
  func edit(_ body: (inout SensorState) -> Void) throws {
    try store.updateSensor(clock: clock) { sensor, _ in body(&sensor) }
  }

  func sensor() throws -> SensorState { try controls.status() }

  /// The domain state computed straight from the stored state.
  func domainState(app: String = "com.example.vault") throws -> [UInt8]? {
    let state = try store.read()
    return DomainState.compute(
      sensor: try state.sensorState(), deviceSecret: state.deviceSecret, appID: app)
  }

  /// A device with `type` hardware and one enrolled template.
  static func enrolled(_ type: BiometryType = .touchID) throws -> Fixture {
    let fixture = try Fixture()
    try fixture.controls.setHardware(type)
    try fixture.controls.enroll(label: nil)
    return fixture
  }
}

/// A prompter that answers from a script and records every call.
final class FakePrompter: BiometricPrompter, @unchecked Sendable {
  /// The answer to the fallback offer after a Face ID or Optic ID prompt's last failure.
  var choosesFallback = false
  private(set) var fallbackOffers = 0

  func offerFallback(reason: String, type: BiometryType) -> Bool {
    lock.withLock { fallbackOffers += 1 }
    return choosesFallback
  }

  struct Call: Equatable {
    var reason: String
    var type: BiometryType
    var attempt: Int
    var of: Int
  }

  private let lock = NSLock()
  private var answers: [Outcome?]
  private var recorded: [Call] = []
  private let onPresent: (@Sendable () -> Void)?

  init(_ answers: [Outcome?], onPresent: (@Sendable () -> Void)? = nil) {
    self.answers = answers
    self.onPresent = onPresent
  }

  var calls: [Call] { lock.withLock { recorded } }

  /// What each call was told of the attempt before it.
  var previousOutcomes: [Outcome?] { lock.withLock { previous } }
  private var previous: [Outcome?] = []

  func present(
    reason: String, type: BiometryType, attempt: Int, of: Int, after previous: Outcome?
  ) -> Outcome? {
    onPresent?()
    return lock.withLock {
      recorded.append(Call(reason: reason, type: type, attempt: attempt, of: of))
      self.previous.append(previous)
      return answers.isEmpty ? nil : answers.removeFirst()
    }
  }
}
