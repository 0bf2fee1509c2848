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

  /// The exit code, the one-line message and an optional hint for a core error: the words that
  /// name commands are added here, never in the core.
  ///
  /// - Parameter sensor: The simulated sensor as it is now, when known: the steps that turn
  ///   biometric unlock on again name only what it lacks (`ReactivationSteps`).
  public static func report(_ error: VaultError, sensor: SensorState? = nil) -> (
    code: ExitCode, message: String, hint: String?
  ) {
    switch error {
    case .wrongPIN(let left):
      return (
        .wrongCredential, "wrong PIN (\(left) attempt\(left == 1 ? "" : "s") left before a delay)",
        nil
      )
    case .wrongPINDelayed(let seconds):
      return (
        .wrongCredential, "wrong PIN; the next attempt is allowed in \(duration(seconds))", nil
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
      return (.tooManyAttempts, "too many wrong PINs; try again in \(duration(seconds))", nil)
    case .integrity(let what):
      return (.integrity, "integrity failure: \(what)", nil)
    case .malformedHeader(let what):
      return (.integrity, "the vault header is malformed: \(what)", nil)
    case .unsupportedVersion(let version):
      return (
        .integrity,
        "unsupported vault format \(version) (this vault reads formats 1 and"
          + " \(Header.currentFormat))", nil
      )
    case .staleState(let found, let foundMAC, let seen, let seenMAC, let older):
      let state = "the vault file's state (generation \(found), \(foundMAC.prefix(8)))"
      let last = "the one this device last saw (generation \(seen), \(seenMAC.prefix(8)))"
      return (
        .integrity,
        older
          ? "integrity failure: \(state) is older than \(last): the file, or part of it, was put"
            + " back from an earlier copy"
          : "integrity failure: \(state) is not a descendant of \(last): the file was replaced"
            + " by another copy",
        "if you restored a backup on purpose, run 'vault check --accept-older'; otherwise keep"
          + " this file aside and restore your latest backup"
      )
    case .formatOneNeedsUnlock:
      return (
        .locked,
        "this vault is in format 1 (release 0.1.0); it is upgraded at its next unlock with the"
          + " PIN", "run: vault unlock"
      )
    case .notFound(let name):
      return (.noSuchEntry, "no entry named '\(name)'", "see 'vault list'")
    case .programNotFound(let program):
      return (.commandNotFound, "'\(program)' was not found on PATH; nothing was read", nil)
    case .programNotStarted(let program, let reason):
      return (.cannotRun, "cannot run '\(program)': \(reason)", nil)
    case .noField(let name, let key, let keys):
      return (
        .noSuchEntry, "'\(name)' has no field '\(key)'",
        "its fields: " + keys.joined(separator: ", ")
      )
    case .notText:
      return (
        .invalidInput,
        "the content is not UTF-8 text (invalid UTF-8 or a NUL byte), so it has no lines or fields",
        "read it whole with 'vault get'"
      )
    case .tooLarge(let name, let length):
      return (
        .invalidInput,
        "'\(name)' is too large to read into memory (\(length) bytes; the limit is"
          + " \(EntryStore.streamThreshold)); nothing was read",
        "read it whole with: vault get \(ShellWord.argument(name)) > FILE"
      )
    case .noLine(let name, let line, let count):
      return (
        .noSuchEntry, "'\(name)' has no line \(line)",
        "it has \(count) line" + (count == 1 ? "" : "s")
      )
    case .removed(let name):
      return (
        .noSuchEntry, "the entry '\(name)' was removed",
        "bring it back with: vault restore \(ShellWord.argument(name))"
      )
    case .purged(let name):
      return (.noSuchEntry, "the entry '\(name)' was purged; nothing of it is kept", nil)
    case .revisionNotFound(let name, let revision?):
      return (
        .noSuchEntry, "no revision \(revision) of '\(name)' is kept", "see 'vault history \(name)'"
      )
    case .revisionNotFound(let name, nil):
      return (.noSuchEntry, "no earlier revision of '\(name)' is kept", nil)
    case .journalEntryNotFound(let what):
      return (.noSuchEntry, "no journal entry \(what)", "see 'vault journal list'")
    case .noOneTimeCode(let name):
      return (
        .noSuchEntry, "'\(name)' has no one-time code (no otp field and no otpauth:// line)",
        "store one with: vault otp \(ShellWord.argument(name)) --set"
      )
    case .exists(let name):
      return (.exists, "an entry named '\(name)' exists", "use --force to replace it")
    case .invalidInput(let what):
      return (.invalidInput, what, nil)
    case .noVault(let path):
      return (
        .noVault, "no vault at \(path)",
        "create one with 'vault init', or join one synced elsewhere with 'vault sync clone REMOTE'"
      )
    case .vaultExists(let path):
      return (.exists, "\(path) already exists; vault never overwrites a file", nil)
    case .syncRepositoryExists(let path, let remote):
      return (
        .exists,
        "this vault already syncs" + (remote.map { " with \(Output.printable($0))" } ?? "")
          + " (its sync repository \(Output.printable(path)) exists)",
        "run 'vault sync'; to sync with another remote, remove that folder first"
      )
    case .staleSyncRepository(let path):
      return (
        .exists,
        "\(Output.printable(path)) is left from an earlier sync of a vault that is no longer there",
        "remove that folder, then run 'vault sync clone' again"
      )
    case .locked(let why):
      return (.locked, "locked: \(why)", "unlock first with: vault unlock")
    case .noTerminal(let why, let hint):
      return (.locked, why, hint)
    case .biometricNotRecognised:
      return (
        .notRecognised,
        "authentication failed (LAError -1): biometric not recognised (simulated sensor)", nil
      )
    case .biometricCancelled(let code, let why):
      return (.cancelled, "\(code): \(why)", nil)
    case .biometricFallback:
      return (
        .fallbackChosen,
        "user fallback (LAError -3): the fallback button was chosen; vault has no PIN-only path,"
          + " so a match is still needed",
        "run the command again and present a matching finger, face or iris"
      )
    case .cancelled(let why):
      return (.cancelled, "cancelled: \(why)", nil)
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
    case .sensorScript(let why):
      return (.usage, "simulated sensor script: \(why)", nil)
    case .enrollmentChanged(let reason):
      return (
        .enrollmentChanged,
        "\(reason) since biometric unlock was activated; it is now disabled and every session"
          + " was revoked; \(steps(after: reason, sensor).activation)", nil
      )
    case .biometryDisabled(let since, let reason):
      return (
        .enrollmentChanged,
        "biometric unlock is disabled since \(since): \(reason);"
          + " \(steps(after: reason, sensor).activation)", nil
      )
    case .biometryNotActivated:
      return (
        .biometryUnavailable,
        "biometric unlock is not activated for this vault;"
          + " \(steps(after: "", sensor).activation)", nil
      )
    case .notEnrolled:
      return (
        .biometryUnavailable,
        "biometry not enrolled (LAError -7): no finger or face is enrolled on the sensor;"
          + " \(steps(after: "", sensor).enrollment)", nil
      )
    case .biometricNotInteractive:
      return (
        .locked,
        "not interactive (LAError -1004): a biometric match is needed and there is no terminal to"
          + " ask on",
        "run it on a terminal, or queue the simulated sensor's answer: biosim next match"
      )
    case .biometryUnavailable(let why, let code):
      return (.biometryUnavailable, code.map { "\($0): \(why)" } ?? why, nil)
    case .notAJournalID(let word):
      return (
        .invalidInput,
        "'\(word)' is not a journal entry ID (1 to 32 hex digits; see 'vault journal list')", nil
      )
    case .duplicateRequest:
      return (
        .cancelled,
        "cancelled: a guarded read came less than a second after the last one, so it was taken"
          + " for the same request repeated; nothing was asked or counted", nil
      )
    case .unsafePermissions(let what, let fix):
      return (.unsafePermissions, "\(what); refusing to use it", fix.map { "run: \($0)" })
    case .agentImpostor(let socket, let pid, let finding):
      return (
        .unsafePermissions,
        "the agent socket \(socket) is served by a process that is not vault's agent (pid"
          + " \(pid): \(finding)); nothing was sent to it",
        "end that process (kill \(pid)) or remove the socket, then run 'vault unlock'; vault(1)"
          + " SECURITY says what vault checks"
      )
    case .journalKeyNotAuthenticated:
      return (
        .locked,
        "this device has never unlocked this vault, so its journal key is not trusted; nothing"
          + " was written", "unlock it once: vault unlock"
      )
    case .vaultChanged(let what):
      return (.vaultChanged, "the vault changed while the command ran: \(what); run it again", nil)
    case .conflict(let what):
      return (.vaultChanged, what, nil)
    case .storage(let what):
      return (.failure, what, nil)
    case .busy(let seconds):
      return (
        .vaultChanged,
        "another vault command kept the vault file busy for more than \(seconds) s; nothing was"
          + " changed", "run it again when that command has ended"
      )
    case .syncFailed(let what):
      return (.syncFailed, "sync failed: \(what); nothing was merged", nil)
    case .syncRefused(let what):
      return (
        .integrity, "the sync remote was refused: \(what); nothing was merged",
        what.hasSuffix(VaultSync.rolledBack)
          ? "if the remote was restored from an older copy on purpose, push that commit back to"
            + " it: git --git-dir=VAULT.sync push --force origin COMMIT:refs/heads/vault (vault(1)"
            + " SYNC)" : nil
      )
    case .remoteMoved(let what):
      return (.vaultChanged, what, "run 'vault sync', then rotate again")
    case .rotatedElsewhere(let what):
      return (
        .locked,
        "the vault's master key was rotated on another device (\(what)); this device takes the"
          + " new key with its PIN", "run 'vault sync' where it can ask for the PIN"
      )
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
