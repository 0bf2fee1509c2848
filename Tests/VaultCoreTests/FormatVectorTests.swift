import Foundation
import XCTest

@testable import VaultAgent
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultSync

/// The test vectors of `vault(5)` (computed with Python's hashlib), recomputed by the code, and
/// found in the page's source, so page and code cannot drift apart.
final class FormatVectorTests: XCTestCase {
  let master = key(Array(0...31))
  let vaultID = try! VaultID([UInt8](repeating: 2, count: 16))
  let recordID = [UInt8](repeating: 1, count: 16)

  static let page: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let url = root.appendingPathComponent("man/src/vault.5.in")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  /// The page with each vector's 32-digit halves joined: the digits after the label column.
  static let vectors: String = page.split(separator: "\n").map {
    $0.dropFirst(min(16, $0.count))
  }.joined()

  func inPage(_ hex: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    XCTAssertTrue(Self.vectors.contains(hex), "\(hex) is not in vault.5.in", file: file, line: line)
    return hex
  }

  func testPadding() {
    let pairs = [
      (1, 256), (256, 256), (257, 272), (1000, 1024), (65536, 65536), (65537, 67584),
      (1_000_000, 1_015_808),
    ]
    for (n, padded) in pairs {
      XCTAssertEqual(Padding.paddedLength(n), padded)
      XCTAssertTrue(Self.page.contains("pad(\(n)) = \(padded)"), "pad(\(n))")
    }
  }

  func testSettingsRecordIDAndRevisionAssociatedData() {
    XCTAssertEqual(
      master.derive(.rotation).bytes.unprotectedBytes.hex,
      inPage("20b606cc2c183e4a82212fefb3644b7d8d1cd7165bd70b447021486d33991de0"))
    XCTAssertEqual(VaultSettings.recordID.hex, inPage("31bdc7ff49eb1159c80cae70e6ca8c70"))
    let boxes = RecordBox(vaultID: vaultID, masterKey: master)
    XCTAssertEqual(
      boxes.recordAD(recordID: recordID, kind: .revision, revision: 1).hex,
      inPage(
        "7661756c742e7265636f72642e76320202020202020202020202020202020201"
          + "010101010101010101010101010101020000000000000001"))
  }

  func testSubkeysRowsAggregateStateAndAssociatedData() throws {
    XCTAssertEqual(
      master.derive(.records).bytes.unprotectedBytes.hex,
      inPage("4a516f24ba98dccf0670d8a1250afef9461dd3ec812dc90a1d930aefd0cc3c39"))
    let rows = master.derive(.rows)
    let record = RecordRow(
      recordID: recordID, lookup: nil, kind: 4, revision: 1, box: Array("box".utf8))
    XCTAssertEqual(
      RowHash.encode(table: RowHash.records, columns: record.columns).hex,
      inPage(
        "01020000001001010101010101010101010101010101000100000000000000040100000000000000010200000003626f78"
      ))
    let h1 = RowHash.hash(key: rows, table: RowHash.records, columns: record.columns)
    XCTAssertEqual(
      h1.hex, inPage("0dcafe78226c7b0f042188f2fbb6a8d02fbfe1d23efe9ae47c62f58f950f839e"))
    let chunk = ChunkRow(recordID: recordID, revision: 1, index: 0, box: Array("chunk".utf8))
    let h2 = RowHash.hash(key: rows, table: RowHash.chunks, columns: chunk.columns)
    XCTAssertEqual(
      h2.hex, inPage("ab1754ef95cd5a6cf06ba227cfea43e43bb8229e43735d25cce8c1797b0f709c"))
    // The tag hash of a chunk row (header `chunk_hash` "tag"): its place, length and last 16
    // bytes; the whole-row rule gives another hash for the same row.
    let tagged = ChunkRow(recordID: recordID, revision: 1, index: 0, box: Array(0...63))
    XCTAssertEqual(
      RowHash.encode(
        table: ChunkRowHash.tagTable,
        columns: [.blob(recordID), .integer(1), .integer(0), .integer(64), .blob(Array(48...63))]
      ).hex,
      inPage(
        "0302000000100101010101010101010101010101010101000000000000000101"
          + "000000000000000001000000000000004002000000103031323334353637383"
          + "93a3b3c3d3e3f"))
    XCTAssertEqual(
      try ChunkRowHash(rule: .tag, rowKey: rows).hash(tagged).hex,
      inPage("8ececacf7051eaafe8efaf9093d3c25f14ecd46054fc52a3bf746177cfc3e0cb"))
    XCTAssertEqual(
      try ChunkRowHash(rule: nil, rowKey: rows).hash(chunk).hex,
      "ab1754ef95cd5a6cf06ba227cfea43e43bb8229e43735d25cce8c1797b0f709c")
    var sum = Aggregate.zero
    sum.add(h1)
    sum.add(h2)
    XCTAssertEqual(
      sum.bytes.hex, inPage("b8e15268b839d67bf48c2a1acba1ecb46b7704718271f809494bb709111ff33a"))

    let digest = Header.digest(Array("{}".utf8))
    XCTAssertEqual(
      digest.hex, inPage("281d2a07fa3a7148513196345836ff52edb6f2a58c70d16ea45ca5ca94266fe2"))
    let summary = StateLink.summary(
      headerDigest: digest, buckets: [UInt8](repeating: 0, count: 8192),
      chunks: [UInt8](repeating: 0, count: 32))
    XCTAssertEqual(
      summary.hex, inPage("6d6a082a5d246f22131b8d93b661ad16ccdd1e197a1188e3f0e20c5ce0f5ef9f"))
    let first = StateLink.next(
      after: nil, summary: summary, key: master.derive(.state), vaultID: vaultID)
    XCTAssertEqual(
      first.mac.hex, inPage("acfc822392eda632d0182e089913320527f02c8984087187b3389d682cf30c51"))
    let second = StateLink.next(
      after: first, summary: summary, key: master.derive(.state), vaultID: vaultID)
    XCTAssertEqual(second.generation, 2)
    XCTAssertEqual(
      second.mac.hex, inPage("45230bc10f2fda6594c7b35f3a645dc79417c5e8891614c68eeb6658524ee632"))

    let boxes = RecordBox(vaultID: vaultID, masterKey: master)
    XCTAssertEqual(
      boxes.recordAD(recordID: recordID, kind: .entry, revision: 3).hex,
      inPage(
        "7661756c742e7265636f72642e76320202020202020202020202020202020201010101010101010101010101010101010000000000000003"
      ))
    XCTAssertEqual(
      boxes.chunkAD(recordID: recordID, revision: 3, index: 0, final: true).hex,
      inPage(
        "7661756c742e6368756e6b2e7632020202020202020202020202020202020101010101010101010101010101010100000000000000030000000001"
      ))
  }

  func testSyncSubkeysFileNamesAndHash() {
    XCTAssertEqual(
      master.derive(.sync).bytes.unprotectedBytes.hex,
      inPage("81be86b9c51c4cd06216ce2d372356798adab01d4d13b78e61fac598caedd587"))
    XCTAssertEqual(
      master.derive(.syncIndex).bytes.unprotectedBytes.hex,
      inPage("01e80ffdd3be5e5e793bd5c65e3f99f4bb4b6edebe9bab48c098feae9025b6c2"))
    let files = SyncFiles(vaultID: vaultID, masterKey: master)
    let row = RecordRow(
      recordID: recordID, lookup: nil, kind: 4, revision: 1, box: Array("box".utf8))
    let name = inPage("dd7aa676ab21a9cb2cfab27c263b3cf7")
    XCTAssertEqual(files.recordPath(row), "records/01/" + name)
    let content = inPage("6a73d9059fa9828010f3c7a8f4531b26")
    XCTAssertEqual(
      files.contentPath(
        recordID: recordID, revision: 3, contentID: [UInt8](repeating: 3, count: 16)),
      "contents/6a/" + content)
    XCTAssertEqual(
      files.hash(path: "records/01/" + name, bytes: Array("box".utf8)).hex,
      inPage("22bb5e6fa4498435b00da10f759bec9955d18f2b99d19092d5f91a1bc4d21d8f"))
  }

  func testStreamsSubkeyAndMessageAssociatedData() {
    let contentID = [UInt8](repeating: 3, count: 16)
    XCTAssertEqual(
      master.derive(.streams).bytes.unprotectedBytes.hex,
      inPage("27577cfeb56bc6e63d5e340dcfb3212d29c324c9b4b14fce8661158666e0468b"))
    let boxes = RecordBox(vaultID: vaultID, masterKey: master)
    XCTAssertEqual(
      boxes.streamAD(recordID: recordID, revision: 3, index: 0, contentID: contentID).hex,
      inPage(
        "7661756c742e73747265616d2e76320202020202020202020202020202020201"
          + "01010101010101010101010101010103030303030303030303030303030303000000000000000300000000"
      ))
    XCTAssertEqual(
      boxes.chunkAD(recordID: recordID, revision: 3, index: 0, final: true, contentID: contentID)
        .hex,
      inPage(
        "7661756c742e6368756e6b2e7633020202020202020202020202020202020101"
          + "01010101010101010101010101010303030303030303030303030303030300000000000000030000000001"
      ))
    XCTAssertEqual(SecretStream.headerByteCount, 24)
    XCTAssertEqual(SecretStream.overhead, 17)
    XCTAssertEqual(SecretStream.finalTag, 3)
    XCTAssertTrue(Self.page.contains("`TAG_FINAL` (3)"))
  }

  func testHOTPCounterNameAndRecordID() {
    let name = OneTimeCodeCounters.name(entry: recordID, secret: secure("12345678901234567890"))
    XCTAssertEqual(
      name, inPage("hotp:01010101010101010101010101010101:0e39a55686b92bc75e99d051d751a50e"))
    XCTAssertEqual(
      OneTimeCodeCounters.parts(of: name)?.entryID, recordID)
    XCTAssertEqual(
      WriterCounters.recordID(name, masterKey: master).hex,
      inPage("47710e4c5e813d6d76963cb425d95870"))
  }

  func testSessionGrant() throws {
    let token = SessionToken(
      secret: SecureBytes(copying: Array(0...31) as [UInt8]), folder: "/run/user/1000/vault")
    XCTAssertEqual(
      token.grantID.hex,
      inPage("ed9ab9d30c443749030c0b9035f1fbf22f957f0717563bdbf42e02784091b311"))
    let text = String(decoding: token.text.unprotectedBytes, as: UTF8.self)
    XCTAssertEqual(
      text,
      "grant1:000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f:"
        + "2f72756e2f757365722f313030302f7661756c74")
    XCTAssertTrue(
      Self.vectors.contains(text.replacingOccurrences(of: "grant1:", with: "")),
      "the text is in vault.5.in")
  }

  /// The export of `vault(5)` EXPORT FORMAT's vector, made by `Tests/vectors/export-format.py`.
  static let exportFile =
    "5641554c54455850010000000000000001000000000000200003030303030303"
    + "030303030303030303b6e4736b07adbd149713298ce2d7b85b04040404040404"
    + "0404040404040404040404040404040404972161b1aa54d4b0e757e4b97125b8"
    + "f4016c2c3ce87fd1808955a9417c484a6c4ff1d93e89e35fbfe51bb81e5d71a8"
    + "910b3c89ec83bd894a1731aa57d3dee8e6895f6853463291fd82f45d644a2e2e"
    + "34a2e744f0e48359db03011993e167051097c29515a145704f7ce012afe00fd3"
    + "3643c2b45b089270b8fda4daee78ccc505de9b0eb5353ffd367763000503bc02"
    + "4a47170a94aef7eeb82b411958cf9d3350363ce2666e5b4c1846dac76d4e1e46"
    + "2559022dc56c53644ade1c16af4db9f428ce97ed7337b7e271a51c666196820a"
    + "bf25af2aa345ad834f020da47b6c7a2edd08959d95205e404360ac3e2c00d145"
    + "627256badb5cdfd2da371699f131150560796cb78d22752c2cd1c1be76cfb697" + "4813"

  static func bytes(hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      out.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return out
  }

  func testExportKeyCheckStreamKeyAndHeader() throws {
    let passphrase = try ExportPassphrase(utf8: secure("correct horse battery staple"))
    let salt = try Salt([UInt8](repeating: 3, count: 16))
    let key = try Argon2id.derive(secret: passphrase.bytes, salt: salt, parameters: .test)
    XCTAssertEqual(
      key.unprotectedBytes.hex,
      inPage("aa5e895a44c06d6d31086008993ba20fcafe1a40e2b39d50496c6f7aacfd6d37"))
    let prefix = VaultExport.prefix(parameters: .test, salt: salt)
    XCTAssertEqual(prefix.count, VaultExport.prefixByteCount)
    let file = Self.bytes(hex: inPage(Self.exportFile))
    XCTAssertEqual(Array(file.prefix(41)), prefix)
    let (check, streamKey) = VaultExport.keys(from: key, prefix: prefix)
    XCTAssertEqual(check.hex, inPage("b6e4736b07adbd149713298ce2d7b85b"))
    XCTAssertEqual(
      streamKey.bytes.unprotectedBytes.hex,
      inPage("675de2fb31de1e0db887a65c6b0a471d2b57bb7076d21970d93953122def7598"))
    XCTAssertEqual(Array(file[41..<57]), check)
    XCTAssertEqual(
      VaultExport.associatedData(header: Array(file.prefix(81))),
      Array("vault.export.v1".utf8) + Array(file.prefix(81)))
    XCTAssertEqual(VaultExport.headerByteCount, 81)
    XCTAssertEqual(VaultExport.pieceSize, 65536)
    XCTAssertEqual(VaultExport.messageOverhead, 17)
  }

  func testTheExportVectorOpensToItsRecordsAndPadding() throws {
    let file = SecureBytes(copying: Self.bytes(hex: Self.exportFile))
    let opener = try VaultExportOpener(bytes: file)
    XCTAssertEqual(opener.parameters, .test)
    try opener.unlock(ExportPassphrase(utf8: secure("correct horse battery staple")))
    let piece = try XCTUnwrap(opener.nextPiece())
    let records = inPage(
      "010000096d61696c2f776f726b323032362d30312d30325430333a30343a3035"
        + "5a323032362d30322d30335430343a30353a30365a000000000000001668756e"
        + "746572320a757365726e616d653a206164610a02323032362d30322d30335430"
        + "353a30353a30362b30313a30300000001557616c6b656420746f207468652072"
        + "697665722e0a0000000000000000010000000000000001")
    let expected = Self.bytes(hex: records)
    XCTAssertEqual(Array(piece), expected + [UInt8](repeating: 0, count: 256 - expected.count))
    XCTAssertNil(try opener.nextPiece())
  }

  func testTheExportVectorRefusesAnotherPassphraseBeforeAnyMessage() throws {
    let opener = try VaultExportOpener(
      bytes: SecureBytes(copying: Self.bytes(hex: Self.exportFile)))
    XCTAssertThrowsError(
      try opener.unlock(ExportPassphrase(utf8: secure("correct horse battery stapler")))
    ) { XCTAssertEqual(VaultError($0), .wrongPassphrase) }
  }
}

/// The links of `handoffs` (`vault(5)` MASTER-KEY ROTATION): their vectors, and the walk a device
/// holding an older key makes.
final class KeyHandoffTests: XCTestCase {
  let master = key(Array(0...31))
  let other = key(Array(32...63))
  let vaultID = try! VaultID([UInt8](repeating: 2, count: 16))
  let device = [UInt8](repeating: 3, count: 16)

  func inPage(_ hex: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    XCTAssertTrue(
      FormatVectorTests.vectors.contains(hex), "\(hex) is not in vault.5.in", file: file,
      line: line)
    return hex
  }

  func testCommitmentsAndTheSignedMessageAreThePageVectors() {
    let previous = KeyHandoff.commitment(master, vaultID: vaultID)
    let next = KeyHandoff.commitment(other, vaultID: vaultID)
    XCTAssertEqual(
      previous.hex,
      inPage("067641c6b77150a0d391254f4c57e703d1df7d08559135b588a510cffcbce903"))
    XCTAssertEqual(
      next.hex,
      inPage("7e96063e10b8bf4e24878611dca4c6aea1b3aeaecb4a70d44b9ea0cab9c203ac"))
    let message = KeyHandoff.message(
      vaultID: vaultID, previous: previous, next: next, deviceID: device,
      writerKey: [UInt8](repeating: 4, count: 32))
    XCTAssertEqual(message.count, 148)
    XCTAssertEqual(
      GenericHash.hash(parts: [message]).hex,
      inPage("2a2d91a9e513e588c73b54e9172c0846dcbdcfbb03bba1b33c04507630e78cb3"))
  }

  func testEnrollmentKeySignatureAndAuthorizationAreThePageVectors() throws {
    let first = try Enrollment.key(
      code: secure("0123456789ABCDEFGHJKMNPQRSTVWXYZ"), vaultID: vaultID)
    let next = try Enrollment.key(
      code: secure("ZYXWVTSRQPNMKJHGFEDCBA9876543210"), vaultID: vaultID)
    let seed = GenericHash.keyed(
      key: secure("0123456789ABCDEFGHJKMNPQRSTVWXYZ"),
      parts: [DomainLabel.enrollmentSeed.bytes, vaultID.bytes])
    XCTAssertEqual(
      seed.hex, inPage("adda871b2f21b5a24ef1ea24941721516f768eafb505a3dceeb6e398bda9e66f"))
    XCTAssertEqual(
      first.publicKey.hex,
      inPage("bb29df5c44ef8b11e11e3c494b293777eb643321192c40b61c673699e4832ded"))
    XCTAssertEqual(
      next.publicKey.hex,
      inPage("28f3f26fbbc449f734d41bf6dcc36a2b6f2340fad30b35080f25744d7884a0f7"))
    let publicKey = [UInt8](repeating: 5, count: 32)
    let writerKey = [UInt8](repeating: 4, count: 32)
    let message = Enrollment.message(
      vaultID: vaultID, deviceID: device, publicKey: publicKey, writerKey: writerKey, serial: nil)
    XCTAssertEqual(message.count, 115)
    XCTAssertEqual(
      Enrollment.message(
        vaultID: vaultID, deviceID: device, publicKey: publicKey, writerKey: writerKey, serial: 2
      ).count, 123)
    let record = DeviceRecord(
      deviceID: device.base64, deviceTag: "", publicKey: publicKey.base64, pinSalt: "",
      pinWrapped: "", masterBox: "", slotTag: "", writerKey: writerKey.base64, biometry: nil)
    let enrolled = Enrollment.enrolled(record, by: first, vaultID: vaultID)
    XCTAssertEqual(
      try [UInt8](base64: enrolled.enrollment ?? "", field: "").hex,
      inPage(
        "2232c850b6f2f90c0ce15ea9ac8d55d7706b6a0be444d57dacedb25e2f17bfbb"
          + "040c3c2c61d18bc3f0eb697d948b687bf4b5946361b24aa2c6d52067cc099c03"))
    XCTAssertTrue(Enrollment.verifies(enrolled, enrollmentKey: first.publicKey, vaultID: vaultID))
    XCTAssertFalse(Enrollment.verifies(enrolled, enrollmentKey: next.publicKey, vaultID: vaultID))
    var moved = enrolled
    moved.publicKey = [UInt8](repeating: 6, count: 32).base64
    XCTAssertFalse(Enrollment.verifies(moved, enrollmentKey: first.publicKey, vaultID: vaultID))
    var rewritten = enrolled
    rewritten.writerKey = [UInt8](repeating: 6, count: 32).base64
    XCTAssertFalse(
      Enrollment.verifies(rewritten, enrollmentKey: first.publicKey, vaultID: vaultID))
    XCTAssertFalse(Enrollment.verifies(record, enrollmentKey: first.publicKey, vaultID: vaultID))
    // Since 0.11.0: the second enrollment of the id signs its serial, so neither the first's
    // signature nor a serial changed afterwards verifies.
    var second = record
    second.enrollmentSerial = 2
    let secondEnrolled = Enrollment.enrolled(second, by: first, vaultID: vaultID)
    XCTAssertEqual(
      try [UInt8](base64: secondEnrolled.enrollment ?? "", field: "").hex,
      inPage(
        "6e50b2a1b971a5302fb17c0c72547d87126957e656f7591ae6ee5199cc62cfe3"
          + "b25f0f9ccdfb2cacc5a0295dcc24ecdce747a2d7421ae139883524b78eaf0d09"))
    XCTAssertTrue(
      Enrollment.verifies(secondEnrolled, enrollmentKey: first.publicKey, vaultID: vaultID))
    var replayed = second
    replayed.enrollment = enrolled.enrollment
    XCTAssertFalse(Enrollment.verifies(replayed, enrollmentKey: first.publicKey, vaultID: vaultID))
    var raised = secondEnrolled
    raised.enrollmentSerial = 3
    XCTAssertFalse(Enrollment.verifies(raised, enrollmentKey: first.publicKey, vaultID: vaultID))
    let authorization = KeyHandoff.authorizationMessage(
      vaultID: vaultID, previous: KeyHandoff.commitment(master, vaultID: vaultID),
      next: KeyHandoff.commitment(other, vaultID: vaultID), deviceID: device,
      writerKey: [UInt8](repeating: 4, count: 32), enrollmentKey: next.publicKey)
    XCTAssertEqual(authorization.count, 190)
    XCTAssertEqual(
      authorization.withUnsafeBytes { first.sign($0) }.hex,
      inPage(
        "f06cf91a3f371fb9ba6ad7a9cd207f07f98e98ebb483b03f593c3d42461cecbc"
          + "0df4ba2d6b2c16be6991979a459c9688fa4deb265ad766baddf7d69704392607"))
    XCTAssertEqual(
      Enrollment.revocationMessage(vaultID: vaultID, deviceID: device, writerKey: writerKey).count,
      83)
    let revocation = try XCTUnwrap(
      Enrollment.revocation(
        of: device.base64, writerKey: writerKey.base64, by: first, vaultID: vaultID))
    XCTAssertEqual(revocation.writerKey, writerKey.base64)
    XCTAssertEqual(
      try [UInt8](base64: revocation.signature, field: "").hex,
      inPage(
        "2eaae47b4256106e4f7ce6f915b8fe4524c965c7e87fa70757b66cd80e5a680b"
          + "3c7a098521b8c5d011a91cd51c776c348ba01163f148054f6c22d7da69e55d09"))
    XCTAssertTrue(
      Enrollment.verifies(
        RevokedDevice(deviceID: device.base64, signed: revocation),
        enrollmentKey: first.publicKey, vaultID: vaultID))
    var otherWriter = revocation
    otherWriter.writerKey = [UInt8](repeating: 6, count: 32).base64
    for (revoked, key) in [
      (RevokedDevice(deviceID: device.base64, signed: revocation), next.publicKey),
      (
        RevokedDevice(deviceID: [UInt8](repeating: 4, count: 16).base64, signed: revocation),
        first.publicKey
      ),
      (RevokedDevice(deviceID: device.base64, signed: otherWriter), first.publicKey),
      (RevokedDevice(deviceID: device.base64, signed: nil), first.publicKey),
    ] {
      XCTAssertFalse(Enrollment.verifies(revoked, enrollmentKey: key, vaultID: vaultID))
    }
  }

  func testTheWalkFollowsSignedAuthorizedLinksAndRefusesEveryBrokenOne() throws {
    let writer = Signing.generate()
    let writer2 = Signing.generate()
    let (code1, code2, code3) = (Signing.generate(), Signing.generate(), Signing.generate())
    let third = key(Array(64...95))
    func link(
      _ from: SymmetricKey, _ to: SymmetricKey, signer: SigningKeyPair, writer: [UInt8],
      enrollment: SigningKeyPair, authorizer: SigningKeyPair?
    ) -> KeyHandoff {
      KeyHandoff.make(
        from: from, to: to, vaultID: vaultID, deviceID: device, signer: signer,
        newWriterKey: writer, newEnrollmentKey: enrollment.publicKey, authorizer: authorizer)
    }
    let first = link(
      master, other, signer: writer, writer: writer2.publicKey, enrollment: code2,
      authorizer: code1)
    let second = link(
      other, third, signer: writer2, writer: Signing.generate().publicKey, enrollment: code3,
      authorizer: code2)
    let id = device.base64
    func walk(
      _ links: [KeyHandoff], trusted: [String: [UInt8]]? = nil, box: SymmetricKey? = nil,
      own: [UInt8]? = nil
    ) throws -> (key: SymmetricKey, enrollmentKey: [UInt8]) {
      try KeyHandoff.walk(
        links, from: master, vaultID: vaultID, trusted: trusted ?? [id: writer.publicKey],
        enrollmentKey: code1.publicKey, ownWriter: { deviceID, _ in deviceID == id ? own : nil },
        masterBoxes: ["box"]
      ) { _ in box ?? third }
    }
    // Two rotations since this device's key: the second signed by the writer key the first
    // names, and authorized by the code the first put in force.
    let walked = try walk([first, second])
    XCTAssertEqual(walked.key.bytes.unprotectedBytes, third.bytes.unprotectedBytes)
    XCTAssertEqual(walked.enrollmentKey, code3.publicKey)
    func refusal(_ body: () throws -> Any) -> String {
      do {
        _ = try body()
        return "taken"
      } catch VaultError.integrity(.handoff(let damage)) {
        return "\(damage)"
      } catch {
        return "\(error)"
      }
    }
    XCTAssertEqual(
      refusal { try walk([second]) },
      "\(HandoffDamage.fromNoKeyHeld(maximumHandoffs: 16))")
    XCTAssertEqual(
      refusal { try walk([first, second], trusted: [:]) },
      "\(HandoffDamage.unknownSigner)")
    XCTAssertEqual(
      refusal { try walk([first, second], trusted: [id: writer2.publicKey]) },
      "\(HandoffDamage.notSigned)")
    var forged = second
    forged.next = KeyHandoff.commitment(key(Array(96...127)), vaultID: vaultID).base64
    XCTAssertEqual(
      refusal { try walk([first, forged]) }, "\(HandoffDamage.notSigned)")
    // Whoever holds the old key and a writer key, and not the code: no authorization, one by
    // another key, one by the code before the one in force, a swapped enrollment key.
    let unauthorized = "\(HandoffDamage.notAuthorized)"
    let bare = link(
      master, other, signer: writer, writer: writer2.publicKey, enrollment: code2,
      authorizer: nil)
    XCTAssertEqual(refusal { try walk([bare, second]) }, unauthorized)
    let stranger = link(
      master, other, signer: writer, writer: writer2.publicKey, enrollment: code2,
      authorizer: Signing.generate())
    XCTAssertEqual(refusal { try walk([stranger, second]) }, unauthorized)
    let stale = link(
      other, third, signer: writer2, writer: Signing.generate().publicKey, enrollment: code3,
      authorizer: code1)
    XCTAssertEqual(refusal { try walk([first, stale]) }, unauthorized)
    var swapped = first
    swapped.enrollmentKey = Signing.generate().publicKey.base64
    XCTAssertEqual(refusal { try walk([swapped, second]) }, unauthorized)
    // A link without authorization is this device's own when its writer key is the one this
    // device makes for it; another writer key is not.
    XCTAssertEqual(
      try walk([bare, second], own: writer2.publicKey).enrollmentKey, code3.publicKey)
    XCTAssertEqual(
      refusal { try walk([bare, second], own: Signing.generate().publicKey) }, unauthorized)
    XCTAssertEqual(
      refusal { try walk([first, second], box: other) },
      "\(HandoffDamage.sealedKeyNotRotated)")
    XCTAssertEqual(
      refusal {
        try KeyHandoff.walk(
          [first], from: master, vaultID: vaultID, trusted: [id: writer.publicKey],
          enrollmentKey: code1.publicKey, ownWriter: { _, _ in nil }, masterBoxes: ["a", "b"]
        ) { _ in nil }
      },
      "\(HandoffError.notSealedToThisDevice)")
  }
}
