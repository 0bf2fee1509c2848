import VaultCore

/// One simulated `LAContext` for the biometrics-only policy, used by one process.
///
/// The sensor's state lives in the device store, shared with `biosim` and every other process;
/// each attempt reads and writes it under the store's lock, and the prompter is asked outside the
/// lock. Not thread-safe: use a context from one thread.
public final class SimulatedContext {
  /// The sensor type seen by the last `canEvaluatePolicy()`; `.none` before the first call.
  public private(set) var biometryType: BiometryType = .none

  /// The domain state from the last successful preflight or biometric match of this context.
  ///
  /// 32 bytes (see `DomainState`). Nil before either, and reset to nil when a later preflight or
  /// evaluation starts, so a failed call never leaves an earlier value behind.
  public private(set) var evaluatedPolicyDomainState: [UInt8]?

  private let store: DeviceStore
  private let appID: String
  private let prompter: BiometricPrompter?
  private let interactionNotAllowed: Bool
  private var invalidated = false

  /// A context for `appID` (the per-app input of the domain state) over the sensor in `store`.
  ///
  /// - Parameters:
  ///   - prompter: Asked when no outcome is queued; nil when there is no terminal.
  ///   - interactionNotAllowed: When true, never prompt (`LAContext.interactionNotAllowed`).
  public init(
    store: DeviceStore, appID: String, prompter: BiometricPrompter?,
    interactionNotAllowed: Bool = false
  ) {
    self.store = store
    self.appID = appID
    self.prompter = prompter
    self.interactionNotAllowed = interactionNotAllowed
  }

  /// Checks whether biometrics can be evaluated now (preflight, `canEvaluatePolicy`).
  ///
  /// Sets `biometryType` whatever the result, and `evaluatedPolicyDomainState` on success.
  ///
  /// - Throws: `LAError.invalidContext` after `invalidate()`; else the first failing check of
  ///   `biometryNotAvailable` (no hardware, or unavailable), `biometryDisconnected`,
  ///   `biometryNotEnrolled`, `biometryLockout`. `VaultError` when the device store cannot be
  ///   read or is corrupt.
  public func canEvaluatePolicy() throws {
    guard !invalidated else { throw LAError.invalidContext }
    evaluatedPolicyDomainState = nil
    let (sensor, secret) = try store.readSensor()
    biometryType = sensor.biometryType
    if let error = Preflight.error(for: sensor) { throw error }
    evaluatedPolicyDomainState = DomainState.compute(
      sensor: sensor, deviceSecret: secret, appID: appID)
  }

  /// Evaluates the biometrics-only policy: up to `attemptsPerEvaluation` attempts, each answered
  /// by the next queued outcome or else by the prompter.
  ///
  /// - Parameter localizedReason: Why the app asks; shown by the prompter; must not be empty.
  /// - Returns: The 32-byte domain state at the moment of the match (also stored in
  ///   `evaluatedPolicyDomainState`).
  /// - Throws: `VaultError.invalidInput` for an empty reason (a programming error);
  ///   `LAError.invalidContext` after `invalidate()`; the preflight errors; `notInteractive` when
  ///   an attempt has no queued outcome and no prompter, interaction is not allowed, or the
  ///   prompter has no terminal; `authenticationFailed` when every attempt failed;
  ///   `biometryLockout` on the fifth consecutive failure across evaluations; `userCancel`,
  ///   `systemCancel`, `appCancel` (timeout, or `invalidate()` during the prompt). `VaultError`
  ///   when the device store cannot be read or written.
  public func evaluatePolicy(localizedReason: String) throws -> [UInt8] {
    guard !localizedReason.isEmpty else {
      throw VaultError.invalidInput("a biometric evaluation needs a non-empty reason")
    }
    guard !invalidated else { throw LAError.invalidContext }
    evaluatedPolicyDomainState = nil
    let sensor = try store.readSensor().sensor
    if let error = Preflight.error(for: sensor) { throw error }
    let type = sensor.biometryType
    let limit = type.attemptsPerEvaluation
    guard limit > 0 else { throw LAError.biometryNotAvailable }
    for attempt in 1...limit {
      var step = try store.updateSensor { sensor, secret -> Evaluation.Step in
        if let error = Preflight.error(for: sensor) { return .failed(error) }
        guard let outcome = try Evaluation.dequeue(&sensor) else { return .ask }
        return Evaluation.record(
          outcome, attempt: attempt, of: limit, sensor: &sensor, secret: secret, appID: appID)
      }
      if case .ask = step {
        let outcome = try ask(reason: localizedReason, type: type, attempt: attempt, of: limit)
        step = try store.updateSensor { sensor, secret -> Evaluation.Step in
          if let error = Preflight.error(for: sensor) { return .failed(error) }
          return Evaluation.record(
            outcome, attempt: attempt, of: limit, sensor: &sensor, secret: secret, appID: appID)
        }
      }
      switch step {
      case .ask, .next:
        continue
      case .matched(let domain):
        evaluatedPolicyDomainState = domain
        return domain
      case .failed(let error):
        throw error
      }
    }
    throw LAError.authenticationFailed
  }

  /// Ends this context: every later call throws `LAError.invalidContext`, and a prompt in
  /// progress ends with `LAError.appCancel`.
  public func invalidate() {
    invalidated = true
    evaluatedPolicyDomainState = nil
  }

  /// Asks the prompter for one attempt, outside the store's lock.
  private func ask(reason: String, type: BiometryType, attempt: Int, of limit: Int) throws
    -> Outcome
  {
    // After a failed attempt the prompt has been shown: with nobody left to answer, the
    // evaluation ends as failed, not as "cannot show a prompt".
    let unanswered = attempt > 1 ? LAError.authenticationFailed : LAError.notInteractive
    guard let prompter, !interactionNotAllowed else { throw unanswered }
    guard let outcome = prompter.present(reason: reason, type: type, attempt: attempt, of: limit)
    else { throw unanswered }
    if invalidated { throw LAError.appCancel }
    return outcome
  }
}
