import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets
import VaultSync
import VaultTransfer
import XCTest

@testable import VaultCLI

/// The words the command line gives the facts the core throws or reports (errors by domain,
/// words at the edge): each case's exact line, hint and exit code, as users saw them when the
/// core composed the sentences.
final class FactWordsTests: XCTestCase {
  func testADeviceWordThatNamesNoDevice() {
    let cases: [(DeviceNameError, String)] = [
      (
        .notHexDigits,
        "DEVICE is 4 to 32 hex digits of a device id, as 'vault sync devices' shows it"
      ),
      (.revokedAlready(digits: "30beeff5"), "the device 30beeff5 was revoked already"),
      (
        .noDevice(digits: "abcd"),
        "no device of this vault has an id that starts with abcd; 'vault sync devices' lists them"
      ),
      (
        .ambiguous(digits: "abcd", count: 2),
        "2 devices have an id that starts with abcd; give more digits"
      ),
      (
        .thisDevice,
        "this is the device you are on; revoke it from another device, or delete its vault file"
      ),
    ]
    for (error, line) in cases {
      XCTAssertEqual(error.message, line)
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertNil(error.hint)
    }
    XCTAssertEqual(
      RevokedAlready(digits: "30beeff5", rekeying: true).message,
      "the device 30beeff5 was revoked already; 'vault rekey' rotates the master key")
  }

  func testARemoteThatCannotBeJoined() {
    XCTAssertEqual(
      SyncError.devicesNotEnrolled.message,
      "the sync remote was refused: its devices are not enrolled with the recovery code (a vault"
        + " made before release 0.10.0): run 'vault sync' once on a device that syncs with it;"
        + " nothing was merged")
    XCTAssertEqual(SyncError.devicesNotEnrolled.exitCode, .integrity)
    let entry: [UInt8] = [0x0b, 0xad, 0xc0, 0xde]
    let damaged = SyncError.refused(
      .damaged(.integrity(.journalEntry(.failedAuthentication(recordID: entry)))))
    XCTAssertEqual(
      damaged.message,
      "the sync remote was refused: journal entry 0badc0de failed authentication; nothing was"
        + " merged")
    XCTAssertEqual(damaged.exitCode, .integrity)
    XCTAssertNil(damaged.hint)
  }

  func testWhyASyncRemoteWasRefused() {
    let commit = "0123456789abcdef0123456789abcdef01234567"
    let device = "30beeff5" + String(repeating: "0", count: 24)
    let record = "5a31f55c" + String(repeating: "1", count: 24)
    let cases: [(SyncRefusal, String)] = [
      (
        .noVaultBranch(synced: commit),
        "the remote has no vault branch, but this device synced commit 0123456789ab with it (the"
          + " branch was deleted or the remote replaced)"
      ),
      (.noStateFile, "the remote's commit has no state file"),
      (.stateFileTooLong, "its state file is longer than any vault writes"),
      (.recordFileTooLong, "it holds a record file longer than any vault writes"),
      (
        .unwrittenFile(path: "notes.txt"),
        "its commit holds a file vault does not write ('notes.txt')"
      ),
      (
        .unwrittenFile(path: "caf\u{E9}"),
        "its commit holds a file vault does not write (a file of an unprintable name)"
      ),
      (.missingFile(path: ".gitattributes"), "its commit has no .gitattributes file"),
      (
        .notPlainFile(path: "state", mode: "120000"),
        "its commit holds 'state' as other than a plain file (git mode 120000)"
      ),
      (.fileNotGiven(path: "records/0a/ff"), "git did not give the file records/0a/ff"),
      (.foreignAttributes, "its .gitattributes is not the one vault writes"),
      (.headerFailedAuthentication, "the vault header it carries failed authentication"),
      (.anotherVaultsHeader, "it carries another vault's header"),
      (
        .publicPartNotHeaders,
        "its state file's public part is not its header's (the rotation links, the master boxes or"
          + " the recovery slot differ)"
      ),
      (
        .filesNotNamed,
        "its files are not the ones its state names (a file was added, changed, removed or put"
          + " back)"
      ),
      (.handoffTooLong, "its state file's handoff is longer than any vault writes"),
      (
        .damaged(.integrity(.record(.nameIndex(name: "mail/work")))),
        "the name index of 'mail/work' is damaged"
      ),
      (
        .damaged(.integrity(.syncState(.anotherVault))),
        "the sync repository holds another vault"
      ),
      (
        .damaged(.integrity(.syncFile(path: "records/0a/ff", .anotherRecord))),
        "the sync file records/0a/ff holds another record than its name says"
      ),
      (
        .damaged(.malformedHeader(.kdf(.saltLength(expected: 16, found: 3)))),
        "the vault header it carries is malformed: a salt is 16 bytes, not 3"
      ),
      (.damaged(.unsupportedVersion(3)), "the vault header it carries is of format 3"),
      (
        .recoverySlotChanged,
        "it changed the vault's recovery slot outside a rotation (whoever holds the master key can;"
          + " only a rotation with the recovery code may)"
      ),
      (
        .kdfOrJournalKeysChanged,
        "it changed the vault's KDF parameters or journal keys outside a rotation (whoever holds"
          + " the master key can; no command does)"
      ),
      (
        .rotationLinksChanged,
        "it changed the vault's rotation links outside a rotation (whoever holds the master key"
          + " can; only a rotation does)"
      ),
      (
        .policyChanged,
        "it changed the policy the vault's new devices start with (whoever holds the master key"
          + " can; no command does)"
      ),
      (
        .thisDeviceRevoked(deviceID: device),
        "another device revoked this one (30beeff5) from the vault"
      ),
      (
        .writerRetiredWithoutRevocation(deviceID: device),
        "it retired a writer key of device 30beeff5 that no revocation with the recovery code"
          + " retired (a device that held the master key added it)"
      ),
      (
        .rotatedBeforeFirstSync(signer: device),
        "its master key was rotated by device 30beeff5 and this device never synced; run 'vault"
          + " sync clone' into a new vault file"
      ),
      (
        .rotatedBeforeFirstSync(signer: nil),
        "its master key was rotated by device ? and this device never synced; run 'vault sync"
          + " clone' into a new vault file"
      ),
      (
        .notEnrolled,
        "this vault's devices are not enrolled with its recovery code yet (a vault made before"
          + " release 0.10.0)"
      ),
      (.enrollmentKeyNotTheCodes, "its header's enrollment key is not this recovery code's"),
      (
        .enrollmentKeyNotAuthorized,
        "its header's enrollment key is not the one its newest rotation authorized"
      ),
      (.journalKeysDoNotMatch, "the journal keys of the remote's header do not match"),
      (.journalKeyMalformed, "its header's journal key is malformed"),
      (.unknownRecordKind, "it holds a record of an unknown kind"),
      (.journalEntryDoesNotOpen, "a journal entry of the remote does not open"),
      (
        .deviceDropped(deviceID: device),
        "its header dropped the device record 30beeff5 without a revocation (a device that held"
          + " the master key removed it)"
      ),
      (.noRecordOfThisDevice, "its header has no record of this device"),
      (
        .syncRecordPushed(record: record),
        "the record 5a31f55c is a device's own sync record, which no device pushes"
      ),
      (
        .counterRemoved(record: record),
        "it removed the counter record 5a31f55c without its entry (a counter only grows)"
      ),
      (
        .contentOrphaned(record: record),
        "a content of record 5a31f55c belongs to no entry or revision (a record that named it was"
          + " changed or removed without it)"
      ),
      (
        .revisionChanged(record: record),
        "it changed the kept revision record 5a31f55c, which never changes"
      ),
      (.counterLowered(record: record), "it lowered the counter record 5a31f55c"),
      (
        .earlierRevision(record: record, revision: 2, after: 3),
        "it put back an earlier version of the record 5a31f55c (revision 2 after 3)"
      ),
    ]
    for (refusal, words) in cases {
      let error = SyncError.refused(refusal)
      XCTAssertEqual(error.exitCode, .integrity)
      XCTAssertEqual(error.message, "the sync remote was refused: \(words); nothing was merged")
      XCTAssertNil(error.hint)
    }
    let rolledBack = SyncError.refused(.rolledBack(synced: commit))
    XCTAssertEqual(rolledBack.exitCode, .integrity)
    XCTAssertEqual(
      rolledBack.message,
      "the sync remote was refused: it is older than commit 0123456789ab, which this device synced"
        + " (the remote was rolled back or forked); nothing was merged")
    XCTAssertEqual(
      rolledBack.hint,
      "if the remote was restored from an older copy on purpose, push that commit back to it: git"
        + " --git-dir=VAULT.sync push --force origin COMMIT:refs/heads/vault (vault(1) SYNC)")
    XCTAssertEqual(SyncError.stateNotEncodable.message, "the sync state cannot be encoded")
    XCTAssertEqual(SyncError.stateNotEncodable.exitCode, .failure)
    XCTAssertEqual(SyncError.rotationLeftNothingToPush.message, "a rotation left nothing to push")
    XCTAssertEqual(SyncError.rotationLeftNothingToPush.exitCode, .failure)
  }

  func testTheDamageOfTheSyncRepositoryAndWhatASyncMerges() {
    let cases: [(Damage, String)] = [
      (.syncFile(path: "records/0a/ff", .malformed), "the sync file records/0a/ff is malformed"),
      (.syncFile(path: "contents/0b/ee", .truncated), "the sync file contents/0b/ee is truncated"),
      (
        .syncFile(path: "records/0a/ff", .unsyncedKind(7)),
        "the sync file records/0a/ff holds a record of a kind that is not synced (7)"
      ),
      (
        .syncFile(path: "records/0a/ff", .anotherRecord),
        "the sync file records/0a/ff holds another record than its name says"
      ),
      (.syncState(.notAStateFile), "the sync repository's state file is not one vault writes"),
      (.syncState(.anotherVault), "the sync repository holds another vault"),
      (.syncState(.malformed), "the sync repository's state file is malformed"),
      (.contentWithoutChunks, "a content of the vault is missing its chunks"),
      (.malformedCounter, "a counter record of the vault is malformed"),
    ]
    for (damage, words) in cases {
      let report = ExitStatus.report(.integrity(damage))
      XCTAssertEqual(report.code, .integrity)
      XCTAssertEqual(report.message, "integrity failure: " + words)
      XCTAssertNil(report.hint)
    }
  }

  func testAMasterKeyRotatedOnAnotherDevice() {
    let report = ExitStatus.report(
      .rotatedElsewhere(signer: "5a31f55c" + String(repeating: "0", count: 24)))
    XCTAssertEqual(report.code, .locked)
    XCTAssertEqual(
      report.message,
      "the vault's master key was rotated on another device (by device 5a31f55c); this device"
        + " takes the new key with its PIN")
    XCTAssertEqual(report.hint, "run 'vault sync' where it can ask for the PIN")
    XCTAssertEqual(
      ExitStatus.report(.rotatedElsewhere(signer: nil)).message,
      "the vault's master key was rotated on another device (by device ?); this device takes the"
        + " new key with its PIN")
  }

  func testWhyASyncFailed() {
    let cases: [(SyncFailure, String)] = [
      (
        .notEnrolled,
        "this vault's devices are not enrolled with its recovery code yet (a vault made before"
          + " release 0.10.0)"
      ),
      (
        .lockInTheWay(path: "/r/refs/heads/vault.lock", age: 7200, rotating: false),
        "git's lock file /r/refs/heads/vault.lock (made 2 h ago) is in the way on the remote, left"
          + " by a push killed on the remote's side; only when no other device is syncing, remove"
          + " it with 'rm /r/refs/heads/vault.lock'"
      ),
      (
        .lockInTheWay(path: "/r x/index.lock", age: nil, rotating: true),
        "git's lock file /r x/index.lock is in the way on the remote, left by a push killed on the"
          + " remote's side; only when no other device is syncing, remove it with 'rm '/r"
          + " x/index.lock''; nothing was rotated (the old recovery code still works)"
      ),
      (
        .remoteKeptMoving(retries: 5),
        "the remote moved 5 times while this device merged; run 'vault sync' again"
      ),
      (.fileNotGiven(file: "0123456789ab"), "git did not give the file 0123456789ab"),
      (.stateFileNotGiven, "git did not give the state file"),
      (.noVaultBranch, "the remote holds no vault yet (no branch 'vault')"),
      (
        .notSetUp(repository: "/h/v.db.sync"),
        "this vault is not set up for sync (no /h/v.db.sync); run 'vault sync init REMOTE' first"
      ),
      (
        .gitNotFound,
        "'git' was not found on PATH (vault syncs through git; install it, e.g. apt install git)"
      ),
      (
        .gitFailed(command: "push", status: 128, reason: "fatal: unable to access"),
        "git push exited with 128: fatal: unable to access"
      ),
      (.gitFailed(command: "fetch", status: 1, reason: ""), "git fetch exited with 1"),
    ]
    for (failure, words) in cases {
      let report = ExitStatus.report(.syncFailed(failure))
      XCTAssertEqual(report.code, .syncFailed)
      XCTAssertEqual(report.message, "sync failed: \(words); nothing was merged")
      XCTAssertNil(report.hint)
    }
    XCTAssertEqual(
      [59.0, 60, 3599, 3600, 172_799, 172_800].map(SyncWords.duration),
      ["59 s", "1 min", "59 min", "1 h", "47 h", "2 days"])
  }

  func testTheNotesOfASync() {
    XCTAssertEqual(
      SyncWords.line(.keptBoth(name: "mail/work")),
      "conflict: mail/work: kept both, see vault history mail/work")
    XCTAssertEqual(
      SyncWords.line(.changeKeptOverRemoval(name: "wifi/office")),
      "conflict: wifi/office: changed on one device and removed on the other; kept the change,"
        + " see vault history wifi/office")
    XCTAssertEqual(
      SyncWords.line(
        .nameTaken(original: "shared/new", renamed: "shared/new (conflict 5a31f55c 2026-12-07)")),
      "conflict: shared/new: two entries had this name; kept both, the later as 'shared/new"
        + " (conflict 5a31f55c 2026-12-07)'")
    XCTAssertEqual(
      SyncWords.line(.purgedElsewhere(name: "old/card")),
      "purged: old/card: removed with its history on another device")
    XCTAssertEqual(
      SyncWords.line(.revocationLost(device: "30beeff5", signer: "by device 5a31f55c")),
      "vault: note: the revocation of device 30beeff5 made here before the rotation by device"
        + " 5a31f55c did not reach the vault: revoke it again ('vault sync revoke 30beeff5')")
  }

  func testAHandoffThatGivesThisDeviceNoKey() {
    XCTAssertEqual(
      HandoffError.notSealedToThisDevice.message,
      "the sync remote was refused: the remote's new master key is sealed to no key of this"
        + " device (another device revoked it, or its PIN was set anew with 'vault recover' since"
        + " its last sync); join again with 'vault sync clone' into a new vault file; nothing was"
        + " merged")
    XCTAssertEqual(HandoffError.notSealedToThisDevice.exitCode, .integrity)
  }

  func testWhatChangedInTheVaultWhileACommandRan() {
    let cases: [(VaultChange, String)] = [
      (.headerChangedFirst, "another command changed its header first"),
      (.headerChangedWhilePINAsked, "its header changed while the PIN was asked for"),
      (.headerChangedSincePINChecked, "its header changed since the PIN was checked"),
      (
        .masterKeyReplaced,
        "its master key was replaced by another command (a 'vault rekey') or the file was"
          + " replaced; nothing was written"
      ),
      (
        .journalKeyReplaced,
        "its journal key was replaced while the entry was being written; nothing was written"
      ),
      (.anotherSync, "another sync of this vault ran meanwhile"),
      (
        .guardedDuringExport(name: "bank\u{202E}"),
        "'bank?' was added or guarded while the export began"
      ),
    ]
    for (change, words) in cases {
      let report = ExitStatus.report(.vaultChanged(change))
      XCTAssertEqual(report.code, .vaultChanged)
      XCTAssertEqual(
        report.message, "the vault changed while the command ran: \(words); run it again")
      XCTAssertNil(report.hint)
    }
    XCTAssertEqual(
      EditNotSaved(change: .masterKeyReplaced).message,
      "the vault changed while the command ran: its master key was replaced by another command (a"
        + " 'vault rekey') or the file was replaced; nothing was written; your edit was not saved"
        + " (edit again); run it again")
  }

  func testWhyTheVaultIsLocked() {
    let cases: [(LockReason, String)] = [
      (.noDeviceRecord, "this device has no record in the vault's header"),
      (.malformedSessionToken, "the session token is malformed"),
      (.sessionUnknown, "the session is unknown or was revoked"),
      (.sessionExpired, "the session has expired"),
      (
        .sessionFromOlderRelease,
        "the session was issued by an older release of vault; unlock again"
      ),
      (.sessionsRevoked(.lock, noTerminal: false), "the vault was locked with 'vault lock'"),
      (
        .sessionsRevoked(.pinChange, noTerminal: true),
        "every session was revoked when the PIN was changed, and there is no terminal to ask on"
      ),
      (
        .sessionsRevoked(.biometricChange, noTerminal: false),
        "every session was revoked when the biometric enrollment changed (or biometric unlock was"
          + " re-activated)"
      ),
      (
        .sessionsRevoked(.rotation, noTerminal: false),
        "every session was revoked when the master key was rotated"
      ),
      (
        .sessionsRevoked(.biometryOff, noTerminal: false),
        "every session was revoked when biometric unlock was turned off"
      ),
      (.noSessionNoTerminal, "no valid session and no terminal to ask on"),
      (
        .sessionKeyRotated,
        "the session holds a master key this vault no longer uses (it was rotated)"
      ),
      (
        .agentVaultReplaced(path: "/v.db"),
        "the file at /v.db is no longer the vault the agent was unlocked for"
      ),
      (
        .agentKeyRotated,
        "the agent held a master key that does not open this vault (it was rotated, or the key"
          + " handed to the agent was not this vault's)"
      ),
      (
        .newKeyPairNeedsRecovery,
        "this device's key pair did not open with its PIN, or its writer key is lost, and a new"
          + " one needs the recovery code: run 'vault recover'"
      ),
      (.noTerminalToRead(.secret), "no terminal to read the secret from"),
      (.noTerminalToRead(.fieldValue), "no terminal to read the value from"),
      (.noTerminalToRead(.oneTimeCode), "no terminal to read the one-time code from"),
    ]
    for (reason, words) in cases {
      let report = ExitStatus.report(.locked(reason))
      XCTAssertEqual(report.code, .locked)
      XCTAssertEqual(report.message, "locked: " + words)
      XCTAssertEqual(report.hint, "unlock first with: vault unlock")
    }
  }

  func testWhatAnotherCommandOrDeviceChangedFirst() {
    let cases: [(Conflict, String)] = [
      (
        .entryChangedWhileEdited(name: "mail/work"), "'mail/work' changed while it was being edited"
      ),
      (
        .entryChangedWhileContentRead(name: "big"),
        "'big' changed while its content was read; nothing was stored"
      ),
      (
        .entryChangedWhileRead(name: "big"),
        "'big' changed while it was being read; nothing was read"
      ),
      (
        .journalEntryChangedWhileEdited(id: "a1cec0b7"),
        "journal entry a1cec0b7 changed or was removed while it was being edited"
      ),
      (
        .keysChangedOnBothSides,
        "this device and the remote both changed the vault's keys or settings since the last sync"
          + " (a rotation or a recovery code); nothing was changed"
      ),
      (
        .syncedSinceRotationHere,
        "another device synced since this vault's master key was rotated here; its changes cannot"
          + " be merged until that device has the new key"
      ),
      (
        .recordMovedSinceLastSync(record: "Zm9vYmFy"),
        "the record Zm9vYmFy is not here as the last sync left it; nothing was changed"
      ),
      (
        .contentPlaceTaken,
        "a content of the remote has the place of one written here since the last sync; nothing"
          + " was changed"
      ),
      (
        .bothRotated(signer: "device 5a31f55c"),
        "this device and another (device 5a31f55c) both rotated the vault's master key since the"
          + " last sync; nothing was changed"
      ),
    ]
    for (conflict, words) in cases {
      let report = ExitStatus.report(.conflict(conflict))
      XCTAssertEqual(report.code, .vaultChanged)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
    let edited = Conflict.entryChangedWhileEdited(name: "mail/work")
    XCTAssertEqual(
      ConflictOutcome(conflict: edited, outcome: .nothingWritten).message,
      "'mail/work' changed while it was being edited; nothing was written (run the command again)")
    XCTAssertEqual(
      ConflictOutcome(conflict: edited, outcome: .editSavedAs(name: "mail/work (edited x)"))
        .message,
      "'mail/work' changed while it was being edited; your edit was saved as 'mail/work (edited x)'"
    )
    XCTAssertEqual(
      ConflictOutcome(
        conflict: .journalEntryChangedWhileEdited(id: "a1cec0b7"),
        outcome: .editSavedAsJournalEntry(id: "0badc0de")
      ).message,
      "journal entry a1cec0b7 changed or was removed while it was being edited; your edit was"
        + " saved as the new entry 0badc0de")
    XCTAssertEqual(
      ConflictOutcome(conflict: edited, outcome: .nothingWritten).exitCode, .vaultChanged)
    XCTAssertEqual(
      RotationTakenFirst(meanwhile: false).message,
      "another device rotated the master key, and this device has just taken the new key; nothing"
        + " else was changed: run the command again to rotate it once more")
    XCTAssertEqual(
      RotationTakenFirst(meanwhile: true).message,
      "another device rotated the master key meanwhile, and this device has just taken the new"
        + " key; the recovery code shown was not put in force: run the command again")
  }

  func testARemoteThatMovedDuringARotation() {
    for (whilePushing, when) in [
      (false, "since this device's last sync"), (true, "while the rotation was pushed"),
    ] {
      let report = ExitStatus.report(.remoteMoved(whilePushing: whilePushing))
      XCTAssertEqual(report.code, .vaultChanged)
      XCTAssertEqual(
        report.message,
        "the sync remote moved \(when); nothing was rotated (the old recovery code still works)")
      XCTAssertEqual(report.hint, "run 'vault sync', then rotate again")
    }
  }

  func testAPathOthersCouldUse() {
    let cases: [(UnsafePath.Problem, String, String?)] = [
      (.notAFolder, "/p is not a folder (a symbolic link?)", "rm '/p'"),
      (.notARegularFile, "/p is not a regular file", nil),
      (.otherUser, "/p belongs to another user", nil),
      (.folderUsableByOthers, "/p can be used by other users", "chmod 700 '/p'"),
      (.fileUsableByOthers, "/p can be read or written by other users", "chmod 600 '/p'"),
      (
        .sharedFolder,
        "/p is shared with other users, who could plant the journal SQLite keeps beside the vault;"
          + " keep the vault in a private folder such as ~/.local/share/vault", nil
      ),
      (.folderWritableByOthers, "/p can be written by other users", "chmod go-w '/p'"),
      (.folderReadableByOthers, "/p can be read by other users", "chmod go-rwx '/p'"),
    ]
    for (problem, what, fix) in cases {
      let report = ExitStatus.report(.unsafePermissions(UnsafePath("/p", problem)))
      XCTAssertEqual(report.code, .unsafePermissions)
      XCTAssertEqual(report.message, what + "; refusing to use it")
      XCTAssertEqual(report.hint, fix.map { "run: " + $0 })
    }
  }

  func testWhatTheSensorsCodesMean() {
    let cases: [(VaultError, ExitCode, String)] = [
      (
        .biometricCancelled(SensorCode(words: "user cancel", raw: -2)), .cancelled,
        "user cancel (LAError -2): the biometric prompt was cancelled"
      ),
      (
        .biometricCancelled(SensorCode(words: "system cancel", raw: -4)), .cancelled,
        "system cancel (LAError -4): the system interrupted the biometric prompt"
      ),
      (
        .biometricCancelled(SensorCode(words: "app cancel", raw: -9)), .cancelled,
        "app cancel (LAError -9): the prompt was ended by vault, or timed out waiting for the"
          + " sensor"
      ),
      (
        .biometricCancelled(SensorCode(words: "invalid context", raw: -10)), .cancelled,
        "invalid context (LAError -10): the authentication context was reused"
      ),
      (
        .biometryUnavailable(SensorCode(words: "biometry not available", raw: -6)),
        .biometryUnavailable,
        "biometry not available (LAError -6): no biometric sensor is available (simulated)"
      ),
      (
        .biometryUnavailable(SensorCode(words: "biometry not paired", raw: -12)),
        .biometryUnavailable,
        "biometry not paired (LAError -12): no biometric accessory is paired (simulated)"
      ),
      (
        .biometryUnavailable(SensorCode(words: "biometry disconnected", raw: -13)),
        .biometryUnavailable,
        "biometry disconnected (LAError -13): the biometric sensor is disconnected (simulated)"
      ),
      (
        .sensorScript(.fallbackNotShown), .usage,
        "simulated sensor script: the queued answer 'fallback' cannot answer this prompt: the"
          + " fallback button shows only after a failed match (Touch ID one, Face ID and Optic ID"
          + " two); it was dropped"
      ),
    ]
    for (error, code, line) in cases {
      let report = ExitStatus.report(error)
      XCTAssertEqual(report.message, line)
      XCTAssertEqual(report.code, code)
      XCTAssertNil(report.hint)
    }
    XCTAssertEqual(Cancelled(why: "no input").message, "cancelled: no input")
    XCTAssertEqual(Cancelled(why: "no input").exitCode, .cancelled)
    XCTAssertEqual(
      BiometryAlreadyOff().message, "biometric unlock is already off for this vault")
    XCTAssertEqual(BiometryAlreadyOff().exitCode, .biometryUnavailable)
  }

  func testFieldsPasswordsAndPatternsRefused() {
    let cases: [(SecretError, String)] = [
      (
        .notAFieldKey("user name"),
        "'user name' is not a field key: use 1 to 64 bytes without spaces, control characters or"
          + " ':'"
      ),
      (
        .valueNotOneLine(key: "a"),
        "a field's value is one line of UTF-8 text: no line break, NUL byte or invalid UTF-8"
      ),
      (
        .valueStartsWithBlank(key: "a"),
        "a field's value cannot start with a space or a tab: the convention reads past them"
      ),
      (
        .valueOpensBlock(key: "a"),
        "a field's value cannot be '|' or '|-' alone: the convention reads that as the start of a"
          + " block of indented lines; write the field with 'vault edit'"
      ),
      (
        .lastLineEndsInCarriageReturn,
        "the entry's last line ends in a carriage return without a line feed, which a new field"
          + " after it would change; add the field with 'vault edit'"
      ),
      (
        .passwordNotRemovable,
        "the password is the first line and cannot be removed; replace it with 'vault set NAME"
          + " password'"
      ),
      (.passwordLength(7, allowed: 8...1024), "the length must be between 8 and 1024"),
      (.wordCount(65, allowed: 3...64), "the word count must be between 3 and 64"),
      (
        .literalNotPrintable,
        "a literal character set has printable ASCII characters only ('!' to '~', no space)"
      ),
      (.emptyLiteral, "'chars:' is followed by no characters"),
      (
        .unknownClass("letters"),
        "unknown character class 'letters' (use lower, upper, digits, symbols, then"
          + " chars:CHARACTERS for a set of your own)"
      ),
      (.tooFewCharacters(count: 1), "the character set has fewer than 2 characters"),
      (.emptyPattern, "the pattern is empty"),
      (
        .invalidPattern("a[", regerror: "Unmatched [, [^, [:, [., or [="),
        "invalid pattern 'a[': Unmatched [, [^, [:, [., or [="
      ),
      (.oneTimeCode(.emptySecret), "the one-time code secret is empty"),
      (
        .oneTimeCode(.secretTooShort(bytes: 1, minimum: 10)),
        "the one-time code secret is 1 byte; at least 10 (16 base32 characters, 80 bits) are"
          + " needed"
      ),
      (
        .oneTimeCode(.secretTooShort(bytes: 9, minimum: 10)),
        "the one-time code secret is 9 bytes; at least 10 (16 base32 characters, 80 bits) are"
          + " needed"
      ),
      (
        .oneTimeCode(.clockOutOfRange(time: -1)),
        "the clock is outside the range one-time codes are made for"
      ),
      (
        .oneTimeCode(.counterExhausted(entry: "mail/work")),
        "the HOTP counter of 'mail/work' cannot grow any more"
      ),
    ]
    for (error, line) in cases {
      XCTAssertEqual(error.message, line)
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertNil(error.hint)
    }
    let notMade = SecretError.oneTimeCodeNotMade(liboath: "Generic error")
    XCTAssertEqual(notMade.message, "liboath could not make the one-time code (Generic error)")
    XCTAssertEqual(notMade.exitCode, .failure)
  }

  /// Every refusal of an `otpauth://` URI, in the words users saw.
  func testEveryOneTimeCodeRefusalSaysWhy() {
    let notBase32 =
      "the one-time code secret is not base32 (letters A to Z and digits 2 to 7, with or without ="
      + " padding and spaces)"
    let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    let cases: [(String, String)] = [
      ("https://example.com/?secret=\(secret)", "the one-time code is not an otpauth:// URI"),
      (
        "otpauth://motp/x?secret=\(secret)",
        "the otpauth URI's type 'motp' is unknown: use otpauth://totp/... or otpauth://hotp/..."
      ),
      ("otpauth://totp/x?issuer=a", "the otpauth URI has no secret= parameter"),
      ("otpauth://totp/x?secret=", "the one-time code secret is empty"),
      ("otpauth://totp/x?secret=%20%20", "the one-time code secret is empty"),
      ("otpauth://totp/x?secret=GEZ1GNBV", notBase32),
      ("otpauth://totp/x?secret=ABC", notBase32),
      ("otpauth://totp/x?secret=\(secret)&secret=\(secret)", "the otpauth URI gives secret= twice"),
      (
        "otpauth://totp/x?secret=\(secret)&DIGITS=6&digits=6", "the otpauth URI gives digits= twice"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&digits=9",
        "the otpauth URI's digits must be 6, 7 or 8, not '9'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&digits=5",
        "the otpauth URI's digits must be 6, 7 or 8, not '5'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&digits=",
        "the otpauth URI's digits must be 6, 7 or 8, not ''"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&digits=+6",
        "the otpauth URI's digits must be 6, 7 or 8, not '+6'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&period=0",
        "the otpauth URI's period must be whole seconds from 1 to 86400, not '0'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&period=-30",
        "the otpauth URI's period must be whole seconds from 1 to 86400, not '-30'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&period=86401",
        "the otpauth URI's period must be whole seconds from 1 to 86400, not '86401'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&period=99999999999999999999999",
        "the otpauth URI's period must be whole seconds from 1 to 86400, not '99999999999999999999999'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&algorithm=MD5",
        "the otpauth URI's algorithm 'MD5' is unknown: use SHA1, SHA256 or SHA512"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&algorithm=SHA-256",
        "the otpauth URI's algorithm 'SHA-256' is unknown: use SHA1, SHA256 or SHA512"
      ),
      (
        "otpauth://hotp/x?secret=\(secret)",
        "an otpauth://hotp URI needs a counter= parameter (its first counter, such as 0)"
      ),
      (
        "otpauth://hotp/x?secret=\(secret)&counter=-1",
        "the otpauth URI's counter must be a whole number from 0 to 9223372036854775807, not '-1'"
      ),
      (
        "otpauth://hotp/x?secret=\(secret)&counter=9223372036854775808",
        "the otpauth URI's counter must be a whole number from 0 to 9223372036854775807, not"
          + " '9223372036854775808'"
      ),
      (
        "otpauth://hotp/x?secret=\(secret)&counter=1e3",
        "the otpauth URI's counter must be a whole number from 0 to 9223372036854775807, not '1e3'"
      ),
      (
        "otpauth://hotp/x?secret=\(secret)&counter=0&algorithm=SHA256",
        "an otpauth://hotp URI's algorithm must be SHA1 (HOTP is HMAC-SHA-1), not 'SHA256'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&algorithm=%0a",
        "the otpauth URI's algorithm '?' is unknown: use SHA1, SHA256 or SHA512"
      ),
      (
        "otpauth://totp/x?secret=GEZD%2",
        "the otpauth URI has a '%' that is not followed by two hex digits"
      ),
      (
        "otpauth://totp/x%zz?secret=\(secret)",
        "the otpauth URI has a '%' that is not followed by two hex digits"
      ),
      (
        "otpauth://totp/x?secret=" + String(repeating: "A", count: 1640),
        "the one-time code secret is longer than 1024 bytes"
      ),
    ]
    for (uri, message) in cases {
      XCTAssertThrowsError(try OneTimeCode(uri: SecureBytes(copying: Array(uri.utf8))), uri) {
        XCTAssertEqual(($0 as? SecretError)?.message, message, uri)
        XCTAssertEqual(($0 as? SecretError)?.exitCode, .invalidInput, uri)
      }
    }
    XCTAssertThrowsError(
      try OneTimeCode(
        secret: SecureBytes(copying: Array("0123456789".utf8)), kind: .hotp(counter: 0),
        algorithm: .sha512)
    ) {
      XCTAssertEqual(
        ($0 as? SecretError)?.message,
        "an otpauth://hotp URI's algorithm must be SHA1 (HOTP is HMAC-SHA-1), not 'SHA512'")
    }
  }

  func testAnExportTheWritersRefuse() {
    let cases: [(ExportError, String)] = [
      (.entryAfterJournal, "an export's entries come before its journal entries"),
      (.notInOrder(name: "a"), "an export's entries are in ascending order of their names"),
      (.badMetadata(name: "a"), "'a' cannot be exported: bad metadata"),
      (.journalEntrySize(bytes: 0), "a journal entry holds 1 byte to 16 MiB"),
      (.largeNeedsBase64(name: "big"), "'big' is large: a csv export of it is content_b64"),
      (.noPassphrase, "a vault export needs a passphrase"),
    ]
    for (error, line) in cases {
      XCTAssertEqual(error.message, line)
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertNil(error.hint)
    }
    let report = ExitStatus.report(.integrity(.exportedContent(name: "a", stored: 3, read: 2)))
    XCTAssertEqual(report.code, .integrity)
    XCTAssertEqual(report.message, "integrity failure: the content of 'a' is not its stored length")
    XCTAssertNil(report.hint)
  }

  func testAnImportSourcesFault() {
    XCTAssertEqual(TransferWords.phrase(.csvImport(.nameEmpty)), "the name is empty")
    XCTAssertEqual(
      TransferWords.phrase(.fields(.notAFieldKey("user name"))),
      "fields: 'user name' is not a field key: use 1 to 64 bytes without spaces, control"
        + " characters or ':'")
    XCTAssertEqual(
      TransferWords.phrase(.fields(.valueNotOneLine(key: "a"))),
      "fields: a field's value is one line of UTF-8 text: no line break, NUL byte or invalid"
        + " UTF-8")
  }

  // MARK: Header, keyslots, devices, files, format 1, biometry

  func testDamageOfTheHeaderKeyslotsDevicesFilesAndFormatOne() {
    let device = "0123456789abcdef0123456789abcdef"
    let cases: [(Damage, String)] = [
      (.sealed(object: "x", .truncated), "x is truncated"),
      (.sealed(object: "x", .failedAuthentication), "x failed authentication"),
      (
        .sealed(object: "the journal key", .failedAuthentication),
        "the journal key failed authentication"
      ),
      (
        .sealed(object: "the content of 'c'", .failedAuthentication),
        "the content of 'c' failed authentication"
      ),
      (
        .sealed(object: "message 1 of the export", .failedAuthentication),
        "message 1 of the export failed authentication"
      ),
      (.sealed(object: "the export", .noStreamHeader), "the export has no stream header"),
      (
        .sealed(object: "the export", .malformedStreamHeader),
        "the export has a malformed stream header"
      ),
      (
        .sealed(object: "message 2 of the export", .wrongPieceLength),
        "message 2 of the export has a piece of the wrong length"
      ),
      (.wrongLength(.nonce, expected: 24, found: 23), "a nonce is 24 bytes, not 23"),
      (
        .wrongLength(.signingSeed, expected: 32, found: 31),
        "a signing key seed is 31 bytes, not 32"
      ),
      (.wrongLength(.signingKey, expected: 64, found: 63), "a signing key is 63 bytes, not 64"),
      (.signingKeyMismatch, "a signing key's public half does not match its seed"),
      (.notAVaultFile(path: "/h/v.db"), "/h/v.db is not a vault file"),
      (
        .sqliteHeader(byte: 18, found: 2, expected: 1),
        "the vault file's SQLite header is damaged (byte 18 is 2, not 1)"
      ),
      (.headerFailedAuthentication, "the vault header failed authentication (the file was edited)"),
      (
        .formatOne(.keyslotsEdited),
        "the vault header's KDF parameters or keyslots were edited (they do not match this"
          + " device's record)"
      ),
      (
        .formatOne(.copyOfMigratedVault),
        "this is a format 1 copy of a vault this device has already seen in format 2 (an old copy"
          + " was put back); nothing was read"
      ),
      (.formatOne(.malformedRow), "a format 1 row is malformed"),
      (.formatOne(.unknownRowKind), "a format 1 row has an unknown kind"),
      (.formatOne(.malformedMetadata), "an entry's metadata is malformed"),
      (
        .formatOne(.missingOrExtraChunks(name: "big")),
        "the content of 'big' has missing or extra chunks"
      ),
      (.formatOne(.misplacedChunks(name: "big")), "the content of 'big' has misplaced chunks"),
      (
        .formatOne(.longerThanRecorded(name: "big")), "the content of 'big' is longer than recorded"
      ),
      (
        .formatOne(.shorterThanRecorded(name: "big")),
        "the content of 'big' is shorter than recorded"
      ),
      (
        .recoverySlot(.editedUnderRightCode),
        "the vault's recovery slot or KDF parameters were edited (the recovery code is right)"
      ),
      (.recoverySlot(.failedAuthentication), "the vault's recovery slot failed authentication"),
      (
        .handoff(.fromNoKeyHeld(maximumHandoffs: 16)),
        "the remote's master key was rotated from none this device holds (more than 16 rotations"
          + " ago, or the remote is not this vault's)"
      ),
      (.handoff(.notConsecutive), "the remote's rotations do not follow one another"),
      (
        .handoff(.unknownSigner),
        "the remote's master key was rotated by a device this one does not know"
      ),
      (.handoff(.notSigned), "a rotation of the remote's master key is not signed"),
      (
        .handoff(.notAuthorized),
        "a rotation of the remote's master key was not authorized with the vault's recovery code"
          + " (a device that holds the old key made it, or the remote was rolled back to before a"
          + " revocation)"
      ),
      (
        .handoff(.sealedKeyNotRotated),
        "the master key sealed to this device is not the rotated one"
      ),
      (.device(.secretLength(found: 31)), "a device secret is 32 bytes, not 31"),
      (
        .device(.masterKeyBoundElsewhere),
        "the master key sealed to this device is bound elsewhere"
      ),
      (.device(.notEnrolled), "the vault's devices are not enrolled with its recovery code"),
      (
        .device(.recordNotEnrolled(deviceID: device)),
        "the device record 01234567 was not enrolled with the vault's recovery code (a device"
          + " that held the master key added or changed it)"
      ),
      (
        .device(.revocationNotAuthorized(deviceID: device)),
        "the revocation of device 01234567 was not authorized with the vault's recovery code (a"
          + " device that held the master key revoked it)"
      ),
      (
        .device(.stateCorrupt(path: "/h/.vault/device.json")),
        "the device state /h/.vault/device.json is corrupt"
      ),
      (
        .simulatedSensor(.malformedState),
        "the simulated sensor's state in the device state is malformed"
      ),
      (
        .simulatedSensor(.unknownOutcome("wobble")),
        "the simulated sensor's queue holds an unknown outcome \"wobble\""
      ),
      (
        .simulatedSensor(.counterAtMaximum(field: "os_epoch")),
        "the simulated sensor's os_epoch is at its maximum"
      ),
    ]
    for (damage, words) in cases {
      let report = ExitStatus.report(.integrity(damage))
      XCTAssertEqual(report.code, .integrity)
      XCTAssertEqual(report.message, "integrity failure: " + words)
      XCTAssertNil(report.hint)
      XCTAssertEqual(
        SyncError.refused(.damaged(.integrity(damage))).message,
        "the sync remote was refused: \(words); nothing was merged")
      XCTAssertEqual(SyncError.refused(.damaged(.integrity(damage))).exitCode, .integrity)
    }
  }

  func testWhyTheHeaderIsMalformed() {
    let cases: [(HeaderFault, String)] = [
      (.body(.missing), "the vault has no header"),
      (.body(.tooLarge), "the header is larger than 64 KiB"),
      (.body(.notAJSONObject), "the header is not a JSON object"),
      (.body(.noFormatVersion), "the header has no format version"),
      (.body(.fieldsNotValid), "the header fields are not valid"),
      (.unknownField(.header, name: "x"), "unknown header field 'x'"),
      (.unknownField(.rotation, name: "x"), "unknown rotation field 'x'"),
      (.unknownField(.handoff, name: "extra"), "unknown handoff field 'extra'"),
      (.unknownField(.revocation, name: "x"), "unknown revocation field 'x'"),
      (.unknownField(.retiredWriter, name: "x"), "unknown retired writer field 'x'"),
      (.unknownField(.deviceRecord, name: "extra"), "unknown device record field 'extra'"),
      (.unknownField(.biometry, name: "x"), "unknown biometry field 'x'"),
      (.unknownField(.recoverySlot, name: "pin"), "unknown recovery slot field 'pin'"),
      (.unknownPolicy("none"), "unknown policy 'none'"),
      (.unknownBiometryState("on"), "unknown biometry state 'on'"),
      (.vaultIDLength(found: 15), "a vault id is 16 bytes, not 15"),
      (.deviceRecords(.count(maximum: 64)), "the header needs 1 to 64 device records"),
      (.deviceRecords(.sharedIDOrTag), "two device records share an id or a tag"),
      (
        .deviceRecords(.enrolledWithoutKey),
        "a device record is enrolled in a header with no enrollment key"
      ),
      (.deviceRecords(.notEnrolled), "a device record is not enrolled"),
      (
        .deviceRecords(.enrollmentSerialOutOfBounds(0)),
        "enrollment_serial 0 is out of bounds"
      ),
      (.deviceRecords(.activeBiometryWithoutSeal), "an active biometry record has no seal"),
      (.lists(.rotationsOutOfOrder), "the header's rotations are out of order or bounds"),
      (.lists(.tooManyHandoffs(maximum: 16)), "the header holds more than 16 handoffs"),
      (
        .lists(.revokedDevicesInvalid(maximum: 256)),
        "the header's revoked_devices repeat an id, name a device it holds, or exceed 256"
      ),
      (
        .lists(.revocationsNotOnePerDevice),
        "the header's revocations are not one for each revoked device of an enrolled header"
      ),
      (.lists(.revocationMissing), "a revoked device of an enrolled header has no revocation"),
      (
        .lists(.tooManyRetiredWriters(maximum: 256)),
        "the header holds more than 256 retired writer keys"
      ),
      (.keyslots(.formatOneSlots), "the header needs one pin and one recovery keyslot"),
      (.keyslots(.noPINSlot), "no PIN slot"),
      (.keyslots(.noRecoverySlot), "no recovery slot"),
      (.keyslots(.verifierWithoutTag), "the recovery slot has a verifier without a tag"),
      (.kdf(.saltLength(expected: 16, found: 15)), "a salt is 16 bytes, not 15"),
      (
        .kdf(.outOfBounds(parameter: "opslimit", value: 17)),
        "Argon2id opslimit 17 is out of bounds"
      ),
      (
        .kdf(.outOfBounds(parameter: "memlimit", value: 8_589_934_592)),
        "Argon2id memlimit 8589934592 is out of bounds"
      ),
      (
        .kdf(.profileMismatch(profile: "moderate")),
        "Argon2id profile 'moderate' does not match its values"
      ),
    ]
    for (fault, words) in cases {
      let report = ExitStatus.report(.malformedHeader(fault))
      XCTAssertEqual(report.code, .integrity)
      XCTAssertEqual(report.message, "the vault header is malformed: " + words)
      XCTAssertNil(report.hint)
      XCTAssertEqual(
        SyncError.refused(.damaged(.malformedHeader(fault))).message,
        "the sync remote was refused: the vault header it carries is malformed: \(words);"
          + " nothing was merged")
    }
  }

  func testTheStorageFailuresOfFilesAndMemory() {
    let cases: [(StorageFailure, String)] = [
      (
        .file(.read, path: "/h/v.db", errno: ENOENT),
        "cannot read /h/v.db: No such file or directory"
      ),
      (.notAFolder(path: "/h/v"), "/h/v exists and is not a folder"),
      (.headerNotEncodable, "the vault header cannot be encoded"),
      (.privateFileNotMade(beside: "/h/v.db"), "cannot create a private file beside /h/v.db"),
      (
        .builtFileReplaced(beside: "/h/v.db"),
        "the file being built beside /h/v.db was replaced; nothing was made"
      ),
      (
        .building(
          path: "/h/v.db", temporary: "/h/.v.db.creating-ab",
          .file(.write, path: "/h/.v.db.creating-ab", errno: ENOSPC)),
        "cannot write /h/v.db: No space left on device"
      ),
      (
        .building(path: "/h/v.db", temporary: "/h/.t", .outOfMemory(bytes: 10)),
        "out of memory for 10 bytes"
      ),
      (.sensorStateNotEncodable, "the simulated sensor's state cannot be encoded"),
      (.kdfOutOfMemory(mebibytes: 256), "Argon2id could not allocate 256 MiB"),
      (.outOfMemory(bytes: 10), "out of memory for 10 bytes"),
    ]
    for (failure, words) in cases {
      let report = ExitStatus.report(.storage(failure))
      XCTAssertEqual(report.code, .failure)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
  }

  func testRefusedPINsRecoveryCodesAndVaultIDs() {
    let cases: [(InputFault, String)] = [
      (.pin(.controlCharacter), "the PIN contains a control character"),
      (.pin(.tooShort(minimum: 4)), "the PIN must have at least 4 characters"),
      (.pin(.tooLong(maximumBytes: 1024)), "the PIN is longer than 1024 bytes"),
      (.pin(.notUTF8), "the PIN is not valid UTF-8"),
      (
        .recoveryCode(.malformed),
        "a recovery code is 36 symbols (32 in a code shown without its check group) of 0-9 and"
          + " A-Z (I and L read as 1, O as 0, no U)"
      ),
      (
        .recoveryCode(.typo),
        "the recovery code has a typo: its last group does not match the other symbols; check"
          + " each group (nothing was tried)"
      ),
      (.notAVaultID("xyz"), "'xyz' is not a vault id"),
    ]
    for (fault, words) in cases {
      let report = ExitStatus.report(.invalidInput(fault))
      XCTAssertEqual(report.code, .invalidInput)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
    XCTAssertEqual(
      BiometryError.emptyReason.message, "a biometric evaluation needs a non-empty reason")
    XCTAssertEqual(BiometryError.emptyReason.exitCode, .invalidInput)
  }

  // MARK: Core, agent, journal

  func testDamageTheCoreTheAgentAndTheJournalFind() {
    let id = "0f0f0f0f" + String(repeating: "ab", count: 12)
    let idBytes: [UInt8] = [0x0f, 0x0f, 0x0f, 0x0f] + Array(repeating: 0xab, count: 12)
    let cases: [(Damage, String)] = [
      (
        .keys(.editedSinceAuthenticated),
        "the vault header was edited since this device last authenticated it"
      ),
      (
        .keys(.keyslotsEdited),
        "the vault header's KDF parameters or keyslots were edited (they do not match this"
          + " device's record)"
      ),
      (
        .keys(.masterBoxEdited),
        "the master key sealed to this device does not open (the vault header's master_box was"
          + " edited)"
      ),
      (
        .keys(.enrollmentKeyNotRecoveryCodes),
        "the vault's enrollment key is not its recovery code's (the recovery slot was edited by"
          + " whoever held the master key)"
      ),
      (
        .keys(.recoverySlotHoldsAnotherKey),
        "the recovery slot does not hold the vault's master key"
      ),
      (
        .keys(.writerKeyNotHeaders),
        "this device's writer key is not the one in the vault's header; unlock with the PIN once,"
          + " then rotate"
      ),
      (
        .keys(.journalKeyDiffers),
        "the vault's journal key differs from the one this device last authenticated; nothing was"
          + " written"
      ),
      (.biometricSealMalformed, "the biometric seal is malformed"),
      (
        .tables(.structure(findings: ["row 3 missing from index x", "page 7 is never used"])),
        "the database structure is damaged: row 3 missing from index x (and 1 more)"
      ),
      (.tables(.structure(findings: [])), "the database structure is damaged: no answer"),
      (.tables(.unwrittenKinds(count: 2)), "2 record(s) of a kind this version does not write"),
      (.tables(.unknownKind(9)), "a record of the vault has an unknown kind (9)"),
      (.tables(.malformedRecord(id: id)), "record 0f0f0f0f is malformed"),
      (
        .tables(.chunksMissingOrExtra(name: "big")),
        "the content of 'big' has missing or extra chunks"
      ),
      (.tables(.chunksOfNoVersion), "content chunks of the vault belong to no entry or revision"),
      (.tables(.unaccountedRows(count: 1)), "1 row(s) of the vault cannot be accounted for"),
      (
        .journalEntry(.failedAuthentication(recordID: idBytes)),
        "journal entry 0f0f0f0f failed authentication"
      ),
      (
        .journalEntry(.signedByNoAuthorizedWriter(recordID: idBytes)),
        "journal entry 0f0f0f0f is signed by no authorized writer"
      ),
      (
        .journalEntry(.storedUnderAnotherRevision(recordID: idBytes)),
        "journal entry 0f0f0f0f is stored under another revision"
      ),
      (
        .pendingJournalEntryRefused(
          hexID: id, reason: .journalEntry(.copiedFromAnotherEntry), others: 3),
        "pending journal entry 0f0f0f0f is refused: a journal entry was copied from another entry"
          + " (and 3 more)"
      ),
      (
        .pendingJournalEntryRefused(
          hexID: id, reason: .journalEntry(.signedByNoAuthorizedWriter(recordID: idBytes)),
          others: 0),
        "pending journal entry 0f0f0f0f is refused: journal entry 0f0f0f0f is signed by no"
          + " authorized writer"
      ),
      (
        .session(.vaultIDChanged),
        "the vault id in the header changed since this session was issued (the file was edited or"
          + " damaged)"
      ),
      (.session(.malformed(path: nil)), "the session file is malformed"),
      (.session(.malformed(path: "/s/ab")), "the session file /s/ab is malformed"),
      (
        .session(.anotherVaultsID(path: "/s/ab")), "the session file /s/ab holds another vault's id"
      ),
      (
        .session(.failedAuthentication(path: "/s/ab")),
        "the session file /s/ab failed authentication (it was edited or damaged)"
      ),
      (.export(.cutShortInHeader), "the export is cut short inside its header"),
      (
        .export(.endsBeforeFirstMessage),
        "the export is cut short: it ends before its first message"
      ),
      (
        .export(.endsWithoutFinalMessage(messages: 2)),
        "the export is cut short: it ends after 2 messages without its final one"
      ),
      (
        .export(.endsWithoutFinalMessage(messages: 1)),
        "the export is cut short: it ends after 1 message without its final one"
      ),
      (.export(.bytesAfterFinalMessage), "bytes follow the export's final message"),
      (.export(.unknownTag(message: 4)), "message 4 of the export has an unknown tag"),
      (
        .export(.shortMessage(1)),
        "the export is cut short: message 1 is short and not the final one"
      ),
    ]
    for (damage, words) in cases {
      let report = ExitStatus.report(.integrity(damage))
      XCTAssertEqual(report.code, .integrity)
      XCTAssertEqual(report.message, "integrity failure: " + words)
      XCTAssertNil(report.hint)
    }
    let header = ExitStatus.report(.malformedHeader(.keyslots(.noRecoverySlot)))
    XCTAssertEqual(header.code, .integrity)
    XCTAssertEqual(header.message, "the vault header is malformed: no recovery slot")
  }

  func testWhyAPendingJournalRowIsRefused() {
    let cases: [(Damage, String)] = [
      (.journalEntry(.malformedRow), "the row is malformed"),
      (
        .journalEntry(.failedAuthentication(recordID: [0xab, 0xcd, 0xef, 0x01, 0x23])),
        "journal entry abcdef01 failed authentication"
      ),
      (.journalEntry(.malformed), "a journal entry is malformed"),
      (.journalEntry(.copyOfFoldedEntry), "a copy of an entry already in the journal"),
      (
        .journalEntry(.sequenceReused(7)),
        "its writer's sequence number 7 was already used (a replayed entry)"
      ),
    ]
    for (refusal, words) in cases {
      XCTAssertEqual(DamageWords.phrase(refusal), words)
    }
  }

  func testRefusedPINsImportItemsAndJournalTexts() {
    let cases: [(InputFault, String)] = [
      (.pin(.controlCharacter), "the PIN contains a control character"),
      (.pin(.tooShort(minimum: 4)), "the PIN must have at least 4 characters"),
      (.pin(.tooLong(maximumBytes: 1024)), "the PIN is longer than 1024 bytes"),
      (.pin(.notUTF8), "the PIN is not valid UTF-8"),
      (.pin(.tooShortToSet(minimum: 6)), "a new PIN needs at least 6 characters"),
      (
        .nameGivenTwice(name: "mail/work", at: "line 2"),
        "the name 'mail/work' is already given at line 2"
      ),
      (
        .noFreeName(name: "x", at: "record 3"),
        "the name 'x' is already given at record 3, and no 'NAME (N)' for it is a valid name"
      ),
      (.emptyContent, "the content is empty"),
      (.emptyJournalEntry, "the journal entry is empty"),
      (.journalEntryTooLarge, "a journal entry is limited to 16 MiB"),
    ]
    for (fault, words) in cases {
      let report = ExitStatus.report(.invalidInput(fault))
      XCTAssertEqual(report.code, .invalidInput)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
  }

  func testASessionFolderThatCannotBeMovedAway() {
    let report = ExitStatus.report(
      .storage(.sessionsNotRevoked(folder: "/run/user/1000/vault/ab", errno: EACCES)))
    XCTAssertEqual(report.code, .failure)
    XCTAssertEqual(
      report.message, "cannot revoke the sessions in /run/user/1000/vault/ab: Permission denied")
  }

  func testWhatWentWrongWithTheAgent() {
    let cases: [(AgentError, ExitCode, String)] = [
      (.notRunning, .failure, "the unlock agent is not running"),
      (.keyNotTaken(nil), .failure, "the unlock agent did not take the key"),
      (.keyNotTaken(.closed), .failure, "the unlock agent did not take the key (closed)"),
      (.keyNotTaken(.system(32)), .failure, "the unlock agent did not take the key (system(32))"),
      (
        .socketOfAnotherUser(socket: "/run/user/1000/vault/agent.sock"), .integrity,
        "integrity failure: the agent socket /run/user/1000/vault/agent.sock is served by another"
          + " user's process"
      ),
      (.requestTooLarge, .invalidInput, "the request to the agent is larger than 4 MiB"),
    ]
    for (error, code, words) in cases {
      XCTAssertEqual(error.exitCode, code)
      XCTAssertEqual(error.message, words)
      XCTAssertNil(error.hint)
    }
  }

  func testAnImpostorOnTheAgentSocket() {
    let cases: [(PeerFinding, String)] = [
      (.noPeer, "the kernel names no peer"),
      (.notHeld, "its process could not be held"),
      (.wrongGroup(1000, expected: 998), "it runs with group 1000, not vault's group 998"),
      (.ownExecutableUnreadable, "this process cannot read its own executable"),
      (.otherProgram("/usr/bin/nc"), "its program is /usr/bin/nc"),
      (.otherProgram(nil), "its program is another program"),
      (.dumpable, "it is dumpable"),
      (.executableUnreadable, "its executable cannot be read"),
      (.ended, "it ended while it was checked"),
      (.noGreeting, "it did not greet as vault's agent"),
      (.anotherWriter(pid: 4242), "another process (pid 4242) speaks for it"),
    ]
    for (finding, words) in cases {
      let report = ExitStatus.report(.agentImpostor(socket: "/a.sock", pid: 77, finding: finding))
      XCTAssertEqual(report.code, .unsafePermissions)
      XCTAssertEqual(
        report.message,
        "the agent socket /a.sock is served by a process that is not vault's agent (pid 77: "
          + words + "); nothing was sent to it")
    }
  }

  func testAJournalIDOrDateThatNamesNothing() {
    let forms = "YYYY-MM-DD, today, yesterday or Nd (N days ago)"
    let cases: [(JournalError, String)] = [
      (.invalidDate("2026-02-30"), "invalid date '2026-02-30' (use \(forms); N is at most 100000)"),
      (.neitherIDNorDate("xyz"), "'xyz' is neither a journal entry ID nor a date (\(forms))"),
      (
        .ambiguousID("abab", matches: 2),
        "the ID 'abab' matches 2 journal entries; give more digits"
      ),
    ]
    for (error, words) in cases {
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertEqual(error.message, words)
    }
    let lookups: [(JournalLookup, String)] = [
      (.id("ff"), "no journal entry with ID 'ff'"),
      (.day(CivilDate(year: 2026, month: 11, day: 29)!), "no journal entry on 2026-11-29"),
    ]
    for (lookup, words) in lookups {
      let report = ExitStatus.report(.journalEntryNotFound(lookup))
      XCTAssertEqual(report.code, .noSuchEntry)
      XCTAssertEqual(report.message, words)
      XCTAssertEqual(report.hint, "see 'vault journal list'")
    }
  }

  func testAnExportOrItsPassphraseRefused() {
    let cases: [(ExportError, String)] = [
      (.passphrase(.empty), "the passphrase is empty"),
      (.passphrase(.controlCharacter), "the passphrase contains a control character"),
      (.passphrase(.notUTF8), "the passphrase is not valid UTF-8"),
      (.passphrase(.tooLong(maximumBytes: 1024)), "the passphrase is longer than 1024 bytes"),
      (
        .passphrase(.tooShort(length: 5, minimum: 12)),
        "the passphrase has 5 characters; an export's needs at least 12 (it is all that"
          + " protects the file)"
      ),
      (
        .passphrase(.weak(bits: 19, minimum: 50)),
        "the passphrase is weak (about 19 bits; an export's needs 50): use more words or"
          + " characters"
      ),
      (.notAnExport, "this is not a vault export (it does not start with 'VAULTEXP')"),
      (
        .unsupportedVersion(found: 2, reads: 1),
        "the export is of version 2; this vault reads version 1"
      ),
      (
        .notAProfile(opsLimit: 3, memLimit: 8192),
        "the export's Argon2id parameters (opslimit 3, memlimit 8192) are not those of a profile"
          + " (interactive, moderate, sensitive, test)"
      ),
    ]
    for (error, words) in cases {
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertEqual(error.message, words)
      XCTAssertNil(error.hint)
    }
  }

  func testAnImportRotationOrRevocationRefused() {
    let cases: [(any ReportableError, String)] = [
      (
        ImportError.sourceGaveOtherItems,
        "the source gave other items the second time it was read; nothing was written"
      ),
      (
        ImportError.sourceGaveFewerItems,
        "the source gave fewer items the second time it was read; nothing was written"
      ),
      (
        RekeyError.codeInForceNeeded,
        "rotating the master key of a vault with other devices needs the recovery code in force;"
          + " nothing was changed"
      ),
      (
        RekeyError.retiredWritersInUse(maximum: 64),
        "the vault's journal holds entries signed by more than 64 retired writer keys; nothing"
          + " was changed"
      ),
      (
        RevocationError.codeInForceNeeded,
        "revoking a device needs the recovery code in force; nothing was revoked"
      ),
      (
        RevocationError.revokedDevicesFull(maximum: 256),
        "the vault has revoked 256 devices, as many as it records"
      ),
      (
        RevocationError.retiredWritersFull(maximum: 64),
        "the vault holds 64 retired writer keys, as many as it can"
      ),
    ]
    for (error, words) in cases {
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertEqual(error.message, words)
      XCTAssertNil(error.hint)
    }
  }

  // MARK: Records, state, SQLite, entries

  func testDamageToTheRecordsStateAndDatabase() {
    let id: [UInt8] = [0x07, 0x07, 0x07, 0x07, 0xab] + Array(repeating: 0, count: 11)
    let cases: [(Damage, String)] = [
      (
        .state(.noValidState), "the vault has no valid state (its states table is damaged)"
      ),
      (.state(.aggregateRow), "the vault's aggregate row is missing or malformed"),
      (
        .state(.headerFailedAuthentication),
        "the vault header failed authentication (the file was edited)"
      ),
      (
        .state(.stateFailedAuthentication),
        "the vault's state failed authentication (the file was edited)"
      ),
      (
        .state(.headerOrAggregateNotAuthenticated),
        "the vault's header or aggregate is not the one its state authenticates (an older header"
          + " or rows were put back)"
      ),
      (
        .state(.recordsNotAuthenticated),
        "the vault's records are not the ones its state authenticates (a record was deleted,"
          + " added or put back from an older copy)"
      ),
      (
        .state(.chunksNotAuthenticated),
        "the vault's content chunks are not the ones its state authenticates (a chunk was"
          + " changed, deleted, added or put back)"
      ),
      (.state(.recordsShareIDOrName), "two records of the vault share an id or a name"),
      (.state(.oversizedChunk), "the vault holds an oversized content chunk"),
      (.state(.chunkMissing), "a content chunk of the vault is missing"),
      (.state(.chunkTooShort), "a content chunk of the vault is too short to be a box"),
      (.malformedRow(.records), "a record row of the vault is malformed"),
      (.malformedRow(.chunks), "a content chunk row of the vault is malformed"),
      (.malformedRow(.states), "a state row of the vault is malformed"),
      (.database(.notADatabase), "the vault file is not a valid database"),
      (
        .database(.damaged(message: "unsupported file format")),
        "the vault file is damaged (unsupported file format)"
      ),
      (
        .database(.lengthOutOfBounds),
        "the vault file is damaged (a stored length is out of bounds)"
      ),
      (.database(.malformedSchemaRow), "the vault's schema has a malformed row"),
      (
        .database(.schemaChanged(.extraObject(type: "trigger", name: "quiet", format: 2))),
        "the vault's schema was changed: trigger 'quiet' is not format 2's (a trigger, view or"
          + " index could make writes do nothing)"
      ),
      (
        .database(.schemaChanged(.missingOrChanged(format: 1))),
        "the vault's schema was changed: a table or index of format 1 is missing or changed (a"
          + " trigger, view or index could make writes do nothing)"
      ),
      (.malformedBox(object: "a counter record"), "a counter record is malformed"),
    ]
    for (damage, words) in cases {
      let report = ExitStatus.report(.integrity(damage))
      XCTAssertEqual(report.code, .integrity)
      XCTAssertEqual(report.message, "integrity failure: " + words)
      XCTAssertNil(report.hint)
    }
    XCTAssertEqual(
      ExitStatus.report(.integrity(.record(.counterOfUnknownName(recordID: id)))).message,
      "integrity failure: counter record 07070707 has a name of no known form")
  }

  func testDamageToARecordAContentOrAJournalEntry() {
    let id: [UInt8] = [0x07, 0x07, 0x07, 0x07, 0xab] + Array(repeating: 0, count: 11)
    let cases: [(Damage, String)] = [
      (.record(.unknownKind(9)), "a record of the vault has an unknown kind (9)"),
      (.record(.nameIndex(name: "mail/work")), "the name index of 'mail/work' is damaged"),
      (.record(.notAnEntry), "a record under an entry's name is not an entry"),
      (
        .record(.entryOfAnotherName("a")), "the entry stored under 'a' belongs to another name"
      ),
      (.record(.malformedEntryMetadata), "an entry's metadata is malformed"),
      (.record(.malformedTombstone), "a tombstone of the vault is malformed"),
      (.record(.malformedRevision), "a revision record of the vault is malformed"),
      (.record(.misplacedSettings), "a settings record of the vault is misplaced"),
      (.record(.malformedSettings), "the vault's settings record is malformed"),
      (.record(.malformedCounter), "a counter record is malformed"),
      (.record(.malformedSyncRecord), "this device's sync record is malformed"),
      (
        .record(.orphanRevision(name: "a", revision: 3)), "revision 3 of 'a' belongs to no entry"
      ),
      (
        .record(.orphanCounter(entryID: id)),
        "the one-time code counter of record 07070707 belongs to no entry"
      ),
      (.record(.orphanChunks(count: 2)), "2 content chunk(s) belong to no entry or revision"),
      (
        .content(name: "big", .streamWithoutContentID),
        "the content of 'big' is a stream without a content id"
      ),
      (
        .content(name: "big", .missingOrExtraChunks),
        "the content of 'big' has missing or extra chunks"
      ),
      (
        .content(name: "big", .missingOrOversizedChunk),
        "the content of 'big' has a missing or oversized chunk"
      ),
      (.content(name: "big", .noStreamHeader), "the content of 'big' has no stream header"),
      (
        .content(name: "big", .cutShortOrRunsPastEnd),
        "the content of 'big' is cut short or runs past its end"
      ),
      (
        .content(name: "big", .wrongChunkLength),
        "the content of 'big' has a chunk of the wrong length"
      ),
      (.content(name: "big", .nonzeroPadding), "the content of 'big' has nonzero padding"),
      (.journalEntry(.malformed), "a journal entry is malformed"),
      (.journalEntry(.copiedFromAnotherVault), "a journal entry was copied from another vault"),
      (.journalEntry(.copiedFromAnotherEntry), "a journal entry was copied from another entry"),
      (
        .journalEntry(.zeroSequenceOrRevision),
        "a journal entry has a sequence or revision of 0"
      ),
      (.journalEntry(.malformedTime), "a journal entry has a malformed time"),
      (.journalEntry(.wrongLength), "a journal entry has the wrong length"),
      (.journalEntry(.nonzeroPadding), "a journal entry has nonzero padding"),
      (
        .journalEntry(.signatureDoesNotVerify),
        "a journal entry's writer signature does not verify"
      ),
      (
        .journalEntry(.failedAuthentication(recordID: id)),
        "journal entry 07070707 failed authentication"
      ),
      (
        .journalEntry(.signedByNoAuthorizedWriter(recordID: id)),
        "journal entry 07070707 is signed by no authorized writer"
      ),
      (
        .journalEntry(.storedUnderAnotherRevision(recordID: id)),
        "journal entry 07070707 is stored under another revision"
      ),
      (.journalEntry(.malformedRow), "the row is malformed"),
      (.journalEntry(.copyOfFoldedEntry), "a copy of an entry already in the journal"),
      (
        .journalEntry(.sequenceReused(4)),
        "its writer's sequence number 4 was already used (a replayed entry)"
      ),
      (
        .pendingJournalEntryRefused(
          hexID: String(repeating: "ab", count: 16), reason: .journalEntry(.copiedFromAnotherEntry),
          others: 3),
        "pending journal entry abababab is refused: a journal entry was copied from another entry"
          + " (and 3 more)"
      ),
      (
        .pendingJournalEntryRefused(
          hexID: "0f0f0f0f0f", reason: .journalEntry(.signatureDoesNotVerify), others: 0),
        "pending journal entry 0f0f0f0f is refused: a journal entry's writer signature does not"
          + " verify"
      ),
    ]
    for (damage, words) in cases {
      let report = ExitStatus.report(.integrity(damage))
      XCTAssertEqual(report.code, .integrity)
      XCTAssertEqual(report.message, "integrity failure: " + words)
      XCTAssertNil(report.hint)
    }
  }

  func testAMalformedBase64FieldOfTheHeader() {
    for field in [
      "revoked_devices", "revocations", "handoffs", "enrollment", "sealed domain state",
    ] {
      let report = ExitStatus.report(.malformedHeader(.invalidBase64(field: field)))
      XCTAssertEqual(report.code, .integrity)
      XCTAssertEqual(report.message, "the vault header is malformed: \(field) is not valid")
      XCTAssertNil(report.hint)
    }
  }

  func testRefusedNamesContentsAndValues() {
    let cases: [(InputFault, String)] = [
      (.name(.empty), "the name is empty"),
      (.name(.tooLong(maximum: 1024)), "the name is longer than 1024 bytes"),
      (.name(.controlCharacter), "the name contains a control character"),
      (.name(.emptySegment(name: "a//b")), "the name 'a//b' has an empty path segment"),
      (.name(.emptySegment(name: "/a")), "the name '/a' has an empty path segment"),
      (.name(.emptySegment(name: "a/")), "the name 'a/' has an empty path segment"),
      (.name(.dotSegment(name: "a/../b", segment: "..")), "the name 'a/../b' has a '..' segment"),
      (.name(.dotSegment(name: "./a", segment: ".")), "the name './a' has a '.' segment"),
      (.emptyContent, "the content is empty"),
      (.streamedContentStartsShort, "a streamed content starts with more than 1 MiB"),
      (
        .journalRecord(.idsNotSixteenBytes), "a journal entry id and writer id are 16 bytes each"
      ),
      (
        .journalRecord(.zeroSequenceOrRevision),
        "a journal entry's sequence and revision start at 1"
      ),
      (.journalRecord(.textTooLong), "a journal entry is too long"),
      (
        .currentRevision(name: "mail/work", revision: 4),
        "revision 4 of 'mail/work' is its current version"
      ),
      (
        .settingOutOfRange(VaultSettings.historyKeep),
        "history_keep is a whole number from 0 to 10000"
      ),
    ]
    for (fault, words) in cases {
      let report = ExitStatus.report(.invalidInput(fault))
      XCTAssertEqual(report.code, .invalidInput)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
  }

  func testAFailedDatabaseOrSpoolFile() {
    let cases: [(StorageFailure, String)] = [
      (
        .databaseNotOpened(path: "/v.db", message: "unable to open database file"),
        "cannot open /v.db: unable to open database file"
      ),
      (.database(SQLiteFailure(message: "string or blob too big")), "string or blob too big"),
      (
        .database(
          SQLiteFailure(message: "disk I/O error", write: .fileSizeLimit(bytes: 1_048_576))),
        "disk I/O error: the file-size limit (ulimit -f) of 1048576 bytes was reached; nothing was"
          + " written"
      ),
      (
        .database(SQLiteFailure(message: "database or disk is full", write: .diskFull)),
        "database or disk is full: the disk is full; nothing was written"
      ),
      (
        .database(SQLiteFailure(message: "disk I/O error", write: .unknown)),
        "disk I/O error while writing; nothing was written"
      ),
      (
        .backup(SQLiteFailure(message: "database or disk is full", write: .diskFull)),
        "cannot back up: database or disk is full: the disk is full; nothing was written"
      ),
      (
        .spool(.notMade(folder: "/h", errno: EACCES)),
        "cannot make a spool file in /h: Permission denied; nothing was stored"
      ),
      (
        .spool(.notWritten(errno: ENOSPC)),
        "cannot write the content's spool file: No space left on device; nothing was stored"
      ),
      (.spool(.notReadBack), "the content's spool file cannot be read back; nothing was stored"),
      (.spool(.changed), "the content's spool file was changed; nothing was stored"),
      (.unencodable(.record), "a record cannot be encoded"),
      (.unencodable(.recordBody), "a record's body cannot be encoded"),
      (.unencodable(.syncRecord), "the sync record cannot be encoded"),
      (.newFileWithoutState, "the new vault file has no state"),
      (
        .headerWithoutChunkHash,
        "the new header does not say how the vault's chunks are hashed; nothing was written"
      ),
    ]
    for (failure, words) in cases {
      let report = ExitStatus.report(.storage(failure))
      XCTAssertEqual(report.code, .failure)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
  }

  func testARemoteWhoseFilesAreDamaged() {
    XCTAssertEqual(
      SyncError.refused(.damaged(.integrity(.record(.orphanRevision(name: "a", revision: 2)))))
        .message,
      "the sync remote was refused: revision 2 of 'a' belongs to no entry; nothing was merged")
    XCTAssertEqual(
      SyncError.refused(.damaged(.malformedHeader(.invalidBase64(field: "handoffs")))).message,
      "the sync remote was refused: the vault header it carries is malformed: handoffs is not"
        + " valid; nothing was merged")
    XCTAssertEqual(
      SyncError.refused(.damaged(.integrity(.state(.oversizedChunk)))).exitCode, .integrity)
    XCTAssertNil(SyncError.refused(.damaged(.integrity(.state(.oversizedChunk)))).hint)
  }
}
