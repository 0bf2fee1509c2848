import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// Format 2's journal record: its exact bytes, its padded sizes, and every way a record that was
/// not written as it is, where it is, by the writer it names, is refused.
final class SignedJournalRecordTests: XCTestCase {
  /// RFC 8032's TEST 1 key.
  let writer = try? Signing.keyPair(
    seed: SecureBytes(
      copying: hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
  )
  let vaultID = try? VaultID(Array(0x00...0x0f))
  let entryID: [UInt8] = Array(0x10...0x1f)

  func record(text: SecureBytes = secure("dear diary")) throws -> SignedJournalRecord {
    try SignedJournalRecord(
      vaultID: XCTUnwrap(vaultID), entryID: entryID, writerID: Array(0x20...0x2f), sequence: 3,
      revision: 2, stamp: XCTUnwrap(JournalStamp(parsing: "2026-11-29T16:05:09+01:00")),
      text: text)
  }

  func encoded(text: SecureBytes = secure("dear diary")) throws -> SecureBytes {
    try record(text: text).encode(signingWith: XCTUnwrap(writer))
  }

  func decode(_ plain: SecureBytes, entryID: [UInt8]? = nil) throws -> SignedJournalRecord {
    let publicKey = try XCTUnwrap(writer).publicKey
    return try SignedJournalRecord.decodeVerified(
      plain, vaultID: XCTUnwrap(vaultID), entryID: entryID ?? self.entryID
    ) { _ in [publicKey] }
  }

  /// The signed bytes written out field by field, and the signature from OpenSSL's Ed25519
  /// (pyca/cryptography) over them with the same seed.
  func testAFixedRecordHasTheseExactBytes() throws {
    let expected = hex(
      "7661756c742e6a6f75726e616c2e7632"  // "vault.journal.v2"
        + "000102030405060708090a0b0c0d0e0f"  // vault id
        + "101112131415161718191a1b1c1d1e1f"  // entry id
        + "202122232425262728292a2b2c2d2e2f"  // writer id
        + "0000000000000003"  // sequence
        + "0000000000000002"  // revision
        + "19"  // stamp length, 25
        + "323032362d31312d32395431363a30353a30392b30313a3030"  // stamp
        + "0000000a"  // text length, 10
        + "64656172206469617279"  // "dear diary"
        + String(repeating: "00", count: 246)  // padding to 256
        + "5c5ca7a0ea1abb74a2661b63f1c93f21866e9f0158b08998565132c6926b5cb1"  // signature
        + "437cba1a23437fa41a7ecddce893d5c0f856a76953a4ccc0cf07152329ffd50f")
    let plain = try encoded()
    XCTAssertEqual(plain.unprotectedBytes, expected)
    let (decoded, signature, signedCount) = try SignedJournalRecord.decode(
      plain, vaultID: XCTUnwrap(vaultID), entryID: entryID)
    XCTAssertEqual(signedCount, 366)
    XCTAssertEqual(signature, Array(expected.suffix(64)))
    XCTAssertEqual(decoded.writerID, Array(0x20...0x2f))
    XCTAssertEqual(decoded.sequence, 3)
    XCTAssertEqual(decoded.revision, 2)
    XCTAssertEqual(decoded.stamp.description, "2026-11-29T16:05:09+01:00")
    XCTAssertEqual(decoded.text.unprotectedBytes, Array("dear diary".utf8))
    XCTAssertTrue(
      SignedJournalRecord.verify(
        plain, signature: signature, signedCount: signedCount,
        publicKey: try XCTUnwrap(writer).publicKey))
  }

  func testARecordRoundTripsThroughASealedBox() throws {
    let journal = SealedBox.keyPair()
    let text = secure("Ladies and gentlemen of the class of '99 — wear sunscreen.")
    let box = try encoded(text: text).withBytes { SealedBox.seal($0, to: journal.publicKey) }
    let opened = try SealedBox.open(
      box, publicKey: journal.publicKey, secretKey: journal.secretKey, what: "journal entry")
    let decoded = try decode(opened)
    XCTAssertTrue(decoded.text == text)
    XCTAssertEqual(decoded.entryID, entryID)
    XCTAssertEqual(decoded.vaultID, vaultID)
  }

  func testThePaddedSizeHidesTheExactLength() throws {
    // 106 bytes of head and stamp, 4 of text length, the padded text, 64 of signature.
    for (length, size) in [(1, 430), (200, 430), (256, 430), (257, 446), (5000, 5294)] {
      let text = SecureBytes(copying: [UInt8](repeating: 0x61, count: length))
      let plain = try encoded(text: text)
      XCTAssertEqual(plain.count, size, "text of \(length) bytes")
      XCTAssertTrue(try decode(plain).text == text, "text of \(length) bytes")
    }
    XCTAssertEqual(Padding.paddedLength(0), 256)
    XCTAssertEqual(Padding.paddedLength(5000), 5120)
    XCTAssertEqual(Padding.paddedLength(65_536), 65_536)
    XCTAssertEqual(Padding.paddedLength(65_537), 67_584)
  }

  func testASignatureByAnotherKeyIsRefused() throws {
    let plain = try record().encode(signingWith: Signing.generate())
    XCTAssertThrowsError(try decode(plain)) {
      XCTAssertEqual(VaultError($0), .integrity(.journalEntry(.signatureDoesNotVerify)))
    }
  }

  func testAFlippedByteAnywhereIsRefused() throws {
    let plain = try encoded()
    for index in 0..<plain.count {
      for bit in [UInt8(0x01), 0x80] {
        let flipped = SecureBytes(copying: plain.unprotectedBytes)
        flipped[index] ^= bit
        XCTAssertThrowsError(try decode(flipped), "byte \(index), bit \(bit)")
      }
    }
    XCTAssertThrowsError(try decode(plain.prefix(plain.count - 1)))
    XCTAssertThrowsError(try decode(plain.grown(to: plain.count + 1)))
  }

  func testARecordOfAnotherVaultOrEntryIsRefused() throws {
    let writer = try XCTUnwrap(writer)
    let other = try SignedJournalRecord(
      vaultID: VaultID.random(), entryID: entryID, writerID: Array(0x20...0x2f), sequence: 1,
      revision: 1, stamp: record().stamp, text: secure("x"))
    XCTAssertThrowsError(try decode(other.encode(signingWith: writer))) {
      XCTAssertEqual(VaultError($0), .integrity(.journalEntry(.copiedFromAnotherVault)))
    }
    XCTAssertThrowsError(try decode(encoded(), entryID: Array(0x30...0x3f))) {
      XCTAssertEqual(VaultError($0), .integrity(.journalEntry(.copiedFromAnotherEntry)))
    }
  }

  func testNonzeroPaddingIsRefusedEvenWhenSigned() throws {
    let writer = try XCTUnwrap(writer)
    var bytes = try encoded().unprotectedBytes
    bytes[365] = 1
    let signature = bytes.withUnsafeBytes {
      writer.sign(UnsafeRawBufferPointer(rebasing: $0[..<366]))
    }
    bytes.replaceSubrange(366..., with: signature)
    XCTAssertThrowsError(try decode(SecureBytes(copying: bytes))) {
      XCTAssertEqual(VaultError($0), .integrity(.journalEntry(.nonzeroPadding)))
    }
  }

  func testAFormatOneRecordAndBadFieldsAreRefused() throws {
    let v1 = JournalRecord.encode(
      vaultID: try XCTUnwrap(vaultID), entryID: entryID, stamp: try record().stamp,
      text: secure("dear diary"))
    XCTAssertThrowsError(try decode(v1)) {
      XCTAssertEqual(VaultError($0), .integrity(.journalEntry(.malformed)))
    }
    XCTAssertThrowsError(
      try SignedJournalRecord(
        vaultID: XCTUnwrap(vaultID), entryID: entryID, writerID: Array(0x20...0x2f),
        sequence: 0, revision: 1, stamp: record().stamp, text: secure("x")))
    XCTAssertThrowsError(
      try SignedJournalRecord(
        vaultID: XCTUnwrap(vaultID), entryID: [1], writerID: Array(0x20...0x2f), sequence: 1,
        revision: 1, stamp: record().stamp, text: secure("x")))
  }
}
