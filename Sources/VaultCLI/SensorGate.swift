import Biometry
import VaultCore

/// The vault's `BiometricGate` over the simulated sensor: a fresh `SimulatedContext` per
/// evaluation, biometrics-only policy, sensor prompts on the terminal.
struct SensorGate: BiometricGate {
  let store: DeviceStore
  let clock: Clock
  let terminal: Terminal?

  private func context(prompting: Bool) -> SimulatedContext {
    SimulatedContext(
      store: store, appID: DomainState.vaultAppID,
      prompter: prompting ? terminal.map { TerminalPrompter(terminal: $0) } : nil)
  }

  func preflight() throws -> BiometricMatch {
    let context = context(prompting: false)
    defer { context.invalidate() }
    do {
      try context.canEvaluatePolicy()
    } catch let error as LAError {
      throw Self.map(error)
    }
    guard let state = context.evaluatedPolicyDomainState else {
      throw BiometricFailure.notEnrolled
    }
    return BiometricMatch(domainState: state, type: context.biometryType.rawValue)
  }

  func evaluate(reason: String) throws -> BiometricMatch {
    let context = context(prompting: true)
    defer { context.invalidate() }
    do {
      try context.canEvaluatePolicy()
      let state = try context.evaluatePolicy(localizedReason: reason)
      return BiometricMatch(domainState: state, type: context.biometryType.rawValue)
    } catch let error as LAError {
      throw Self.map(error)
    }
  }

  /// Clears an active lockout only: consecutive failures below the threshold keep counting across
  /// runs, as they do on the device until a match.
  func credentialVerified() throws {
    if try store.readSensor().sensor.lockedOut {
      try SensorControls(store: store, clock: clock).clearLockout()
    }
  }

  func currentType() throws -> String {
    try store.readSensor().sensor.hardware
  }

  static func map(_ error: LAError) -> BiometricFailure {
    switch error {
    case .authenticationFailed: .notRecognised
    case .userCancel: .cancelled("the biometric prompt was cancelled")
    case .systemCancel: .cancelled("the system interrupted the biometric prompt")
    case .appCancel: .cancelled("timed out waiting for the biometric sensor")
    case .invalidContext: .cancelled("the authentication context was reused")
    case .notInteractive: .notInteractive
    case .biometryLockout: .lockout
    case .biometryNotEnrolled: .notEnrolled
    case .biometryNotAvailable: .notAvailable("no biometric sensor is available (simulated)")
    case .biometryDisconnected: .notAvailable("the biometric sensor is disconnected (simulated)")
    }
  }
}

/// Asks on the terminal, saying plainly that the sensor is simulated: Enter is a matching finger
/// or face, `n` a non-matching one, Ctrl-C, Ctrl-D or Escape cancels.
struct TerminalPrompter: BiometricPrompter, @unchecked Sendable {
  let terminal: Terminal

  func present(reason: String, type: BiometryType, attempt: Int, of total: Int) -> Outcome? {
    let thing = type == .touchID ? "finger" : "face"
    let prompt =
      "[simulated \(type.displayName) sensor] \(reason) (attempt \(attempt) of \(total))\n"
      + "  Enter: matching \(thing)   n: non-matching \(thing)   Ctrl-C: cancel "
    defer { terminal.say("\n") }
    var shown = prompt
    while true {
      // Only the documented keys mean something; anything else is ignored, so a stray key is
      // never a failed match.
      switch terminal.readSensorKey(prompt: shown) {
      case 10, 13: return .match
      case UInt8(ascii: "n"), UInt8(ascii: "N"): return .noMatch
      case 3, 4, 27: return .cancel
      case nil: return nil
      default: shown = ""
      }
    }
  }
}

extension BiometryType {
  /// "Touch ID" for `touch-id`; the raw text for anything unknown.
  static func displayName(_ raw: String) -> String {
    BiometryType(rawValue: raw)?.displayName ?? raw
  }
}
