import VaultFormat

/// The `LAError` codes the simulated sensor reports, with Apple's raw values.
///
/// Preflight (`canEvaluatePolicy`) reports the `biometry…` cases, `passcodeNotSet` and
/// `invalidContext`; evaluation reports all of them.
public enum LAError: Error, Equatable, CaseIterable, Sendable {
  /// Every attempt of one evaluation failed to match (Touch ID 3, Face ID 2). Raw -1.
  case authenticationFailed
  /// The person cancelled the prompt. Raw -2.
  case userCancel
  /// The person chose the fallback button. Raw -3.
  case userFallback
  /// The system interrupted the prompt. Raw -4.
  case systemCancel
  /// No device passcode is set, and biometry cannot be used without one. Raw -5.
  case passcodeNotSet
  /// No biometric hardware, or the sensor is disabled. Raw -6.
  case biometryNotAvailable
  /// Nothing is enrolled. Raw -7.
  case biometryNotEnrolled
  /// Too many consecutive failed matches; the device credential (PIN) re-enables biometry. Raw
  /// -8.
  case biometryLockout
  /// The app ended the evaluation: a timeout, or `invalidate()` during the prompt. Raw -9.
  case appCancel
  /// The context was invalidated and cannot be used again. Raw -10.
  case invalidContext
  /// The removable sensor is not paired. Raw -12.
  case biometryNotPaired
  /// The removable sensor is not connected. Raw -13.
  case biometryDisconnected
  /// A prompt was needed but interaction is not allowed or there is no terminal. Raw -1004.
  case notInteractive

  /// Apple's `LAError.Code` raw value.
  public var code: Int {
    switch self {
    case .authenticationFailed: -1
    case .userCancel: -2
    case .userFallback: -3
    case .systemCancel: -4
    case .passcodeNotSet: -5
    case .biometryNotAvailable: -6
    case .biometryNotEnrolled: -7
    case .biometryLockout: -8
    case .appCancel: -9
    case .invalidContext: -10
    case .biometryNotPaired: -12
    case .biometryDisconnected: -13
    case .notInteractive: -1004
    }
  }

  /// Apple's case name, such as `biometryLockout`.
  public var name: String {
    switch self {
    case .authenticationFailed: "authenticationFailed"
    case .userCancel: "userCancel"
    case .userFallback: "userFallback"
    case .systemCancel: "systemCancel"
    case .passcodeNotSet: "passcodeNotSet"
    case .biometryNotAvailable: "biometryNotAvailable"
    case .biometryNotEnrolled: "biometryNotEnrolled"
    case .biometryLockout: "biometryLockout"
    case .appCancel: "appCancel"
    case .invalidContext: "invalidContext"
    case .biometryNotPaired: "biometryNotPaired"
    case .biometryDisconnected: "biometryDisconnected"
    case .notInteractive: "notInteractive"
    }
  }

  /// Stable snake_case name for messages and JSON, such as `authentication_failed`.
  public var kind: String {
    var out = ""
    for character in name {
      if character.isUppercase {
        out += "_" + character.lowercased()
      } else {
        out.append(character)
      }
    }
    return out
  }

  /// The kind in words for an error line, such as `biometry lockout`.
  public var words: String { kind.split(separator: "_").joined(separator: " ") }

  /// The Android counterpart (a BiometricManager or BiometricPrompt constant and its value), or
  /// nil when Android has none.
  public var android: String? {
    switch self {
    case .authenticationFailed: nil  // Android reports onAuthenticationFailed, not an error
    case .userCancel: "ERROR_USER_CANCELED 10"
    case .userFallback: "ERROR_NEGATIVE_BUTTON 13"
    case .systemCancel: "ERROR_CANCELED 5"
    case .passcodeNotSet: "ERROR_NO_DEVICE_CREDENTIAL 14"
    case .biometryNotAvailable: "BIOMETRIC_ERROR_NO_HARDWARE 12, BIOMETRIC_ERROR_HW_UNAVAILABLE 1"
    case .biometryNotEnrolled: "BIOMETRIC_ERROR_NONE_ENROLLED 11"
    case .biometryLockout: "ERROR_LOCKOUT 7, ERROR_LOCKOUT_PERMANENT 9"
    case .appCancel: "ERROR_TIMEOUT 3 (a timeout)"
    case .invalidContext, .biometryNotPaired, .notInteractive: nil
    case .biometryDisconnected: "ERROR_HW_UNAVAILABLE 1"
    }
  }
}
