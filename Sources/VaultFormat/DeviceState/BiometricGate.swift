/// A platform error code of the sensor: its name in words and its raw value (an error line names
/// it `biometry lockout (LAError -8)`).
public struct SensorCode: Equatable, Sendable {
  /// The code's name in words, such as `biometry lockout`.
  public var words: String
  /// Its raw value, such as -8.
  public var raw: Int

  /// A code.
  public init(words: String, raw: Int) {
    self.words = words
    self.raw = raw
  }
}

/// What a successful biometrics-only evaluation yields.
public struct BiometricMatch: Sendable {
  /// The domain state (32 bytes): from that same evaluation after a match; after a success by
  /// reuse (`reused`), which carries none, the one the preflight of the same context reported.
  public var domainState: [UInt8]
  /// The biometry type that matched (`touch-id`, `face-id`, `optic-id`).
  public var type: String
  /// True when a recent device unlock satisfied the evaluation without a prompt (the reuse
  /// window): no match was witnessed.
  public var reused: Bool

  /// Creates a match result.
  public init(domainState: [UInt8], type: String, reused: Bool = false) {
    self.domainState = domainState
    self.type = type
    self.reused = reused
  }
}

/// Why a biometric evaluation did not produce a match.
public enum BiometricFailure: Error, Equatable, Sendable {
  /// The attempts of one evaluation were used up (`authenticationFailed`).
  case notRecognised
  /// The user, the system, the app or a timeout ended the prompt; the code says which.
  case cancelled(SensorCode)
  /// The person chose the prompt's fallback button (`userFallback`).
  case fallback
  /// Too many consecutive failures locked the sensor (`biometryLockout`).
  case lockout
  /// A prompt was needed and there is no terminal (`notInteractive`).
  case notInteractive
  /// No hardware, or it is unavailable, not paired or disconnected.
  case notAvailable(SensorCode)
  /// Nothing is enrolled (`biometryNotEnrolled`).
  case notEnrolled
  /// No device passcode is set (`passcodeNotSet`).
  case passcodeNotSet
  /// A scripted answer no prompt could receive, and why.
  case script(BiometryScriptError)
}

/// The sensor's current run of consecutive failed matches (`biosim(1)` `failure_run` and
/// `consecutive_failures`): which run it is and how many failures it has.
public struct FailureRun: Codable, Equatable, Sendable {
  /// The run's name: the sensor gives each run a new one, when a failure follows none and when
  /// a lockout is forced.
  public var run: UInt64
  /// Failed matches in it: the sensor's whole count; as `BiometricStrikes.ownRun`, this vault's
  /// own failures in a row from the run's first (0 once another's came between).
  public var failures: Int

  /// A run.
  public init(run: UInt64, failures: Int) {
    self.run = run
    self.failures = failures
  }
}

/// One attempt's verdict, as an app counts attempts.
public enum AttemptVerdict: Sendable {
  /// The finger or face matched.
  case matched
  /// A failed match.
  case failed
}

/// The biometric side of authentication, shaped after `LAContext`: a fresh context per call, biometrics-only policy, no fallback.
///
/// Implemented over the simulated sensor by the CLI.
public protocol BiometricGate {
  /// Preflight alone (`canEvaluatePolicy`): can a biometrics-only evaluation run now? Asks
  /// nothing, so the vault can refuse before any prompt.
  ///
  /// - Returns: the domain state and type the preflight reports (as `evaluatedPolicyDomainState`
  ///   after a successful `canEvaluatePolicy`): a session compares it with the seal.
  /// - Throws: `BiometricFailure` (`notAvailable`, `notEnrolled`, `lockout`, `passcodeNotSet`).
  @discardableResult
  func preflight() throws -> BiometricMatch
  /// Preflight, then evaluate; returns the domain state from that evaluation.
  ///
  /// - Parameters:
  ///   - reason: Shown by the prompt.
  ///   - reuse: The reuse window in seconds (`touchIDAuthenticationAllowableReuseDuration`,
  ///     0 to 300); 0 always asks for a match.
  ///   - count: Told of each attempt's verdict, with the sensor's failure run after it, in the
  ///     same write as the sensor's count.
  /// - Throws: `BiometricFailure`.
  func evaluate(
    reason: String, reuse: Double,
    count: ((inout DeviceState, AttemptVerdict, FailureRun) -> Void)?
  ) throws -> BiometricMatch
  /// The sensor's current run of failed matches, read without a prompt.
  func failureRun() throws -> FailureRun
  /// The device credential (the vault PIN, or the recovery code) was verified: a lockout of the
  /// sensor ends; a partial failure count stays until a match.
  func credentialVerified() throws
  /// The sensor type now (`none`, `touch-id`…), for `status`.
  func currentType() throws -> String
  /// Stores the keychain item `id` "when passcode set, this device only": removing the device
  /// passcode deletes it.
  ///
  /// - Throws: `BiometricFailure.passcodeNotSet` without a passcode.
  func bindToPasscode(_ id: String) throws
  /// True when the keychain item `id` is still stored.
  func isBoundToPasscode(_ id: String) throws -> Bool
  /// Removes the keychain item `id`, if stored.
  func unbindFromPasscode(_ id: String) throws
}

/// A scripted answer that no real prompt could have received (biometry.md §7.7,
/// `sim_script_error`); the answer was dropped from the queue.
public enum BiometryScriptError: Error, Equatable, Sendable {
  /// `fallback` answered a prompt that shows no fallback button yet (Touch ID shows it after one
  /// failed attempt, Face ID and Optic ID after two).
  case fallbackNotShown
}
