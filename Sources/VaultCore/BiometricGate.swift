/// What a successful biometrics-only evaluation yields.
public struct BiometricMatch: Sendable {
  /// The domain state read from that same evaluation (32 bytes).
  public var domainState: [UInt8]
  /// The biometry type that matched (`touch-id`, `face-id`, `optic-id`).
  public var type: String

  /// Creates a match result.
  public init(domainState: [UInt8], type: String) {
    self.domainState = domainState
    self.type = type
  }
}

/// Why a biometric evaluation did not produce a match.
public enum BiometricFailure: Error, Equatable, Sendable {
  /// The attempts of one evaluation were used up (`authenticationFailed`).
  case notRecognised
  /// The user, the system or a timeout ended the prompt.
  case cancelled(String)
  /// Five consecutive failures locked the sensor (`biometryLockout`).
  case lockout
  /// A prompt was needed and there is no terminal (`notInteractive`).
  case notInteractive
  /// No hardware, or it is unavailable or disconnected.
  case notAvailable(String)
  /// Nothing is enrolled (`biometryNotEnrolled`).
  case notEnrolled
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
  /// - Throws: `BiometricFailure` (`notAvailable`, `notEnrolled`, `lockout`).
  @discardableResult
  func preflight() throws -> BiometricMatch
  /// Preflight, then evaluate; returns the domain state from that evaluation.
  ///
  /// - Throws: `BiometricFailure`.
  func evaluate(reason: String) throws -> BiometricMatch
  /// The device credential (the vault PIN) was verified: clear a biometric lockout.
  func credentialVerified() throws
  /// The sensor type now (`none`, `touch-id`…), for `status`.
  func currentType() throws -> String
}
