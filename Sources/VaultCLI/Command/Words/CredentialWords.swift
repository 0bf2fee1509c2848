import VaultCore
import VaultFormat

/// The words of a refused or missing credential: a wrong PIN, recovery code or passphrase, a PIN delay, a locked vault, no terminal to ask on.
enum CredentialWords {
  /// The exit code, message and hint of one of this domain's errors (`ExitStatus.report`).
  static func report(_ error: VaultError) -> ExitStatus.Report {
    switch error {
    case .wrongPIN(let left):
      return (
        .wrongCredential, "wrong PIN (\(left) attempt\(left == 1 ? "" : "s") left before a delay)",
        nil
      )
    case .wrongPINDelayed(let seconds):
      return (
        .wrongCredential,
        "wrong PIN; the next attempt is allowed in \(ExitStatus.duration(seconds))", nil
      )
    case .otherDevice:
      return (
        .wrongCredential,
        "the PIN of this vault is bound to another device (a copied vault, or the device state"
          + " was reset); no attempt was counted",
        "set a PIN for this device with 'vault recover'"
      )
    case .wrongRecoveryCode:
      return (.wrongCredential, "wrong recovery code", nil)
    case .wrongPassphrase:
      return (
        .wrongCredential, "wrong passphrase for the export (nothing was read)",
        "it is the passphrase typed twice when the export was made"
      )
    case .pinDelay(let seconds):
      return (
        .tooManyAttempts, "too many wrong PINs; try again in \(ExitStatus.duration(seconds))", nil
      )
    case .formatOneNeedsUnlock:
      return (
        .locked,
        "this vault is in format 1 (release 0.1.0); it is upgraded at its next unlock with the"
          + " PIN", "run: vault unlock"
      )
    case .locked(let why):
      return (.locked, "locked: \(why)", "unlock first with: vault unlock")
    case .noTerminal(let why, let hint):
      return (.locked, why, hint)
    case .journalKeyNotAuthenticated:
      return (
        .locked,
        "this device has never unlocked this vault, so its journal key is not trusted; nothing"
          + " was written", "unlock it once: vault unlock"
      )
    default:
      preconditionFailure("\(error) is not one of \(Self.self)'s")
    }
  }
}
