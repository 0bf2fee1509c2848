import Glibc
import VaultCore
import VaultFormat
import VaultSync
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
    XCTAssertEqual(
      StorageFailure.databaseNotOpened(path: "/h/.v.db.creating-ab", message: "m")
        .naming("/h/v.db", for: "/h/.v.db.creating-ab"),
      .databaseNotOpened(path: "/h/v.db", message: "m"))
  }

  func testARemoteWhoseFilesAreDamaged() {
    XCTAssertEqual(
      SyncError.damaged(.record(.orphanRevision(name: "a", revision: 2))).message,
      "the sync remote was refused: revision 2 of 'a' belongs to no entry; nothing was merged")
    XCTAssertEqual(
      SyncError.malformedHeader(.invalidBase64(field: "handoffs")).message,
      "the sync remote was refused: the vault header it carries is malformed: handoffs is not"
        + " valid; nothing was merged")
    XCTAssertEqual(SyncError.damaged(.state(.oversizedChunk)).exitCode, .integrity)
    XCTAssertNil(SyncError.damaged(.state(.oversizedChunk)).hint)
  }
}
