import VaultCore

/// The documented exit codes of `vault` (see `vault(1)` EXIT STATUS).
///
/// Stable: scripts rely on them.
public enum ExitStatus {
  /// Every code with its meaning, in the order of the manual.
  public static let table: [(code: Int32, meaning: String)] = [
    (0, "Success."),
    (1, "Any other failure (I/O, permissions, out of memory); for 'vault grep', no match."),
    (3, "No such entry or journal entry."),
    (4, "The entry (or vault) already exists; use --force to replace an entry."),
    (5, "Invalid input: a bad name, empty content, a bad option value. Nothing was stored."),
    (6, "No vault at the path; create one with 'vault init'."),
    (10, "Locked and no way to ask: no terminal and no valid session (expired, revoked, forged)."),
    (11, "Wrong PIN or recovery code, or a PIN bound to another device (the hint says which)."),
    (12, "Biometric not recognised."),
    (13, "Cancelled at a prompt, by the system, or timed out."),
    (
      14,
      "Too many attempts: a PIN delay runs, the sensor is locked out, or a guarded read came"
        + " within a second of the last."
    ),
    (15, "Biometric enrollment changed: biometric unlock is disabled until re-activation."),
    (16, "Biometry unavailable, not enrolled, or not activated for this vault."),
    (17, "Integrity failure (the file was edited or corrupted) or unsupported format."),
    (64, "Usage error: unknown command or option, missing argument."),
    (130, "Interrupted (Ctrl-C); 129 and 143 for SIGHUP and SIGTERM."),
    (141, "The reader of standard output went away (as with SIGPIPE); nothing is printed."),
  ]

  /// Usage errors.
  public static let usage: Int32 = 64

  /// The exit code, the one-line message and an optional hint for a core error.
  public static func report(_ error: VaultError) -> (code: Int32, message: String, hint: String?) {
    switch error {
    case .wrongPIN(let left):
      return (11, "wrong PIN (\(left) attempt\(left == 1 ? "" : "s") left before a delay)", nil)
    case .wrongPINDelayed(let seconds):
      return (11, "wrong PIN; the next attempt is allowed in \(duration(seconds))", nil)
    case .otherDevice:
      return (
        11,
        "the PIN of this vault is bound to another device (a copied vault, or the device state"
          + " was reset); no attempt was counted",
        "set a PIN for this device with 'vault recover'"
      )
    case .wrongRecoveryCode:
      return (11, "wrong recovery code", nil)
    case .pinDelay(let seconds):
      return (14, "too many wrong PINs; try again in \(duration(seconds))", nil)
    case .integrity(let what):
      return (17, "integrity failure: \(what)", nil)
    case .malformedHeader(let what):
      return (17, "the vault header is malformed: \(what)", nil)
    case .unsupportedVersion(let version):
      return (17, "unsupported vault format \(version) (this vault reads format 1)", nil)
    case .notFound(let name):
      return (3, "no entry named '\(name)'", "see 'vault list'")
    case .journalEntryNotFound(let what):
      return (3, "no journal entry \(what)", "see 'vault journal list'")
    case .exists(let name):
      return (4, "an entry named '\(name)' exists", "use --force to replace it")
    case .invalidInput(let what):
      return (5, what, nil)
    case .noVault(let path):
      return (6, "no vault at \(path)", "create one with 'vault init'")
    case .vaultExists(let path):
      return (4, "\(path) already exists; vault never overwrites a file", nil)
    case .locked(let why):
      return (10, "locked: \(why)", "unlock first with: eval \"$(vault unlock)\"")
    case .noTerminal(let why, let hint):
      return (10, why, hint)
    case .biometricNotRecognised:
      return (12, "biometric not recognised (simulated sensor)", nil)
    case .cancelled(let why):
      return (13, "cancelled: \(why)", nil)
    case .biometricLockout:
      return (
        14, "the biometric sensor is locked out after too many failed matches",
        "enter your PIN (any command that asks for it) to re-enable biometrics"
      )
    case .enrollmentChanged(let why):
      return (15, why, nil)
    case .biometryUnavailable(let why):
      return (16, why, nil)
    case .duplicateRequest:
      return (
        14, "a guarded read came less than a second after the last one; refused as a duplicate", nil
      )
    case .conflict(let what):
      return (1, what, nil)
    case .storage(let what):
      return (1, what, nil)
    }
  }

  /// `45 s`, `5 min`, `1 h`.
  ///
  /// `45 s`, `5 min`, `1 min 29 s`, `1 h`, `7 h 59 min`: exact to the second below an hour and to
  /// the minute above.
  static func duration(_ seconds: Int) -> String {
    if seconds < 60 { return "\(seconds) s" }
    if seconds < 3600 {
      let rest = seconds % 60
      return "\(seconds / 60) min" + (rest == 0 ? "" : " \(rest) s")
    }
    let minutes = (seconds % 3600) / 60
    return "\(seconds / 3600) h" + (minutes == 0 ? "" : " \(minutes) min")
  }
}
