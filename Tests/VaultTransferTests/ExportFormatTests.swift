import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultTransfer

/// The `vault` format: what the writer seals the reader opens, byte for byte, and every
/// malformed file is refused in its failure class.
final class ExportFormatTests: XCTestCase {
  static let passphrase = "correct horse battery staple"

  func source(_ bytes: [UInt8], passphrase: String = passphrase) -> ImportSource {
    .encrypted(SecureBytes(copying: bytes)) { SecureBytes(copying: Array(passphrase.utf8)) }
  }

  func read(_ bytes: [UInt8], passphrase: String = passphrase) throws -> TransferBatch {
    try VaultExportReader.read(source(bytes, passphrase: passphrase))
  }

  func assertRefused(
    _ bytes: [UInt8], _ expected: VaultError, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try read(bytes), file: file, line: line) {
      XCTAssertEqual(VaultError($0), expected, file: file, line: line)
    }
  }

  func assertMalformed(
    _ bytes: [UInt8], _ expected: TransferError, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try read(bytes), file: file, line: line) {
      XCTAssertEqual($0 as? TransferError, expected, file: file, line: line)
    }
  }

  /// The page's vector, read by the reader.
  func testTheVectorOfTheManualReadsAsItsEntryAndJournalEntry() throws {
    let hex = try XCTUnwrap(Self.vectorHex)
    let batch = try read(Self.bytes(hex))
    XCTAssertEqual(batch.entries.map(\.name), ["mail/work"])
    XCTAssertEqual(
      batch.entries[0].content.unprotectedBytes, Array("hunter2\nusername: ada\n".utf8))
    XCTAssertEqual(batch.entries[0].created, "2026-01-02T03:04:05Z")
    XCTAssertEqual(batch.entries[0].updated, "2026-02-03T04:05:06Z")
    XCTAssertFalse(batch.entries[0].guarded)
    XCTAssertEqual(batch.entries[0].location, .record(1))
    XCTAssertEqual(batch.journal.map(\.stamp.description), ["2026-02-03T05:05:06+01:00"])
    XCTAssertEqual(batch.journal[0].text.unprotectedBytes, Array("Walked to the river.\n".utf8))
    XCTAssertEqual(batch.journal[0].location, .record(2))
  }

  /// The file's hex from the page's TEST VECTORS (the lines after `file`).
  static let vectorHex: String? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    guard
      let page = try? String(
        contentsOf: root.appendingPathComponent("man/src/vault.5.in"), encoding: .utf8),
      let start = page.range(of: "\nfile            ")
    else { return nil }
    let lines = page[start.lowerBound...].dropFirst().split(separator: "\n")
    var hex = ""
    for (index, line) in lines.enumerated() {
      guard index == 0 || line.hasPrefix("                ") else { break }
      hex += line.dropFirst(16)
    }
    return hex
  }()

  static func bytes(_ hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return out
  }

  func testEntriesAndJournalComeBackByteForByteLargeGuardedAndBinaryIncluded() throws {
    let large = ExportTest.pattern(EntryStore.streamThreshold + 70_000)
    let entries: [any ExportableEntry] = [
      TestEntry("a/bin", bytes: [0xFF, 0x00, 0x0D, 0x41]),
      TestEntry("a/large", bytes: large),
      TestEntry("b/guarded", "pin\n", guarded: true),
      TestEntry("café ☕", "p\u{E4}ss\r\nuser: x\r\n"),
    ]
    let stamp = try XCTUnwrap(JournalStamp(parsing: "2026-11-29T16:05:09-05:30"))
    let journal = [
      TransferJournalEntry(
        stamp: stamp, text: SecureBytes(copying: [0x41, 0x0A]), location: .line(1))
    ]
    let (bytes, summary) = try ExportTest.write(.vault, entries, journal: journal)
    XCTAssertEqual(summary.entries, 4)
    XCTAssertEqual(summary.journal, 1)
    // Header, then 17 full messages (the large content spans them) and a final one.
    let plaintext = Padding.paddedLength(
      4 * (1 + 1 + 2 + 40 + 8) + [5, 7, 9, 8].reduce(0, +) + 4 + large.count + 4 + 9 + 1 + 25 + 4
        + 2 + 17)
    XCTAssertEqual(
      bytes.count,
      81 + plaintext + (plaintext + 65535) / 65536 * 17)
    let batch = try read(bytes)
    XCTAssertEqual(batch.entries.map(\.name), ["a/bin", "a/large", "b/guarded", "café ☕"])
    for (read, written) in zip(batch.entries, entries) {
      XCTAssertEqual(read.content.unprotectedBytes, (written as? TestEntry)?.bytes, read.name)
      XCTAssertEqual(read.guarded, written.guarded, read.name)
      XCTAssertEqual(read.created, written.created)
      XCTAssertEqual(read.updated, written.updated)
    }
    XCTAssertEqual(batch.journal.map(\.stamp), [stamp])
    XCTAssertEqual(batch.journal[0].text.unprotectedBytes, [0x41, 0x0A])
  }

  func testAnEmptyExportHoldsOnlyItsEndRecord() throws {
    let (bytes, _) = try ExportTest.write(.vault, [])
    XCTAssertEqual(bytes.count, 81 + 256 + 17)
    let batch = try read(bytes)
    XCTAssertTrue(batch.entries.isEmpty)
    XCTAssertTrue(batch.journal.isEmpty)
  }

  /// Three messages: a cut at a message's end, inside one, inside the header, and one byte
  /// more are all refused.
  func testACutOrExtendedFileIsAnIntegrityFailure() throws {
    let (bytes, _) = try ExportTest.write(
      .vault, [TestEntry("x", bytes: ExportTest.pattern(140_000))])
    let full = 65536 + 17
    XCTAssertEqual(
      bytes.count, 81 + 2 * full + (Padding.paddedLength(140_000 + 70) - 2 * 65536) + 17)
    assertRefused(
      Array(bytes.prefix(81 + 2 * full)),
      .integrity(.export(.endsWithoutFinalMessage(messages: 2))))
    assertRefused(
      Array(bytes.prefix(81 + full + 100)),
      .integrity(.sealed(object: "message 1 of the export", .failedAuthentication)))
    assertRefused(
      Array(bytes.prefix(81 + full - 1)),
      .integrity(.sealed(object: "message 0 of the export", .failedAuthentication)))
    assertRefused(
      Array(bytes.prefix(81)),
      .integrity(.export(.endsBeforeFirstMessage)))
    assertRefused(
      Array(bytes.prefix(60)), .integrity(.export(.cutShortInHeader)))
    // A byte after a short final message is part of it, so it fails; after a full one, it
    // follows it.
    assertRefused(
      bytes + [0], .integrity(.sealed(object: "message 2 of the export", .failedAuthentication)))
    let (whole, _) = try ExportTest.write(
      .vault, [TestEntry("x", bytes: ExportTest.pattern(130_985))])
    XCTAssertEqual(whole.count, 81 + 2 * full)
    XCTAssertEqual(try read(whole).entries.map(\.content.count), [130_985])
    assertRefused(whole + [0], .integrity(.export(.bytesAfterFinalMessage)))
    var flipped = bytes
    flipped[81 + full + 5] ^= 1
    assertRefused(
      flipped, .integrity(.sealed(object: "message 1 of the export", .failedAuthentication)))
  }

  func testTheHeaderIsCheckedBeforeThePassphraseIsAsked() throws {
    let (bytes, _) = try ExportTest.write(.vault, [TestEntry("x", "y")])
    final class Asked: @unchecked Sendable { var value = false }
    let asked = Asked()
    func reading(_ bytes: [UInt8]) -> Error? {
      let source = ImportSource.encrypted(
        SecureBytes(copying: bytes),
        passphrase: {
          asked.value = true
          return SecureBytes(copying: Array(Self.passphrase.utf8))
        })
      if case .failure(let error) = Result(catching: { try VaultExportReader.read(source) }) {
        return error
      }
      return nil
    }
    XCTAssertEqual(reading(Array("not an export".utf8)) as? ExportError, .notAnExport)
    var version = bytes
    version[8] = 2
    XCTAssertEqual(
      reading(version) as? ExportError, .unsupportedVersion(found: 2, reads: 1))
    var ops = bytes
    ops[16] = 3  // opslimit 3 with the test profile's memlimit: no profile
    XCTAssertEqual(
      reading(ops) as? ExportError, .notAProfile(opsLimit: 3, memLimit: 8192))
    XCTAssertFalse(asked.value)
    var salt = bytes
    salt[30] ^= 1
    XCTAssertEqual(reading(salt).flatMap { VaultError($0) }, .wrongPassphrase)
    XCTAssertTrue(asked.value)
    var check = bytes
    check[45] ^= 1
    XCTAssertEqual(reading(check).flatMap { VaultError($0) }, .wrongPassphrase)
    var streamHeader = bytes
    streamHeader[60] ^= 1
    XCTAssertEqual(
      reading(streamHeader).flatMap { VaultError($0) },
      .integrity(.sealed(object: "message 0 of the export", .failedAuthentication)))
    assertRefused(bytes, .wrongPassphrase, passphrase: "correct horse battery stapler")
    XCTAssertThrowsError(try VaultExportReader.read(.bytes(SecureBytes(copying: bytes)))) {
      XCTAssertEqual(
        $0 as? TransferError,
        TransferError(.source(.passphraseMissing)))
    }
  }

  func assertRefused(
    _ bytes: [UInt8], _ expected: VaultError, passphrase: String, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTAssertThrowsError(try read(bytes, passphrase: passphrase), file: file, line: line) {
      XCTAssertEqual(VaultError($0), expected, file: file, line: line)
    }
  }

  /// An export whose plaintext is `records` exactly (the sealer adds the padding).
  func sealed(_ records: [UInt8], pad: Bool = true) throws -> [UInt8] {
    var out: [UInt8] = []
    let sealer = try VaultExportSealer(
      passphrase: ExportPassphrase(utf8: SecureBytes(copying: Array(Self.passphrase.utf8))),
      parameters: .test
    ) { out.append(contentsOf: $0) }
    try sealer.append(records)
    try sealer.finish()
    return out
  }

  func entryRecord(
    _ name: String, _ content: [UInt8], flags: UInt8 = 0, created: String = "2026-01-02T03:04:05Z"
  ) -> [UInt8] {
    let name = Array(name.utf8)
    return [1, flags, 0, UInt8(name.count)] + name + Array(created.utf8)
      + Array("2026-01-02T03:04:05Z".utf8)
      + VaultExportFields.bigEndian(UInt64(content.count), bytes: 8) + content
  }

  func end(_ entries: UInt64, _ journal: UInt64) -> [UInt8] {
    [0] + VaultExportFields.bigEndian(entries, bytes: 8)
      + VaultExportFields.bigEndian(journal, bytes: 8)
  }

  func testRecordsTheFormatDoesNotAllowAreRefusedAtTheirRecord() throws {
    let a = entryRecord("a", [0x41])
    let b = entryRecord("b", [0x42])
    XCTAssertEqual(try read(sealed(a + b + end(2, 0))).entries.map(\.name), ["a", "b"])
    func refused(_ records: [UInt8], _ fault: ExportFileFault, record: Int) throws {
      assertMalformed(try sealed(records), TransferError(.exportFile(fault), at: .record(record)))
    }
    try refused(b + a + end(2, 0), .nameOutOfOrder("a"), record: 2)
    try refused(a + a + end(2, 0), .nameOutOfOrder("a"), record: 2)
    try refused(
      a + end(2, 0), .endCounts(entries: 2, journal: 0, heldEntries: 1, heldJournal: 0),
      record: 2)
    try refused(a + [7], .unknownKind(7), record: 2)
    try refused(entryRecord("a", [0x41], flags: 2) + end(1, 0), .flags(2), record: 1)
    try refused(entryRecord("a", []) + end(1, 0), .contentLength(name: "a", bytes: 0), record: 1)
    try refused(
      entryRecord("a", [0x41], created: "2026-01-02 03:04:05Z") + end(1, 0),
      .timesNotUTC(name: "a"), record: 1)
    try refused(entryRecord("e\u{301}", [0x41]) + end(1, 0), .nameNotNFC("e\u{301}"), record: 1)
    assertMalformed(
      try sealed(entryRecord("a//b", [0x41]) + end(1, 0)),
      TransferError(.input(try XCTUnwrap(nameFault("a//b"))), at: .record(1)))
    XCTAssertEqual(nameFault("a//b"), .name(.emptySegment(name: "a//b")))
    try refused(a + end(1, 0) + [1], .paddingNotZero, record: 2)
    try refused(
      a + end(1, 0) + [UInt8](repeating: 0, count: 300),
      .paddingLength(
        found: Padding.paddedLength(a.count + 17 + 300) - a.count - 17, expected: 256 - a.count - 17
      ),
      record: 2)
    try refused(
      Array(entryRecord("a", [UInt8](repeating: 0x41, count: 1000)).prefix(100)),
      .endsInsideRecord, record: 1)
    let stamp = Array("2026-11-29T16:05:09+01:00".utf8)
    let journal: [UInt8] = [2] + stamp + [0, 0, 0, 1, 0x4A]
    XCTAssertEqual(try read(sealed(a + journal + end(1, 1))).journal.count, 1)
    try refused(journal + a + end(1, 1), .entryAfterJournal, record: 2)
    try refused(
      [2] + Array("2026-11-29T16:05:09Z     ".utf8) + [0, 0, 0, 1, 0x4A] + end(0, 1),
      .stampMalformed, record: 1)
    try refused([2] + stamp + [0, 0, 0, 0] + end(0, 1), .journalTextLength(0), record: 1)
  }

  func nameFault(_ name: String) -> InputFault? {
    do {
      _ = try EntryName(name)
      return nil
    } catch VaultError.invalidInput(let fault) {
      return fault
    } catch {
      return nil
    }
  }

  func testTheWriterRefusesWhatTheReaderWould() throws {
    XCTAssertThrowsError(try ExportTest.write(.vault, [TestEntry("b", "1"), TestEntry("a", "2")])) {
      XCTAssertEqual($0 as? ExportError, .notInOrder(name: "a"))
    }
    XCTAssertThrowsError(
      try ExportPassphrase(utf8: SecureBytes(copying: Array("short".utf8))).checkStrength()
    ) {
      XCTAssertEqual($0 as? ExportError, .passphrase(.tooShort(length: 5, minimum: 12)))
    }
    XCTAssertThrowsError(
      try ExportPassphrase(utf8: SecureBytes(copying: Array("aaaaaaaaaaaaaaaa".utf8)))
        .checkStrength()
    ) {
      guard case .passphrase(.weak(_, let minimum))? = $0 as? ExportError else {
        return XCTFail("\($0)")
      }
      XCTAssertEqual(minimum, ExportPassphrase.minimumBits)
    }
    XCTAssertNoThrow(
      try ExportPassphrase(utf8: SecureBytes(copying: Array(Self.passphrase.utf8))).checkStrength())
    // NFC: a decomposed passphrase opens what its composed form sealed.
    let (bytes, _) = try ExportTest.write(
      .vault, [TestEntry("x", "y")], passphrase: "caf\u{E9} horse battery")
    XCTAssertEqual(try read(bytes, passphrase: "cafe\u{301} horse battery").entries.count, 1)
  }
}
