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
    case .locked(let reason):
      switch reason {
      case .malformedSessionToken, .sessionEnded, .sessionFromOlderRelease:
        return (
          .locked, "locked: \(words(reason))",
          "start a new session with: eval \"$(vault unlock --shell-session)\""
        )
      case .sessionOfAnotherVault:
        return (
          .locked, "locked: \(words(reason))",
          "run 'unset VAULT_SESSION' to use this vault without it, or start a session for it with:"
            + " eval \"$(vault unlock --shell-session)\""
        )
      default:
        return (.locked, "locked: \(words(reason))", "unlock first with: vault unlock")
      }
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

  /// Why the vault is locked, as the message says it after "locked: ".
  static func words(_ reason: LockReason) -> String {
    switch reason {
    case .noDeviceRecord: "this device has no record in the vault's header"
    case .malformedSessionToken: "the session token is malformed"
    case .sessionOfAnotherVault:
      "the session in VAULT_SESSION is for another vault, not this one"
    case .sessionEnded:
      "the session in VAULT_SESSION has ended (its time ran out, the vault was let go, or the"
        + " unlock agent stopped); unlock again"
    case .sessionFromOlderRelease:
      "the session was issued by an older release of vault; unlock again"
    case .sessionsRevoked(let why, let noTerminal):
      words(why) + (noTerminal ? ", and there is no terminal to ask on" : "")
    case .noSessionNoTerminal: "no valid session and no terminal to ask on"
    case .agentVaultReplaced(let path):
      "the file at \(path) is no longer the vault the agent was unlocked for"
    case .agentKeyRotated:
      "the agent held a master key that does not open this vault (it was rotated, or the key"
        + " handed to the agent was not this vault's)"
    case .newKeyPairNeedsRecovery:
      "this device's key pair did not open with its PIN, or its writer key is lost, and a new one"
        + " needs the recovery code: run 'vault recover'"
    case .noTerminalToRead(.secret): "no terminal to read the secret from"
    case .noTerminalToRead(.fieldValue): "no terminal to read the value from"
    case .noTerminalToRead(.oneTimeCode): "no terminal to read the one-time code from"
    }
  }

  /// Why every session was revoked.
  static func words(_ revocation: SessionRevocation) -> String {
    switch revocation {
    case .lock: "the vault was locked with 'vault lock'"
    case .pinChange: "every session was revoked when the PIN was changed"
    case .biometricChange:
      "every session was revoked when the biometric enrollment changed (or biometric unlock was"
        + " re-activated)"
    case .rotation: "every session was revoked when the master key was rotated"
    case .biometryOff: "every session was revoked when biometric unlock was turned off"
    }
  }
}
