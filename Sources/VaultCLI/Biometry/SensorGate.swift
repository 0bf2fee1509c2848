import Biometry
import VaultCore
import VaultFormat

/// The vault's `BiometricGate` over the simulated sensor: a fresh `SimulatedContext` per
/// evaluation, biometrics-only policy, sensor prompts on the terminal.
struct SensorGate: BiometricGate {
  let store: DeviceStore
  let clock: Clock
  let terminal: Terminal?
  /// A pinentry that shows the reason in a message while the sensor is asked, and closes when
  /// it answered (no terminal: the match comes from the sensor's queue).
  var announcer: PinentryDialog? = nil

  private func context(
    prompting: Bool, observer: SimulatedContext.AttemptObserver? = nil
  ) -> SimulatedContext {
    RunScope.current.sensorConsulted = (store, clock)
    return SimulatedContext(
      store: store, clock: clock, appID: DomainState.vaultAppID,
      prompter: prompting ? terminal.map { TerminalPrompter(terminal: $0) } : nil,
      observer: observer)
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

  func evaluate(
    reason: String, reuse: Double,
    count: ((inout DeviceState, AttemptVerdict, FailureRun) -> Void)?
  ) throws -> BiometricMatch {
    let context = context(prompting: true) { state, outcome, run in
      switch outcome {
      case .match: count?(&state, .matched, run)
      case .noMatch: count?(&state, .failed, run)
      default: break
      }
    }
    context.touchIDAuthenticationAllowableReuseDuration = reuse
    defer { context.invalidate() }
    if let announcer {
      announcer.showMessage("Touch the sensor: \(reason).")
    }
    defer { announcer?.close() }
    do {
      try context.canEvaluatePolicy()
      // A success by reuse carries no domain state of its own: the preflight's stands in, so an
      // enrollment change is still found.
      let preflightState = context.evaluatedPolicyDomainState
      let type = context.biometryType.rawValue
      if let state = try context.evaluatePolicy(localizedReason: reason) {
        return BiometricMatch(domainState: state, type: type)
      }
      guard let preflightState else { throw BiometricFailure.notEnrolled }
      return BiometricMatch(domainState: preflightState, type: type, reused: true)
    } catch let error as LAError {
      throw Self.map(error)
    } catch let error as BiometryScriptError {
      throw Self.map(error)
    }
  }

  /// The vault PIN (or the recovery code) was verified: a lockout ends (5 → 0, as the device
  /// passcode ends it), but a partial count stays until a match (4 stays 4).
  ///
  /// The vault's own rule, stricter than the platform's: the lock-screen passcode
  /// (`biosim credential-verified`, biometry.md §7.5 `credential-verified`) and a credential
  /// success under `.deviceOwnerAuthentication` (§7.5 step 7) reset any count, but the PIN is half
  /// of the vault's secret, so typing it must not buy fresh attempts: five failed matches across
  /// unlocks still lock the sensor (§8 scenario 8).
  func credentialVerified() throws {
    if try store.readSensor(clock: clock).sensor.isLockedOut {
      try SensorControls(store: store, clock: clock).clearLockout()
    }
  }

  func failureRun() throws -> FailureRun {
    try store.readSensor(clock: clock).sensor.run
  }

  func currentType() throws -> String {
    try store.readSensor(clock: clock).sensor.hardware
  }

  func bindToPasscode(_ id: String) throws {
    do {
      try SimulatedKeychain(store: store, clock: clock).add(id)
    } catch let error as LAError {
      throw Self.map(error)
    }
  }

  func isBoundToPasscode(_ id: String) throws -> Bool {
    try SimulatedKeychain(store: store, clock: clock).contains(id)
  }

  func unbindFromPasscode(_ id: String) throws {
    try SimulatedKeychain(store: store, clock: clock).delete(id)
  }

  /// The sensor's code as an error line names it.
  static func code(_ error: LAError) -> SensorCode {
    SensorCode(words: error.words, raw: error.code)
  }

  static func map(_ error: LAError) -> BiometricFailure {
    switch error {
    case .authenticationFailed: .notRecognised
    case .userCancel, .systemCancel, .appCancel, .invalidContext: .cancelled(code(error))
    case .userFallback: .fallback
    case .notInteractive: .notInteractive
    case .biometryLockout: .lockout
    case .biometryNotEnrolled: .notEnrolled
    case .passcodeNotSet: .passcodeNotSet
    case .biometryNotAvailable, .biometryNotPaired, .biometryDisconnected:
      .notAvailable(code(error))
    }
  }

  static func map(_ error: BiometryScriptError) -> BiometricFailure { .script(error) }

  /// The note `vault` prints as it ends when the run asked the sensor something and answers
  /// queued with `biosim next` are still waiting for a prompt; nil otherwise.
  static func waitingAnswersNote() -> String? {
    let scope = RunScope.current
    guard !scope.quiet, let (store, clock) = scope.sensorConsulted,
      let sensor = try? store.readSensor(clock: clock).sensor
    else { return nil }
    let pending = sensor.pendingAnswers(now: clock.bootNow)
    guard let last = pending.last else { return nil }
    let shown = pending.prefix(5).map { Output.printable($0.outcome) }.joined(separator: ", ")
    let count = pending.count
    return
      "vault: note: \(count) sensor answer\(count == 1 ? "" : "s") queued with 'biosim next'"
      + " \(count == 1 ? "is" : "are") still waiting (\(shown)\(count > 5 ? ", ..." : "")): the"
      + " next prompt takes \(count == 1 ? "it" : "them") within"
      + " \(Int(last.secondsLeft.rounded(.up))) s; 'biosim next --clear' drops"
      + " \(count == 1 ? "it" : "them")"
  }
}

/// Asks on the terminal, saying plainly that the sensor is simulated: Enter is a matching finger,
/// face or iris, `n` a non-matching one, `r` a scan to take again, `f` the fallback button once it
/// shows, Ctrl-C, Ctrl-D or Escape cancels.
///
/// After a failed match or a poor scan in the same evaluation it first says so, and to try
/// again, as LocalAuthentication's prompt does.
struct TerminalPrompter: BiometricPrompter, @unchecked Sendable {
  let terminal: Terminal

  func present(
    reason: String, type: BiometryType, attempt: Int, of total: Int, after previous: Outcome?
  ) -> Outcome? {
    let thing = type.templateWord
    // Touch ID shows the fallback button after the first failed attempt.
    let fallback = type == .touchID && attempt > 1
    let sensor = "[simulated \(type.displayName) sensor] "
    let again: String
    switch previous {
    case .noMatch: again = sensor + "Not recognised. Try again.\n"
    case .retry: again = sensor + "Poor scan. Try again.\n"
    default: again = ""
    }
    let prompt =
      again + sensor + "\(reason) (attempt \(attempt) of \(total))\n"
      + "  Enter: matching \(thing)   n: non-matching \(thing)   r: poor scan"
      + (fallback ? "   f: fallback button (no PIN-only path)" : "") + "   Ctrl-C: cancel "
    defer { terminal.say("\n") }
    var shown = prompt
    while true {
      // Only the documented keys mean something; anything else is ignored, so a stray key is
      // never a failed match.
      switch terminal.readSensorKey(prompt: shown) {
      case 10, 13: return .match
      case UInt8(ascii: "n"), UInt8(ascii: "N"): return .noMatch
      case UInt8(ascii: "r"), UInt8(ascii: "R"): return .retry
      case UInt8(ascii: "f") where fallback, UInt8(ascii: "F") where fallback: return .fallback
      case 3, 4, 27: return .cancel
      case nil: return nil
      default: shown = ""
      }
    }
  }

  func offerFallback(reason: String, type: BiometryType) -> Bool {
    let prompt =
      "[simulated \(type.displayName) sensor] \(type.displayName) not recognised.\n"
      + "  f: fallback button (no PIN-only path)   any other key: close "
    defer { terminal.say("\n") }
    switch terminal.readSensorKey(prompt: prompt) {
    case UInt8(ascii: "f"), UInt8(ascii: "F"): return true
    default: return false
    }
  }
}

extension BiometryType {
  /// "Touch ID" for `touch-id`; the raw text for anything unknown.
  static func displayName(_ raw: String) -> String {
    BiometryType(rawValue: raw)?.displayName ?? raw
  }
}
