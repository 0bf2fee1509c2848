import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultJournal
@testable import VaultSecrets

/// Journal stamps and dates in a time zone with DST, and the journal store: writing without a
/// key, reading with it, and rows bound to their vault and their entry id.
final class JournalStoreTests: XCTestCase {
  var home: TemporaryHome!
  var savedTZ: String?

  override func setUp() {
    home = TemporaryHome()
    savedTZ = getenv("TZ").map { String(cString: $0) }
    setenv("TZ", "Europe/Berlin", 1)
  }

  override func tearDown() {
    home = nil
    if let savedTZ { setenv("TZ", savedTZ, 1) } else { unsetenv("TZ") }
    tzset()
  }

  func makeVault(_ home: TemporaryHome) throws -> Vault.Created {
    try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: Policy.pinOnly,
      environment: home.environment())
  }

  func date(_ text: String) throws -> CivilDate { try XCTUnwrap(CivilDate(parsing: text)) }

  func testStampsAcrossBothDSTChangesInBerlin() {
    let cases: [(Double, String)] = [
      (1_774_738_799, "2026-03-28T23:59:59+01:00"), (1_774_745_999, "2026-03-29T01:59:59+01:00"),
      (1_774_746_000, "2026-03-29T03:00:00+02:00"), (1_792_888_200, "2026-10-25T02:30:00+02:00"),
      (1_792_891_800, "2026-10-25T02:30:00+01:00"), (1_792_969_200, "2026-10-26T00:00:00+01:00"),
    ]
    for (seconds, text) in cases {
      let stamp = JournalStamp.local(seconds)
      XCTAssertEqual(stamp.description, text)
      XCTAssertEqual(JournalStamp(parsing: text), stamp)
      XCTAssertEqual(stamp.instant, Int64(seconds))
    }
    let first = JournalStamp.local(1_792_888_200)
    let second = JournalStamp.local(1_792_891_800)
    XCTAssertTrue(first < second, "the repeated 02:30 sorts by the instant it names")
    XCTAssertNil(JournalStamp(parsing: "2026-10-25T02:30:00Z"))
    XCTAssertNil(JournalStamp(parsing: "2026-10-25 02:30:00+01:00"))
    XCTAssertNil(JournalStamp(parsing: "2026-10-25T24:00:00+01:00"))
  }

  func testDateFormsCountCalendarDaysNotHours() throws {
    // 2026-03-30 00:30 CEST: 24 hours earlier is still 2026-03-28 (the night had 23 hours).
    let afterSpring = 1_774_823_400.0
    XCTAssertEqual(try JournalDate.parse("today", now: afterSpring), try date("2026-03-30"))
    XCTAssertEqual(try JournalDate.parse("yesterday", now: afterSpring), try date("2026-03-29"))
    XCTAssertEqual(try JournalDate.parse("1d", now: afterSpring), try date("2026-03-29"))
    XCTAssertEqual(try JournalDate.parse("0d", now: afterSpring), try date("2026-03-30"))
    XCTAssertEqual(try JournalDate.parse("365d", now: afterSpring), try date("2025-03-30"))
    // 2026-10-25 23:30 CET: 24 hours earlier is still 2026-10-25 (the night had 25 hours).
    let afterAutumn = 1_792_967_400.0
    XCTAssertEqual(try JournalDate.parse("yesterday", now: afterAutumn), try date("2026-10-24"))
    XCTAssertEqual(try JournalDate.parse("2028-02-29", now: afterAutumn), try date("2028-02-29"))
    for bad in ["2026-02-29", "2026-13-01", "26-10-25", "tomorrow", "d", "-1d", "1w", "", "1e3d"] {
      XCTAssertThrowsError(try JournalDate.parse(bad, now: afterAutumn), bad) {
        XCTAssertEqual($0 as? JournalError, .invalidDate(bad))
      }
    }
  }

  func testAppendNeedsNoKeyAndReadingNeedsTheMasterKey() throws {
    let created = try makeVault(home)
    let locked = try Vault.open(path: home.vaultPath, environment: home.environment())
    let stamp = JournalStamp.local(1_774_746_000)
    let id = try JournalStore.append(secure("Dear diary\n"), to: locked, stamp: stamp)
    XCTAssertEqual(id.count, 16)
    let entries = try JournalStore(vault: locked, masterKey: created.masterKey).entries()
    XCTAssertEqual(entries.map(\.id), [id])
    XCTAssertEqual(entries.map(\.stamp), [stamp])
    XCTAssertTrue(entries[0].text == secure("Dear diary\n"))
    XCTAssertEqual(try EntryStore(vault: locked, masterKey: created.masterKey).list(), [])
    let wrong = key([UInt8](repeating: 7, count: 32))
    XCTAssertThrowsError(try JournalStore(vault: locked, masterKey: wrong)) {
      XCTAssertEqual($0 as? CryptoError, .authenticationFailed(object: "the journal key"))
    }
    XCTAssertThrowsError(try JournalStore.append(secure(""), to: locked, stamp: stamp)) {
      XCTAssertEqual(VaultError($0), .invalidInput(.emptyJournalEntry))
    }
  }

  /// A pending row holding `record` signed by `signer` (this device's writer unless given),
  /// sealed to the vault's journal key, as a writer without the key would store it.
  func plant(
    _ vault: Vault, id: [UInt8], text: String, sequence: UInt64, vaultID: VaultID? = nil,
    signer: SigningKeyPair? = nil, stamp: JournalStamp = JournalStamp.local(1_800_000_000)
  ) throws {
    let writer = try XCTUnwrap(vault.device.read().writers[vault.vaultID.hex])
    let record = try SignedJournalRecord(
      vaultID: vaultID ?? vault.vaultID, entryID: id,
      writerID: try [UInt8](base64: writer.deviceID, field: "writer"), sequence: sequence,
      revision: 1, stamp: stamp, text: secure(text))
    let publicKey = try [UInt8](base64: vault.header.journalPublicKey, field: "key")
    let plain = record.encode(signingWith: try signer ?? writer.keyPair())
    try vault.db.query(
      "INSERT INTO pending (record_id, box) VALUES (?, ?)",
      [.blob(id), .blob(plain.withBytes { SealedBox.seal($0, to: publicKey) })])
  }

  func testEntriesAreBoundToTheirVaultTheirRowAndTheirWriter() throws {
    let created = try makeVault(home)
    let vault = created.vault
    let id = try JournalStore.append(
      secure("mine"), to: vault, stamp: JournalStamp.local(1_800_000_000))
    let box = try XCTUnwrap(
      vault.db.query("SELECT box FROM pending WHERE record_id = ?", [.blob(id)]).first?[0].blob)
    let store = try JournalStore(vault: vault, masterKey: created.masterKey)

    // The same box on another row: it opens, but names another entry id.
    let moved = [UInt8](repeating: 0xAB, count: 16)
    try vault.db.query(
      "INSERT INTO pending (record_id, box) VALUES (?, ?)", [.blob(moved), .blob(box)])
    // Another vault id, a stranger's signature, and a format-1 (unsigned) record.
    try plant(
      vault, id: [UInt8](repeating: 0xAC, count: 16), text: "x", sequence: 2,
      vaultID: try VaultID([UInt8](repeating: 1, count: 16)))
    try plant(
      vault, id: [UInt8](repeating: 0xAD, count: 16), text: "x", sequence: 3,
      signer: Signing.generate())
    let unsigned = JournalRecord.encode(
      vaultID: vault.vaultID, entryID: [UInt8](repeating: 0xAE, count: 16),
      stamp: JournalStamp.local(1_800_000_000), text: secure("back-dated"))
    let publicKey = try [UInt8](base64: vault.header.journalPublicKey, field: "key")
    try vault.db.query(
      "INSERT INTO pending (record_id, box) VALUES (?, ?)",
      [
        .blob([UInt8](repeating: 0xAE, count: 16)),
        .blob(unsigned.withBytes { SealedBox.seal($0, to: publicKey) }),
      ])
    let contents = try store.contents()
    XCTAssertEqual(contents.entries.map(\.id), [id], "nothing refused is mixed in")
    XCTAssertEqual(
      contents.unverified,
      [
        UnverifiedJournalRow(hexID: moved.hex, reason: .journalEntry(.copiedFromAnotherEntry)),
        UnverifiedJournalRow(
          hexID: String(repeating: "ac", count: 16), reason: .journalEntry(.copiedFromAnotherVault)
        ),
        UnverifiedJournalRow(
          hexID: String(repeating: "ad", count: 16), reason: .journalEntry(.signatureDoesNotVerify)
        ),
        UnverifiedJournalRow(
          hexID: String(repeating: "ae", count: 16), reason: .journalEntry(.malformed)),
      ])
    // Folding moves only the good one; the others stay pending and `check` refuses them.
    XCTAssertEqual(try store.fold(), 1)
    XCTAssertEqual(try store.entries().map(\.pending), [false])
    XCTAssertThrowsError(try IntegrityCheck.verify(vault, masterKey: created.masterKey)) {
      XCTAssertEqual(
        VaultError($0),
        .integrity(
          .pendingJournalEntryRefused(
            hexID: moved.hex, reason: .journalEntry(.copiedFromAnotherEntry), others: 3)))
    }

    // The row copied into another vault: it does not open under that vault's key.
    let other = TemporaryHome()
    let second = try makeVault(other)
    try second.vault.db.query(
      "INSERT INTO pending (record_id, box) VALUES (?, ?)", [.blob(id), .blob(box)])
    XCTAssertEqual(
      try JournalStore(vault: second.vault, masterKey: second.masterKey).contents().unverified,
      [
        UnverifiedJournalRow(
          hexID: id.hex, reason: .journalEntry(.failedAuthentication(recordID: id)))
      ])
  }

  func testAGapInAWritersSequenceIsReported() throws {
    let created = try makeVault(home)
    let vault = created.vault
    let store = try JournalStore(vault: vault, masterKey: created.masterKey)
    for _ in 0..<4 {
      try JournalStore.append(secure("entry"), to: vault, stamp: JournalStamp.local(1_800_000_000))
    }
    // Entries 2 and 3 removed from the file before they were folded.
    let rows = try vault.db.query("SELECT record_id, box FROM pending")
    let sequenceOf: ([UInt8], [UInt8]) throws -> UInt64 = { id, box in
      try XCTUnwrap(store.entries().first { $0.id == id }).sequenceNumber
    }
    for row in rows {
      let id = try XCTUnwrap(row[0].blob)
      let number = try sequenceOf(id, try XCTUnwrap(row[1].blob))
      if number == 2 || number == 3 {
        try vault.db.query("DELETE FROM pending WHERE record_id = ?", [.blob(id)])
      }
    }
    XCTAssertEqual(try store.fold(), 2)
    let missing = try store.contents().missing
    XCTAssertEqual(missing.map(\.ranges), [[2...3]])
    // Reported, not refused: a write killed between its count and its insert leaves one too.
    let report = try IntegrityCheck.verify(vault, masterKey: created.masterKey)
    XCTAssertEqual(report.missing.map(\.ranges), [[2...3]])
    // A gap filled later (the entry withheld, then put back) is taken off the missing.
  }

  /// An ID whose first 8 hex digits read as a DATE (`8822073d`: N days ago) is shown with one
  /// more digit, so `journal show ID` finds it (a test that used such an ID failed 1 run in 400).
  func testAShortIDThatReadsAsADateIsShownLonger() {
    func entry(_ id: [UInt8]) -> JournalEntry {
      JournalEntry(
        id: id, stamp: .local(1_800_000_000), text: secure("x"), writer: [], sequence: 1,
        revision: 1, pending: false, box: [])
    }
    let dated = [0x88, 0x22, 0x07, 0x3D, 0x91] + [UInt8](repeating: 0, count: 11)
    let plain = [0x88, 0x22, 0x07, 0x3E] + [UInt8](repeating: 0, count: 12)
    XCTAssertTrue(JournalDate.looksLikeDate("8822073d"))
    XCTAssertEqual(JournalStore.shortIDs([entry(dated), entry(plain)]), ["8822073d9", "8822073e"])
  }

  func testIDPrefixesAndShortIDs() throws {
    let created = try makeVault(home)
    let vault = created.vault
    let stamp = JournalStamp.local(1_800_000_000)
    let store = try JournalStore(vault: vault, masterKey: created.masterKey)
    for (last, text) in [(0x01, "one"), (0x02, "two")] {
      try plant(
        vault, id: [UInt8](repeating: 0xAB, count: 15) + [UInt8(last)], text: text,
        sequence: UInt64(last), stamp: stamp)
    }
    try vault.device.update { $0.writers[vault.vaultID.hex]?.sequence = 2 }
    let unique = try JournalStore.append(secure("three"), to: vault, stamp: stamp)
    XCTAssertEqual(try store.fold(), 3)
    XCTAssertEqual(try store.contents().missing.count, 0)
    let entries = try store.entries()
    XCTAssertEqual(entries.count, 3)
    let shown = Dictionary(
      uniqueKeysWithValues: zip(entries.map(\.hexID), JournalStore.shortIDs(entries)))
    XCTAssertEqual(shown[String(repeating: "ab", count: 15) + "01"]?.count, 32)
    XCTAssertEqual(shown[unique.hex], String(unique.hex.prefix(8)))
    XCTAssertTrue(
      try store.entry(idPrefix: String(repeating: "AB", count: 15) + "02").text
        == secure("two"))
    XCTAssertThrowsError(try store.entry(idPrefix: "abab")) {
      XCTAssertEqual($0 as? JournalError, .ambiguousID("abab", matches: 2))
    }
    let missing = unique.hex.hasPrefix("ff") ? "ee" : "ff"
    XCTAssertThrowsError(try store.entry(idPrefix: missing)) {
      XCTAssertEqual(VaultError($0), .journalEntryNotFound(.id(missing)))
    }
    XCTAssertThrowsError(try store.entry(idPrefix: "xyz")) {
      XCTAssertEqual($0 as? JournalError, .neitherIDNorDate("xyz"))
    }
    let replaced = try store.entry(idPrefix: unique.hex)
    try store.replace(replaced, text: secure("three, edited"))
    let after = try store.entry(idPrefix: unique.hex)
    XCTAssertTrue(after.text == secure("three, edited"))
    XCTAssertEqual(after.stamp, stamp, "an edit keeps the time")
    XCTAssertEqual(try IntegrityCheck.verify(vault, masterKey: created.masterKey).journal, 3)
  }
}
