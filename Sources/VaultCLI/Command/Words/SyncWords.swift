import VaultCore
import VaultFormat
import VaultSync

/// The words of `vault sync`: the remote, the sync repository, a rotation made elsewhere.
enum SyncWords {
  /// The exit code, message and hint of one of this domain's errors (`ExitStatus.report`).
  static func report(_ error: VaultError) -> ExitStatus.Report {
    switch error {
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
    case .syncFailed(let failure):
      return (.syncFailed, "sync failed: \(words(failure)); nothing was merged", nil)
    case .syncRefusedText(let what):
      return (
        .integrity, "the sync remote was refused: \(what); nothing was merged",
        what.hasSuffix(VaultSync.rolledBack)
          ? "if the remote was restored from an older copy on purpose, push that commit back to"
            + " it: git --git-dir=VAULT.sync push --force origin COMMIT:refs/heads/vault (vault(1)"
            + " SYNC)" : nil
      )
    case .remoteMoved(let whilePushing):
      return (
        .vaultChanged,
        "the sync remote moved \(whilePushing ? "while the rotation was pushed" : "since this device's last sync");"
          + " nothing was rotated (the old recovery code still works)",
        "run 'vault sync', then rotate again"
      )
    case .rotatedElsewhere(let what):
      return (
        .locked,
        "the vault's master key was rotated on another device (\(what)); this device takes the"
          + " new key with its PIN", "run 'vault sync' where it can ask for the PIN"
      )
    default:
      preconditionFailure("\(error) is not one of \(Self.self)'s")
    }
  }

  /// Why the sync failed, as the message says it after "sync failed: ".
  static func words(_ failure: SyncFailure) -> String {
    switch failure {
    case .notEnrolled:
      "this vault's devices are not enrolled with its recovery code yet (a vault made before"
        + " release 0.10.0)"
    case .lockInTheWay(let path, let age, let rotating):
      "git's lock file \(path)\(age.map { " (made \(duration($0)) ago)" } ?? "") is in the way on"
        + " the remote, left by a push killed on the remote's side; only when no other device is"
        + " syncing, remove it with 'rm \(ShellWord.argument(path))'"
        + (rotating ? "; nothing was rotated (the old recovery code still works)" : "")
    case .remoteKeptMoving(let retries):
      "the remote moved \(retries) times while this device merged; run 'vault sync' again"
    case .fileNotGiven(let file): "git did not give the file \(file)"
    case .stateFileNotGiven: "git did not give the state file"
    case .noVaultBranch: "the remote holds no vault yet (no branch 'vault')"
    case .notSetUp(let repository):
      "this vault is not set up for sync (no \(Output.printable(repository))); run 'vault sync"
        + " init REMOTE' first"
    case .gitNotFound:
      "'git' was not found on PATH (vault syncs through git; install it, e.g. apt install git)"
    case .gitFailed(let command, let status, let reason):
      "git \(command) exited with \(status)" + (reason.isEmpty ? "" : ": \(reason)")
    }
  }

  /// `seconds` in the largest whole unit: `42 s`, `5 min`, `3 h`, `2 days`.
  static func duration(_ seconds: Double) -> String {
    let whole = Int(seconds)
    return switch whole {
    case ..<60: "\(whole) s"
    case ..<3600: "\(whole / 60) min"
    case ..<172_800: "\(whole / 3600) h"
    default: "\(whole / 86_400) days"
    }
  }

  /// The line standard error shows for a note of a sync.
  static func line(_ note: SyncNote) -> String {
    switch note {
    case .keptBoth(let name): "conflict: \(name): kept both, see vault history \(name)"
    case .changeKeptOverRemoval(let name):
      "conflict: \(name): changed on one device and removed on the other; kept the change, see"
        + " vault history \(name)"
    case .nameTaken(let original, let renamed):
      "conflict: \(original): two entries had this name; kept both, the later as '\(renamed)'"
    case .purgedElsewhere(let name): "purged: \(name): removed with its history on another device"
    case .revocationLost(let device, let signer):
      "vault: note: the revocation of device \(device) made here before the rotation \(signer)"
        + " did not reach the vault: revoke it again ('vault sync revoke \(device)')"
    }
  }
}

extension SyncError: ReportableError {
  /// A remote that cannot be joined is refused (17).
  var exitCode: ExitCode { .integrity }

  /// One line for the user, in the words of `VaultError.syncRefused`.
  var message: String {
    switch self {
    case .devicesNotEnrolled:
      "the sync remote was refused: its devices are not enrolled with the recovery code (a vault"
        + " made before release 0.10.0): run 'vault sync' once on a device that syncs with it;"
        + " nothing was merged"
    // MARK: Records, state, SQLite, entries
    case .damaged(let damage):
      "the sync remote was refused: \(DamageWords.phrase(damage)); nothing was merged"
    case .malformedHeader(let fault):
      "the sync remote was refused: the vault header it carries is malformed:"
        + " \(HeaderWords.phrase(fault)); nothing was merged"
    }
  }
}

extension HandoffError: ReportableError {
  /// Met only while a sync takes a rotation: a refused remote (17).
  var exitCode: ExitCode { .integrity }

  /// One line for the user, in the words of `VaultError.syncRefused`.
  var message: String {
    switch self {
    case .notSealedToThisDevice:
      "the sync remote was refused: the remote's new master key is sealed to no key of this"
        + " device (another device revoked it, or its PIN was set anew with 'vault recover' since"
        + " its last sync); join again with 'vault sync clone' into a new vault file; nothing was"
        + " merged"
    }
  }
}
