import Biometry
import VaultCore
import VaultFormat
import VaultSync

/// Every exit code of `vault` and `biosim`, in one place: `vault(1)` EXIT STATUS, the README and
/// every error report are drawn from it, so no two meanings share a number.
///
/// Stable: scripts rely on them.
public enum ExitCode: Int32, CaseIterable, Sendable {
  /// 0.
  case success = 0
  /// 1: anything not listed (I/O, permissions, out of memory); `vault grep` or `vault find`
  /// found nothing.
  case failure = 1
  /// 3.
  case noSuchEntry = 3
  /// 4.
  case exists = 4
  /// 5: input refused on its merits (a bad name, empty content); nothing was stored.
  case invalidInput = 5
  /// 6.
  case noVault = 6
  /// 10.
  case locked = 10
  /// 11.
  case wrongCredential = 11
  /// 12.
  case notRecognised = 12
  /// 13.
  case cancelled = 13
  /// 14.
  case tooManyAttempts = 14
  /// 15.
  case enrollmentChanged = 15
  /// 16.
  case biometryUnavailable = 16
  /// 17.
  case integrity = 17
  /// 18: the vault changed under a running command.
  case vaultChanged = 18
  /// 19: unsafe permissions or ownership.
  case unsafePermissions = 19
  /// 20: the biometric prompt's fallback button.
  case fallbackChosen = 20
  /// 21: `vault sync`: git or the remote failed.
  case syncFailed = 21
  /// 64.
  case usage = 64
  /// 126: `vault run` found COMMAND but could not start it.
  case cannotRun = 126
  /// 127: `vault run` did not find COMMAND.
  case commandNotFound = 127
  /// 130 (129 and 143 for SIGHUP and SIGTERM).
  case interrupted = 130
  /// 141.
  case brokenPipe = 141

  /// One sentence for the manual and `--help`.
  public var meaning: String { description }

  private var description: String {
    switch self {
    case .success: "Success."
    case .failure:
      "Any other failure (I/O, permissions, out of memory); for 'vault grep' and 'vault find',"
        + " no match."
    case .noSuchEntry:
      "No such entry, field, line or journal entry, or no one-time code in the entry."
    case .exists:
      "The entry (or vault, or its sync repository) already exists; use --force to replace an"
        + " entry."
    case .invalidInput:
      "Invalid input: a bad name, empty content, a bad PIN descriptor, a recovery code with a"
        + " typo, a malformed one-time code URI, an import source with a fault (its line or record"
        + " named). Nothing was stored. Also an export that left an entry out (written, the"
        + " entries left out named): one its format cannot carry, or, with --skip-guarded, a"
        + " guarded one."
    case .noVault: "No vault at the path; create one with 'vault init', or 'vault sync clone'."
    case .locked:
      "Locked and no way to ask: no terminal and no valid session (expired, revoked, forged)."
    case .wrongCredential:
      "Wrong PIN, recovery code or export passphrase, or a PIN bound to another device (the hint"
        + " says which)."
    case .notRecognised: "Biometric not recognised."
    case .cancelled:
      "Cancelled at a prompt, by the system, or timed out; or a guarded read repeated within a"
        + " second (nothing asked or counted)."
    case .tooManyAttempts:
      "Too many attempts: a PIN delay runs, the sensor is locked out, or this vault's failed"
        + " matches need the recovery code."
    case .enrollmentChanged:
      "Biometric enrollment changed: biometric unlock is disabled until re-activation."
    case .biometryUnavailable:
      "Biometry unavailable, not paired, disconnected, not enrolled, without a device passcode,"
        + " or not activated for this vault."
    case .integrity:
      "Integrity failure (the file was edited or corrupted) or unsupported format."
    case .vaultChanged:
      "The vault changed while the command ran (another command wrote first); nothing was"
        + " written, or an edit that lost the race was saved under a new name, as the message"
        + " says. Also when another command kept the vault file busy for more than 10 minutes."
    case .unsafePermissions:
      "Unsafe permissions or ownership of the vault, device state or session path (the hint"
        + " gives the chmod to run), a path there that is not a regular file (a folder, a"
        + " device), or the agent's socket served by a process that is not"
        + " vault's agent."
    case .fallbackChosen:
      "The biometric prompt's fallback button was chosen (vault has no PIN-only path)."
    case .syncFailed:
      "'vault sync': git or the remote failed or could not be reached, or sync is not set up;"
        + " nothing was merged."
    case .usage:
      "Usage error: unknown command or option, missing argument, or a bad option value; also a"
        + " queued 'biosim next' answer that cannot answer the prompt on screen (a test script's"
        + " error)."
    case .cannotRun:
      "'vault run' found COMMAND but could not start it, or 'vault import' could not start gpg."
    case .commandNotFound:
      "'vault run' did not find COMMAND, or 'vault import --from pass' (or gopass) did not find"
        + " gpg. (Otherwise 'vault run' exits with COMMAND's status.)"
    case .interrupted: "Interrupted (Ctrl-C); 129 and 143 for SIGHUP and SIGTERM."
    case .brokenPipe:
      "The reader of standard output went away (as with SIGPIPE); nothing is printed."
    }
  }
}

/// How core errors become exit codes and messages.
public enum ExitStatus {
  /// Every code with its meaning, in the order of the manual.
  public static let table: [(code: Int32, meaning: String)] = ExitCode.allCases.map {
    ($0.rawValue, $0.meaning)
  }

  /// Usage errors.
  public static let usage: Int32 = ExitCode.usage.rawValue

  /// The command that re-activates biometric unlock, quoted in errors.
  static let reactivate = "vault biometry activate"

  /// What the command line says of a core error: its exit code, one line, and a hint.
  public typealias Report = (code: ExitCode, message: String, hint: String?)

  /// The exit code, the one-line message and an optional hint for a core error: the words that
  /// name commands are added here, never in the core; each domain's words are in a file of
  /// their own (`Command/Words/`).
  ///
  /// - Parameter sensor: The simulated sensor as it is now, when known: the steps that turn
  ///   biometric unlock on again name only what it lacks (`ReactivationSteps`).
  public static func report(_ error: VaultError, sensor: SensorState? = nil) -> Report {
    switch error {
    case .wrongPIN, .wrongPINDelayed, .otherDevice, .wrongRecoveryCode, .wrongPassphrase, .pinDelay,
      .locked, .formatOneNeedsUnlock, .journalKeyNotAuthenticated:
      return CredentialWords.report(error)
    case .notFound, .programNotFound, .programNotStarted, .noField, .notText, .tooLarge, .noLine,
      .removed, .purged, .revisionNotFound, .journalEntryNotFound, .noOneTimeCode, .exists,
      .invalidInput, .notAJournalID:
      return EntryWords.report(error)
    case .biometricNotRecognised, .biometricCancelled, .biometricFallback,
      .biometricLockout, .biometricLockoutElsewhere, .biometricLockoutPINNotAskable,
      .biometricLockoutNeedsRecovery, .passcodeNotSet, .sensorScript, .enrollmentChanged,
      .biometryDisabled, .biometryNotActivated, .notEnrolled, .biometricNotInteractive,
      .biometryUnavailable, .duplicateRequest:
      return BiometricWords.report(error, sensor: sensor)
    case .integrity, .malformedHeader, .unsupportedVersion,
      .staleState, .noVault, .vaultExists,
      .unsafePermissions, .agentImpostor, .vaultChanged, .conflict, .storage, .busy:
      return FileWords.report(error)
    case .syncRepositoryExists, .staleSyncRepository, .syncFailed, .remoteMoved, .rotatedElsewhere:
      return SyncWords.report(error)

    }
  }

  /// What turns biometric unlock on again after it was disabled for `reason`: from `sensor` when
  /// known, else from the reason alone (an emptied enrollment needs a template first; a
  /// passcode is assumed set).
  static func steps(after reason: String, _ sensor: SensorState?) -> ReactivationSteps {
    sensor.map(ReactivationSteps.init(sensor:))
      ?? ReactivationSteps(
        passcodeSet: true, enrolled: reason != PendingDisable.emptiedEnrollment)
  }

  /// `45 s`, `5 min`, `1 h`.
  ///
  /// `45 s`, `5 min`, `1 min 29 s`, `1 h`, `7 h 59 min`: exact to the second below an hour and to
  /// the minute above.
  public static func duration(_ seconds: Int) -> String {
    if seconds < 60 { return "\(seconds) s" }
    if seconds < 3600 {
      let rest = seconds % 60
      return "\(seconds / 60) min" + (rest == 0 ? "" : " \(rest) s")
    }
    let minutes = (seconds % 3600) / 60
    return "\(seconds / 3600) h" + (minutes == 0 ? "" : " \(minutes) min")
  }
}
