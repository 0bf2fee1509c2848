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

/// The words the command line gives the facts of integrity failures: which object failed which check: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class DamageWordsTests: XCTestCase {
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
        .keys(.keyslotsEdited),
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
      (.record(.malformedEntryMetadata), "an entry's metadata is malformed"),
      (
        .content(name: "big", .missingOrExtraChunks),
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
    assertIntegrityWords(cases)
    for (damage, words) in cases {
      XCTAssertEqual(
        SyncError.refused(.damaged(.integrity(damage))).message,
        "the sync remote was refused: \(words); nothing was merged")
      XCTAssertEqual(SyncError.refused(.damaged(.integrity(damage))).exitCode, .integrity)
    }
  }

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
      (.record(.unknownKind(9)), "a record of the vault has an unknown kind (9)"),
      (.tables(.malformedRecord(id: id)), "record 0f0f0f0f is malformed"),
      (
        .content(name: "big", .missingOrExtraChunks),
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
        "the vault id in the header changed since the vault was unlocked (the file was edited or"
          + " damaged)"
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
    assertIntegrityWords(cases)
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

  func testDamageToTheRecordsStateAndDatabase() {
    let id: [UInt8] = [0x07, 0x07, 0x07, 0x07, 0xab] + Array(repeating: 0, count: 11)
    let cases: [(Damage, String)] = [
      (
        .state(.noValidState), "the vault has no valid state (its states table is damaged)"
      ),
      (.state(.aggregateRow), "the vault's aggregate row is missing or malformed"),
      (
        .headerFailedAuthentication,
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
    assertIntegrityWords(cases)
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
    assertIntegrityWords(cases)
  }
}

/// Asserts that each damage is reported as an integrity failure (17), with `words` after
/// "integrity failure: " and no hint.
func assertIntegrityWords(
  _ cases: [(Damage, String)], file: StaticString = #filePath, line: UInt = #line
) {
  for (damage, words) in cases {
    let report = ExitStatus.report(.integrity(damage))
    XCTAssertEqual(report.code, .integrity, file: file, line: line)
    XCTAssertEqual(report.message, "integrity failure: " + words, file: file, line: line)
    XCTAssertNil(report.hint, file: file, line: line)
  }
}
