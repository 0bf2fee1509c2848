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

/// The words the command line gives the facts of sync: a remote refused or failed, its notes, a rotation elsewhere, a device word: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class SyncWordsTests: XCTestCase {
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
    assertIntegrityWords(cases)
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
      SyncWords.line(.revocationLost(device: "30beeff5", signer: "5a31f55c")),
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
