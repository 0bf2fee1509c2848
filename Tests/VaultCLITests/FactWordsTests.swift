import Glibc
import VaultAgent
import VaultCore
import VaultFormat
import VaultJournal
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
    let damaged = SyncError.damaged(.journalEntry(id: "0badc0de", .failedAuthentication))
    XCTAssertEqual(
      damaged.message,
      "the sync remote was refused: journal entry 0badc0de failed authentication; nothing was"
        + " merged")
    XCTAssertEqual(damaged.exitCode, .integrity)
    XCTAssertNil(damaged.hint)
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

  // MARK: Core, agent, journal

  func testDamageTheCoreTheAgentAndTheJournalFind() {
    let id = "0f0f0f0f" + String(repeating: "ab", count: 12)
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
        .journalEntry(id: id, .failedAuthentication), "journal entry 0f0f0f0f failed authentication"
      ),
      (
        .journalEntry(id: id, .signedByNoAuthorizedWriter),
        "journal entry 0f0f0f0f is signed by no authorized writer"
      ),
      (
        .journalEntry(id: id, .storedUnderAnotherRevision),
        "journal entry 0f0f0f0f is stored under another revision"
      ),
      (
        .pendingJournalEntry(
          id: id, .damagedText("a journal entry was copied from another entry"), more: 3),
        "pending journal entry 0f0f0f0f is refused: a journal entry was copied from another entry"
          + " (and 3 more)"
      ),
      (
        .pendingJournalEntry(
          id: id, .damaged(.journalEntry(id: id, .signedByNoAuthorizedWriter)), more: 0),
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
    let header = ExitStatus.report(.malformedHeader(.noRecoverySlot))
    XCTAssertEqual(header.code, .integrity)
    XCTAssertEqual(header.message, "the vault header is malformed: no recovery slot")
  }

  func testWhyAPendingJournalRowIsRefused() {
    let cases: [(JournalRefusal, String)] = [
      (.malformedRow, "the row is malformed"),
      (
        .damaged(.journalEntry(id: "abcdef0123", .failedAuthentication)),
        "journal entry abcdef01 failed authentication"
      ),
      (.damagedText("a journal entry is malformed"), "a journal entry is malformed"),
      (.copyOfFoldedEntry, "a copy of an entry already in the journal"),
      (.sequenceUsed(7), "its writer's sequence number 7 was already used (a replayed entry)"),
    ]
    for (refusal, words) in cases {
      XCTAssertEqual(JournalWords.reason(refusal), words)
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
}
