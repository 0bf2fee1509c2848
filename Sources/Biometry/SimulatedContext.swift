import VaultFormat

/// One simulated `LAContext` for the biometrics-only policy, used by one process.
///
/// The sensor's state lives in the device store, shared with `biosim` and every other process;
/// each attempt reads and writes it under the store's lock, and the prompter is asked outside the
/// lock. Not thread-safe: use a context from one thread.
public final class SimulatedContext {
  /// Called, inside the store's locked write that records it, with every outcome an attempt of
  /// this context took and the sensor's failure run after it: what the app counts about
  /// attempts is then written with the sensor's own count, or not at all.
  public typealias AttemptObserver = (inout DeviceState, Outcome, FailureRun) -> Void

  /// The sensor type seen by the last `canEvaluatePolicy()`; `.none` before the first call.
  public private(set) var biometryType: BiometryType = .none

  /// The domain state from the last successful preflight or biometric match of this context.
  ///
  /// 32 bytes (see `DomainState`). Nil before either, and reset to nil when a later preflight or
  /// evaluation starts, so a failed call never leaves an earlier value behind; nil too after an
  /// evaluation the reuse window satisfied (no match was witnessed).
  public private(set) var evaluatedPolicyDomainState: [UInt8]?

  /// True when the last evaluation succeeded by reusing a recent device unlock, without a
  /// prompt.
  public private(set) var evaluatedByReuse = false

  /// `touchIDAuthenticationAllowableReuseDuration`, in seconds.
  ///
  /// A device unlock with biometry (`biosim unlock-device`) this recent satisfies an evaluation
  /// without a prompt. 0 (the default) never reuses; values above 300 s
  /// (`SensorState.maximumReuse`) count as 300.
  public var touchIDAuthenticationAllowableReuseDuration: Double = 0

  private let store: DeviceStore
  private let clock: Clock
  private let appID: String
  private let prompter: BiometricPrompter?
  private let interactionNotAllowed: Bool
  private let observer: AttemptObserver?
  private var invalidated = false

  /// A context for `appID` (the per-app input of the domain state) over the sensor in `store`.
  ///
  /// - Parameters:
  ///   - clock: The boot clock that queued answers, timed lockouts and device unlocks are
  ///     measured on.
  ///   - prompter: Asked when no outcome is queued; nil when there is no terminal.
  ///   - interactionNotAllowed: When true, never prompt (`LAContext.interactionNotAllowed`).
  ///   - observer: Told of every outcome taken, in the same write (see `AttemptObserver`).
  public init(
    store: DeviceStore, clock: Clock, appID: String, prompter: BiometricPrompter?,
    interactionNotAllowed: Bool = false, observer: AttemptObserver? = nil
  ) {
    self.store = store
    self.clock = clock
    self.appID = appID
    self.prompter = prompter
    self.interactionNotAllowed = interactionNotAllowed
    self.observer = observer
  }

  /// Checks whether biometrics can be evaluated now (preflight, `canEvaluatePolicy`).
  ///
  /// Sets `biometryType` whatever the result, and `evaluatedPolicyDomainState` on success.
  ///
  /// - Throws: `LAError.invalidContext` after `invalidate()`; else the first failing check of
  ///   `biometryNotAvailable` (no hardware, or unavailable), `biometryNotPaired`,
  ///   `biometryDisconnected`, `biometryNotEnrolled`, `biometryLockout`, `passcodeNotSet`.
  ///   `VaultError` when the device store cannot be read or is corrupt.
  public func canEvaluatePolicy() throws {
    guard !invalidated else { throw LAError.invalidContext }
    evaluatedPolicyDomainState = nil
    let (sensor, secret) = try store.readSensor(clock: clock)
    biometryType = sensor.biometryType
    if let error = Preflight.error(for: sensor) { throw error }
    evaluatedPolicyDomainState = DomainState.compute(
      sensor: sensor, deviceSecret: secret, appID: appID)
  }

  /// Evaluates the biometrics-only policy: a recent device unlock within the reuse window, or up
  /// to `attemptsPerEvaluation` attempts, each answered by the next queued outcome (one queued
  /// within `SensorState.answerValidity`) or else by the prompter.
  ///
  /// - Parameter localizedReason: Why the app asks; shown by the prompter; must not be empty.
  /// - Returns: The 32-byte domain state at the moment of the match (also stored in
  ///   `evaluatedPolicyDomainState`), or nil when the reuse window satisfied the evaluation
  ///   (`evaluatedByReuse`).
  /// - Throws: `BiometryError.emptyReason` for an empty reason (a programming error);
  ///   `LAError.invalidContext` after `invalidate()`; the preflight errors; `notInteractive` when
  ///   an attempt has no queued outcome and no prompter, interaction is not allowed, or the
  ///   prompter has no terminal; `authenticationFailed` when every attempt failed (or after ten
  ///   retries); `biometryLockout` when a failure reaches the profile's lockout; `userFallback`,
  ///   `userCancel`, `systemCancel`, `appCancel` (a timeout, or `invalidate()` during the
  ///   prompt); `BiometryScriptError` for a queued answer no prompt could receive. `VaultError`
  ///   when the device store cannot be read or written.
  public func evaluatePolicy(localizedReason: String) throws -> [UInt8]? {
    guard !localizedReason.isEmpty else { throw BiometryError.emptyReason }
    guard !invalidated else { throw LAError.invalidContext }
    evaluatedPolicyDomainState = nil
    evaluatedByReuse = false
    let sensor = try store.readSensor(clock: clock).sensor
    if let error = Preflight.error(for: sensor) { throw error }
    if reuses(sensor) {
      evaluatedByReuse = true
      return nil
    }
    let type = sensor.biometryType
    let limit = type.attemptsPerEvaluation
    guard limit > 0 else { throw LAError.biometryNotAvailable }
    var prompt = Evaluation.Prompt(attempt: 1, limit: limit, failures: 0, retries: 0, type: type)
    while true {
      var (step, outcome) = try take(prompt, answer: nil)
      if case .ask = step {
        (step, outcome) = try take(prompt, answer: ask(reason: localizedReason, prompt))
      }
      switch step {
      case .ask:
        continue
      case .again:
        prompt.retries += 1
        prompt.previous = .retry
      case .next:
        prompt.failures += 1
        prompt.attempt += 1
        prompt.previous = .noMatch
      case .matched(let domain):
        evaluatedPolicyDomainState = domain
        return domain
      case .failed(.authenticationFailed) where type != .touchID && outcome == .noMatch:
        // Face ID and Optic ID offer the fallback button once their attempts are used up.
        prompt.failures += 1
        if try fallbackChosen(reason: localizedReason, prompt) { throw LAError.userFallback }
        throw LAError.authenticationFailed
      case .failed(let error):
        throw error
      case .refused(let error):
        throw error
      }
    }
  }

  /// Ends this context: every later call throws `LAError.invalidContext`, and a prompt in
  /// progress ends with `LAError.appCancel`.
  public func invalidate() {
    invalidated = true
    evaluatedPolicyDomainState = nil
  }

  /// True when a device unlock within the reuse window satisfies the evaluation.
  private func reuses(_ sensor: SensorState) -> Bool {
    let window = min(touchIDAuthenticationAllowableReuseDuration, SensorState.maximumReuse)
    guard window > 0, let unlocked = sensor.lastDeviceUnlock else { return false }
    let now = clock.bootNow
    return unlocked <= now && now - unlocked <= window
  }

  /// One attempt under the store's lock: the outcome given, or else the next queued one.
  private func take(_ prompt: Evaluation.Prompt, answer: Outcome?) throws -> (
    Evaluation.Step, Outcome?
  ) {
    let now = clock.bootNow
    return try store.updateDevice(clock: clock) { state, sensor in
      if let error = Preflight.error(for: sensor) { return (.failed(error), nil) }
      guard let outcome = try answer ?? Evaluation.dequeue(&sensor) else { return (.ask, nil) }
      let step = Evaluation.record(
        outcome, prompt, sensor: &sensor, secret: state.deviceSecret, appID: appID, now: now)
      observer?(&state, outcome, sensor.run)
      return (step, outcome)
    }
  }

  /// After the last failed attempt of a Face ID or Optic ID prompt, which shows the fallback
  /// button: a queued `fallback` takes it, any other queued answer is left for the next prompt,
  /// and with nothing queued the prompter is asked.
  private func fallbackChosen(reason: String, _ prompt: Evaluation.Prompt) throws -> Bool {
    let queued = try store.updateDevice(clock: clock) { state, sensor -> Bool? in
      guard let next = Evaluation.peek(sensor) else { return nil }
      guard next == .fallback else { return false }
      _ = try Evaluation.dequeue(&sensor)
      observer?(&state, next, sensor.run)
      return true
    }
    if let queued { return queued }
    guard let prompter, !interactionNotAllowed else { return false }
    let chosen = prompter.offerFallback(reason: reason, type: prompt.type)
    if chosen {
      _ = try store.updateDevice(clock: clock) { state, sensor in
        observer?(&state, .fallback, sensor.run)
      }
    }
    return chosen
  }

  /// Asks the prompter for one attempt, outside the store's lock.
  private func ask(reason: String, _ prompt: Evaluation.Prompt) throws -> Outcome {
    // After a failed attempt the prompt has been shown: with nobody left to answer, the
    // evaluation ends as failed, not as "cannot show a prompt".
    let unanswered =
      prompt.attempt > 1 || prompt.retries > 0
      ? LAError.authenticationFailed : LAError.notInteractive
    guard let prompter, !interactionNotAllowed else { throw unanswered }
    guard
      let outcome = prompter.present(
        reason: reason, type: prompt.type, attempt: prompt.attempt, of: prompt.limit,
        after: prompt.previous)
    else { throw unanswered }
    if invalidated { throw LAError.appCancel }
    return outcome
  }
}
