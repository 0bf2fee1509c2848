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
    case .remoteMoved(let whilePushing):
      return (
        .vaultChanged,
        "the sync remote moved \(whilePushing ? "while the rotation was pushed" : "since this device's last sync");"
          + " nothing was rotated (the old recovery code still works)",
        "run 'vault sync', then rotate again"
      )
    case .rotatedElsewhere(let signer):
      return (
        .locked,
        "the vault's master key was rotated on another device (\(by(signer))); this device takes"
          + " the new key with its PIN", "run 'vault sync' where it can ask for the PIN"
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

  /// Who signed a rotation's newest link: `by device 1a2b3c4d` (`?` for an id that does not
  /// decode).
  static func by(_ signer: String?) -> String {
    "by device \(signer.map { String($0.prefix(8)) } ?? "?")"
  }

  /// Why the sync remote was refused, as the message says it after "the sync remote was
  /// refused: ".
  static func phrase(_ refusal: SyncRefusal) -> String {
    switch refusal {
    case .noVaultBranch(let synced):
      "the remote has no vault branch, but this device synced commit \(synced.prefix(12)) with it"
        + " (the branch was deleted or the remote replaced)"
    case .rolledBack(let synced):
      "it is older than commit \(synced.prefix(12)), which this device synced (the remote was"
        + " rolled back or forked)"
    case .noStateFile: "the remote's commit has no state file"
    case .stateFileTooLong: "its state file is longer than any vault writes"
    case .recordFileTooLong: "it holds a record file longer than any vault writes"
    case .unwrittenFile(let path): "its commit holds a file vault does not write (\(shown(path)))"
    case .missingFile(let path): "its commit has no \(path) file"
    case .notPlainFile(let path, let mode):
      "its commit holds \(shown(path)) as other than a plain file (git mode \(mode))"
    case .fileNotGiven(let path): "git did not give the file \(path)"
    case .foreignAttributes: "its .gitattributes is not the one vault writes"
    case .headerFailedAuthentication: "the vault header it carries failed authentication"
    case .anotherVaultsHeader: "it carries another vault's header"
    case .publicPartNotHeaders:
      "its state file's public part is not its header's (the rotation links, the master boxes or"
        + " the recovery slot differ)"
    case .filesNotNamed:
      "its files are not the ones its state names (a file was added, changed, removed or put"
        + " back)"
    case .handoffTooLong: "its state file's handoff is longer than any vault writes"
    case .damaged(let failure): phrase(received: failure)
    case .recoverySlotChanged:
      "it changed the vault's recovery slot outside a rotation (whoever holds the master key can;"
        + " only a rotation with the recovery code may)"
    case .kdfOrJournalKeysChanged:
      "it changed the vault's KDF parameters or journal keys outside a rotation (whoever holds the"
        + " master key can; no command does)"
    case .rotationLinksChanged:
      "it changed the vault's rotation links outside a rotation (whoever holds the master key can;"
        + " only a rotation does)"
    case .policyChanged:
      "it changed the policy the vault's new devices start with (whoever holds the master key"
        + " can; no command does)"
    case .thisDeviceRevoked(let deviceID):
      "another device revoked this one (\(deviceID.prefix(8))) from the vault"
    case .writerRetiredWithoutRevocation(let deviceID):
      "it retired a writer key of device \(deviceID.prefix(8)) that no revocation with the"
        + " recovery code retired (a device that held the master key added it)"
    case .rotatedBeforeFirstSync(let signer):
      "its master key was rotated \(by(signer)) and this device never synced; run 'vault sync"
        + " clone' into a new vault file"
    case .notEnrolled: words(.notEnrolled)
    case .enrollmentKeyNotTheCodes: "its header's enrollment key is not this recovery code's"
    case .enrollmentKeyNotAuthorized:
      "its header's enrollment key is not the one its newest rotation authorized"
    case .journalKeysDoNotMatch: "the journal keys of the remote's header do not match"
    case .journalKeyMalformed: "its header's journal key is malformed"
    case .unknownRecordKind: "it holds a record of an unknown kind"
    case .journalEntryDoesNotOpen: "a journal entry of the remote does not open"
    case .deviceDropped(let deviceID):
      "its header dropped the device record \(deviceID.prefix(8)) without a revocation (a device"
        + " that held the master key removed it)"
    case .noRecordOfThisDevice: "its header has no record of this device"
    case .syncRecordPushed(let record):
      "the record \(record.prefix(8)) is a device's own sync record, which no device pushes"
    case .counterRemoved(let record):
      "it removed the counter record \(record.prefix(8)) without its entry (a counter only grows)"
    case .contentOrphaned(let record):
      "a content of record \(record.prefix(8)) belongs to no entry or revision (a record that"
        + " named it was changed or removed without it)"
    case .revisionChanged(let record):
      "it changed the kept revision record \(record.prefix(8)), which never changes"
    case .counterLowered(let record): "it lowered the counter record \(record.prefix(8))"
    case .earlierRevision(let record, let revision, let after):
      "it put back an earlier version of the record \(record.prefix(8)) (revision \(revision)"
        + " after \(after))"
    }
  }

  /// The phrase of a failed check of a file the remote holds: an integrity failure's as it is,
  /// the header's malformation or format as the header it carries.
  static func phrase(received failure: VaultError) -> String {
    switch failure {
    case .integrity(let damage): DamageWords.phrase(damage)
    case .malformedHeader(let fault):
      "the vault header it carries is malformed: \(HeaderWords.phrase(fault))"
    case .unsupportedVersion(let version): "the vault header it carries is of format \(version)"
    default: ExitStatus.report(failure).message
    }
  }

  /// A path of the remote's tree in quotes, or said unprintable when it is long or not ASCII.
  static func shown(_ path: String) -> String {
    let plain = path.utf8.count <= 80 && path.utf8.allSatisfy { (32..<127).contains($0) }
    return plain ? "'\(path)'" : "a file of an unprintable name"
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
      "vault: note: the revocation of device \(device) made here before the rotation \(by(signer))"
        + " did not reach the vault: revoke it again ('vault sync revoke \(device)')"
    }
  }
}

extension SyncError: ReportableError {
  /// A refused remote, or one that cannot be joined, is an integrity failure (17); a state that
  /// cannot be encoded or a rotation with nothing to push is a failure (1).
  var exitCode: ExitCode {
    switch self {
    case .devicesNotEnrolled, .refused: .integrity
    case .stateNotEncodable, .rotationLeftNothingToPush: .failure
    }
  }

  /// One line for the user.
  var message: String {
    switch self {
    case .devicesNotEnrolled:
      "the sync remote was refused: its devices are not enrolled with the recovery code (a vault"
        + " made before release 0.10.0): run 'vault sync' once on a device that syncs with it;"
        + " nothing was merged"
    case .refused(let refusal):
      "the sync remote was refused: \(SyncWords.phrase(refusal)); nothing was merged"
    case .stateNotEncodable: "the sync state cannot be encoded"
    case .rotationLeftNothingToPush: "a rotation left nothing to push"
    }
  }

  /// For a rolled-back remote: how to put a remote restored on purpose back in step.
  var hint: String? {
    guard case .refused(.rolledBack) = self else { return nil }
    return "if the remote was restored from an older copy on purpose, push that commit back to"
      + " it: git --git-dir=VAULT.sync push --force origin COMMIT:refs/heads/vault (vault(1)"
      + " SYNC)"
  }
}

extension HandoffError: ReportableError {
  /// Met only while a sync takes a rotation: a refused remote (17).
  var exitCode: ExitCode { .integrity }

  /// One line for the user, in the words of `SyncError.refused`.
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
