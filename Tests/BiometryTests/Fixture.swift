import Biometry
import Foundation
import VaultCore
import VaultTestSupport

/// A throwaway device store in a `TemporaryHome`, removed when the fixture is released.
final class Fixture {
  /// 2026-01-01T00:00:00Z, the wall clock every fixture runs at.
  static let wallClock = "1767225600"

  let home = TemporaryHome(prefix: "biometry-test")
  let store: DeviceStore
  let controls: SensorControls

  init() throws {
    let environment = home.environment(["VAULT_TEST_WALLCLOCK": Self.wallClock])
    store = DeviceStore(environment: environment)
    controls = SensorControls(store: store, clock: environment.clock)
  }

  func context(
    app: String = "com.example.vault", prompter: BiometricPrompter? = nil,
    interactionNotAllowed: Bool = false
  ) -> SimulatedContext {
    SimulatedContext(
      store: store, appID: app, prompter: prompter, interactionNotAllowed: interactionNotAllowed)
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

  func present(reason: String, type: BiometryType, attempt: Int, of: Int) -> Outcome? {
    onPresent?()
    return lock.withLock {
      recorded.append(Call(reason: reason, type: type, attempt: attempt, of: of))
      return answers.isEmpty ? nil : answers.removeFirst()
    }
  }
}
