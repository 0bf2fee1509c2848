import Biometry
import VaultCore
import VaultFormat

/// How each `LAError` of the simulated sensor (and its BiometricPrompt counterpart) reaches the
/// user: exit code and error line, for the table in `vault(1)` BIOMETRICS.
public enum BiometricErrorTable {
  /// One error.
  public struct Row: Sendable {
    /// The sensor's error.
    public var error: LAError
    /// `vault`'s exit code for it.
    public var exit: Int32
    /// The error line, with its program prefix.
    public var message: String
    /// When it happens, and what the vault does about it.
    public var note: String
  }

  /// Every `LAError`, in the order of their raw values.
  public static var rows: [Row] {
    LAError.allCases.map { error in
      let report = ExitStatus.report(VaultError.biometric(SensorGate.map(error)))
      return Row(
        error: error, exit: report.code.rawValue, message: "vault: error: " + report.message,
        note: note(error))
    }
  }

  private static func note(_ error: LAError) -> String {
    switch error {
    case .authenticationFailed:
      "Every attempt of one prompt failed (Touch ID 3, Face ID and Optic ID 2); each counts towards"
        + " the sensor's lockout and this vault's lockout rule."
    case .userCancel:
      "Ctrl-C, Ctrl-D or Escape at the prompt, or `biosim next cancel`; nothing counted."
    case .userFallback:
      "The fallback button, shown after one failed attempt on Touch ID and two on Face ID and"
        + " Optic ID; vault has no PIN-only path, so it is an outcome of its own; nothing counted."
    case .systemCancel: "`biosim next system-cancel`; nothing counted."
    case .passcodeNotSet:
      "Found before the PIN is asked. Removing the passcode also deletes the keychain item an"
        + " activation stored, so biometric unlock is disabled (15) at its next use."
    case .biometryNotAvailable: "No hardware, or the sensor is disabled; found before the PIN."
    case .biometryNotEnrolled:
      "Before an activation. With biometric unlock active, an emptied enrollment disables it"
        + " instead (15, 'the enrollment was emptied'), before the PIN."
    case .biometryLockout:
      "At an unlock the PIN ends it and the match is asked after the PIN; at a guarded read the PIN"
        + " stands in for the match when this vault's own failures made the lockout, else 14. The"
        + " 15th failed match of this vault within 24 hours exits 14 and needs `vault recover`."
    case .appCancel:
      "A timeout (`biosim next timeout`) or the prompt ended by vault (`app-cancel`); nothing counted."
    case .invalidContext:
      "Not reached: vault makes a fresh context for every evaluation."
    case .biometryNotPaired: "A removable sensor that is not paired; found before the PIN."
    case .biometryDisconnected: "A removable sensor that is not connected; found before the PIN."
    case .notInteractive: "No terminal and no answer queued."
    }
  }
}
