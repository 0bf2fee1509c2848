/// The `LAError` codes the simulated sensor reports, with Apple's raw values.
///
/// Preflight (`canEvaluatePolicy`) reports the `biometry…` cases and `invalidContext`; evaluation
/// reports all of them.
public enum LAError: Error, Equatable, CaseIterable, Sendable {
  /// Every attempt of one evaluation failed to match (Touch ID 3, Face ID 2). Raw -1.
  case authenticationFailed
  /// The person cancelled the prompt. Raw -2.
  case userCancel
  /// The system interrupted the prompt. Raw -4.
  case systemCancel
  /// The app ended the evaluation: a timeout, or `invalidate()` during the prompt. Raw -9.
  case appCancel
  /// A prompt was needed but interaction is not allowed or there is no terminal. Raw -1004.
  case notInteractive
  /// No biometric hardware, or the sensor is disabled. Raw -6.
  case biometryNotAvailable
  /// Nothing is enrolled. Raw -7.
  case biometryNotEnrolled
  /// Five consecutive failed matches; the device credential (PIN) re-enables biometry. Raw -8.
  case biometryLockout
  /// The removable sensor is not connected. Raw -13.
  case biometryDisconnected
  /// The context was invalidated and cannot be used again. Raw -10.
  case invalidContext

  /// Apple's `LAError.Code` raw value.
  public var code: Int {
    switch self {
    case .authenticationFailed: -1
    case .userCancel: -2
    case .systemCancel: -4
    case .appCancel: -9
    case .notInteractive: -1004
    case .biometryNotAvailable: -6
    case .biometryNotEnrolled: -7
    case .biometryLockout: -8
    case .biometryDisconnected: -13
    case .invalidContext: -10
    }
  }

  /// Stable snake_case name for messages and JSON, such as `authentication_failed`.
  public var kind: String {
    switch self {
    case .authenticationFailed: "authentication_failed"
    case .userCancel: "user_cancel"
    case .systemCancel: "system_cancel"
    case .appCancel: "app_cancel"
    case .notInteractive: "not_interactive"
    case .biometryNotAvailable: "biometry_not_available"
    case .biometryNotEnrolled: "biometry_not_enrolled"
    case .biometryLockout: "biometry_lockout"
    case .biometryDisconnected: "biometry_disconnected"
    case .invalidContext: "invalid_context"
    }
  }
}
