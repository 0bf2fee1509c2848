import Biometry
import VaultCore
import VaultFormat
import VaultSync

/// The words of the simulated sensor's answers and of the vault's biometric rules (LAError codes, lockouts, a changed enrollment).
enum BiometricWords {
  /// The exit code, message and hint of one of this domain's errors (`ExitStatus.report`).
  static func report(_ error: VaultError, sensor: SensorState?) -> ExitStatus.Report {
    switch error {
    case .biometricNotRecognised:
      return (
        .notRecognised,
        "authentication failed (LAError -1): biometric not recognised (simulated sensor)", nil
      )
    case .biometricCancelled(let code):
      return (.cancelled, "\(name(code)): \(why(code))", nil)
    case .biometricFallback:
      return (
        .fallbackChosen,
        "user fallback (LAError -3): the fallback button was chosen; vault has no PIN-only path,"
          + " so a match is still needed",
        "run the command again and present a matching finger, face or iris"
      )
    case .biometricLockout:
      return (
        .tooManyAttempts,
        "biometry lockout (LAError -8): the biometric sensor is locked out after too many failed"
          + " matches",
        "the lockout ends the next time the PIN is verified: run the command again, and the"
          + " match is asked after the PIN"
      )
    case .biometricLockoutElsewhere:
      return (
        .tooManyAttempts,
        "biometry lockout (LAError -8): the sensor was locked out by failed matches outside this"
          + " vault, so the PIN does not stand in for this guarded entry's match",
        "end the lockout with the PIN: 'vault unlock --force' asks for it and then a match,"
          + " even while the agent holds the vault; then read the entry again"
      )
    case .biometricLockoutPINNotAskable:
      return (
        .tooManyAttempts,
        "biometry lockout (LAError -8): the sensor is locked out after too many failed matches,"
          + " and the PIN that stands in for this guarded entry's match cannot be asked: no"
          + " terminal and no --pin-fd",
        "give the PIN with --pin-fd N, or run it on a terminal; the PIN also ends the lockout"
      )
    case .biometricLockoutNeedsRecovery(let failures):
      return (
        .tooManyAttempts,
        "biometry lockout (LAError -8): \(failures) failed matches within 24 hours for this vault"
          + " (\(BiometricStrikes.limit / 5) lockouts), so the PIN no longer clears the lockout",
        "run 'vault recover' with the recovery code; it sets a new PIN too, as someone may know"
          + " this one"
      )
    case .passcodeNotSet:
      return (
        .biometryUnavailable,
        "passcode not set (LAError -5): biometry needs a device passcode, and none is set"
          + " (simulated)", "set one with: biosim passcode set"
      )
    case .sensorScript(.fallbackNotShown):
      return (
        .usage,
        "simulated sensor script: the queued answer 'fallback' cannot answer this prompt: the"
          + " fallback button shows only after a failed match (Touch ID one, Face ID and Optic ID"
          + " two); it was dropped", nil
      )
    case .enrollmentChanged(let reason):
      return (
        .enrollmentChanged,
        "\(reason) since biometric unlock was activated; it is now disabled and every session"
          + " was revoked; \(ExitStatus.steps(after: reason, sensor).activation)", nil
      )
    case .biometryDisabled(let since, let reason):
      return (
        .enrollmentChanged,
        "biometric unlock is disabled since \(since): \(reason);"
          + " \(ExitStatus.steps(after: reason, sensor).activation)", nil
      )
    case .biometryNotActivated:
      return (
        .biometryUnavailable,
        "biometric unlock is not activated for this vault;"
          + " \(ExitStatus.steps(after: "", sensor).activation)", nil
      )
    case .notEnrolled:
      return (
        .biometryUnavailable,
        "biometry not enrolled (LAError -7): no finger or face is enrolled on the sensor;"
          + " \(ExitStatus.steps(after: "", sensor).enrollment)", nil
      )
    case .biometricNotInteractive:
      return (
        .locked,
        "not interactive (LAError -1004): a biometric match is needed and there is no terminal to"
          + " ask on",
        "run it on a terminal, or queue the simulated sensor's answer: biosim next match"
      )
    case .biometryUnavailable(let code):
      return (.biometryUnavailable, "\(name(code)): \(why(code))", nil)
    case .duplicateRequest:
      return (
        .cancelled,
        "cancelled: a guarded read came less than a second after the last one, so it was taken"
          + " for the same request repeated; nothing was asked or counted", nil
      )
    default:
      preconditionFailure("\(error) is not one of \(Self.self)'s")
    }
  }
}

extension BiometricWords {
  /// The sensor's code as an error line names it: `user cancel (LAError -2)`.
  static func name(_ code: SensorCode) -> String { "\(code.words) (LAError \(code.raw))" }

  /// What the sensor's code means for the prompt, after the code's name: "the biometric prompt
  /// was cancelled" for `userCancel` (-2).
  static func why(_ code: SensorCode) -> String {
    switch LAError.allCases.first(where: { $0.code == code.raw }) {
    case .userCancel?: "the biometric prompt was cancelled"
    case .systemCancel?: "the system interrupted the biometric prompt"
    case .appCancel?: "the prompt was ended by vault, or timed out waiting for the sensor"
    case .invalidContext?: "the authentication context was reused"
    case .biometryNotAvailable?: "no biometric sensor is available (simulated)"
    case .biometryNotPaired?: "no biometric accessory is paired (simulated)"
    case .biometryDisconnected?: "the biometric sensor is disconnected (simulated)"
    default: code.words
    }
  }
}

extension BiometryError: ReportableError {
  /// A call the simulated sensor refuses for what it was given is invalid input (5).
  var exitCode: ExitCode { .invalidInput }

  /// One line for the user.
  var message: String {
    switch self {
    case .emptyReason: "a biometric evaluation needs a non-empty reason"
    }
  }
}
