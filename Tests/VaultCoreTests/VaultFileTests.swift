import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

final class VaultFileTests: XCTestCase {
  var home: TemporaryHome!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { home = nil }
  var environment: VaultEnvironment!

  override func setUp() {
    home = TemporaryHome()
    environment = home.environment()
  }

  func makeVault(policy: Policy = .pinOnly) throws -> Vault.Created {
    try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: policy,
      environment: environment)
  }

  /// Runs raw SQL on the vault file, as an attacker with write access would.
  func tamper(_ sql: String, _ bind: [UInt8]? = nil) {
    XCTAssertNoThrow(
      try VaultFileTamperer(path: home.vaultPath).execute(sql, bind.map { [.blob($0)] } ?? []))
  }

  func testCreateUnlockAndModes() throws {
    let created = try makeVault()
    let reopened = try Vault.open(path: home.vaultPath, environment: environment)
    let master = try reopened.unlock(pin: pin("123400"))
    XCTAssertTrue(master == created.masterKey)
    var info = stat()
    stat(home.vaultPath, &info)
    XCTAssertEqual(info.st_mode & 0o777, 0o600)
    stat(home.path + "/data/vault", &info)
    XCTAssertEqual(info.st_mode & 0o777, 0o700)
    stat(home.path + "/state/vault/device.json", &info)
    XCTAssertEqual(info.st_mode & 0o777, 0o600)
    XCTAssertEqual(reopened.header.kdf, .test)
    XCTAssertEqual(reopened.header.devices.count, 1)
    XCTAssertNotNil(reopened.header.recovery.verifier)
    XCTAssertThrowsError(try makeVault()) {
      XCTAssertEqual(VaultError($0), .vaultExists(home.vaultPath))
    }
  }

  func testMissingVault() {
    XCTAssertThrowsError(try Vault.open(path: home.path + "/none.db", environment: environment)) {
      XCTAssertEqual(VaultError($0), .noVault(home.path + "/none.db"))
    }
  }

  func testWrongPINAndRecoveryCode() throws {
    let created = try makeVault()
    XCTAssertThrowsError(try created.vault.unlock(pin: pin("999900"))) {
      XCTAssertEqual(VaultError($0), .wrongPIN(attemptsBeforeDelay: 4))
    }
    let master = try created.vault.unlock(recoveryCode: created.recoveryCode)
    XCTAssertTrue(master == created.masterKey)
    XCTAssertThrowsError(try created.vault.unlock(recoveryCode: RecoveryCode.generate())) {
      XCTAssertEqual(VaultError($0), .wrongRecoveryCode)
    }
  }

  func testCopiedVaultNeedsRecoveryOnAnotherDevice() throws {
    let created = try makeVault()
    let otherHome = TemporaryHome()
    let other = otherHome.environment()
    try PrivateFiles.ensureDirectory(otherHome.path + "/data/vault")
    XCTAssertEqual(
      copyfile(home.vaultPath, otherHome.vaultPath), true)
    let copied = try Vault.open(path: otherHome.vaultPath, environment: other)
    XCTAssertThrowsError(try copied.unlock(pin: pin("123400"))) {
      XCTAssertEqual(VaultError($0), .otherDevice)
    }
    XCTAssertEqual(copied.limiter.failures(try copied.device.read()), 0, "not counted")
    let master = try copied.unlock(recoveryCode: created.recoveryCode)
    try copied.setPIN(pin("567800"), masterKey: master)
    XCTAssertTrue(try copied.unlock(pin: pin("567800")) == created.masterKey)
    XCTAssertThrowsError(try copied.unlock(pin: pin("123400")))
  }

  func testEditedHeaderIsAnIntegrityFailure() throws {
    let created = try makeVault()
    let body = String(decoding: try created.vault.header.encoded(), as: UTF8.self)
    let edited = body.replacingOccurrences(
      of: "\"policy\":\"pin\"", with: "\"policy\":\"pin+biometry\"")
    XCTAssertNotEqual(body, edited)
    tamper("UPDATE header SET body = ?", Array(edited.utf8))
    let vault = try Vault.open(path: home.vaultPath, environment: environment)
    XCTAssertEqual(vault.header.policy, Policy.pinAndBiometry)
    XCTAssertThrowsError(try vault.unlock(pin: pin("123400"))) {
      XCTAssertEqual(
        VaultError($0), .integrity(.headerFailedAuthentication))
    }
  }

  /// `vault(5)` DEVICES `policy`: `vault init` writes the device's own policy; another parses,
  /// is that device's whatever the header's, and is written back in its sorted place.
  func testADeviceRecordsOwnPolicyWinsOverTheHeaders() throws {
    let created = try makeVault()
    let body = String(decoding: try created.vault.header.encoded(), as: UTF8.self)
    XCTAssertTrue(body.contains("\"policy\":\"pin\""))
    XCTAssertFalse(body.contains("\"policy\":\"pin+biometry\""))
    let edited = body.replacingOccurrences(
      of: "\"policy\":\"pin\",\"public_key\":", with: "\"policy\":\"pin+biometry\",\"public_key\":")
    let header = try Header.parse(Array(edited.utf8))
    XCTAssertEqual(header.policy, .pinOnly)
    XCTAssertEqual(header.devices.map(\.policy), [.pinAndBiometry])
    XCTAssertEqual(String(decoding: try header.encoded(), as: UTF8.self), edited)
  }

  func testHeaderParsingIsStrict() throws {
    let created = try makeVault()
    let body = String(decoding: try created.vault.header.encoded(), as: UTF8.self)
    let cases: [(String, VaultError)] = [
      (body.replacingOccurrences(of: "\"format\":2", with: "\"format\":3"), .unsupportedVersion(3)),
      (
        body.replacingOccurrences(of: "\"devices\":[{", with: "\"devices\":[{\"extra\":1,"),
        .malformedHeader(.unknownField(.deviceRecord, name: "extra"))
      ),
      (
        body.replacingOccurrences(of: "\"recovery\":{", with: "\"recovery\":{\"pin\":1,"),
        .malformedHeader(.unknownField(.recoverySlot, name: "pin"))
      ),
      (
        body.replacingOccurrences(of: "\"devices\":[", with: "\"devices\":[],\"x\":["),
        .malformedHeader(.unknownField(.header, name: "x"))
      ),
      (
        body.replacingOccurrences(of: "\"opslimit\":1", with: "\"opslimit\":17"),
        .malformedHeader(.kdf(.outOfBounds(parameter: "opslimit", value: 17)))
      ),
      (
        body.replacingOccurrences(of: "\"opslimit\":1", with: "\"opslimit\":2"),
        .malformedHeader(.kdf(.profileMismatch(profile: "test")))
      ),
      (
        body.replacingOccurrences(of: "\"memlimit\":8192", with: "\"memlimit\":8589934592"),
        .malformedHeader(.kdf(.outOfBounds(parameter: "memlimit", value: 8_589_934_592)))
      ),
      (
        body.replacingOccurrences(of: "\"policy\":\"pin\"", with: "\"policy\":\"none\""),
        .malformedHeader(.unknownPolicy("none"))
      ),
      (
        body.replacingOccurrences(
          of: "\"policy\":\"pin\",\"public_key\"", with: "\"policy\":\"face\",\"public_key\""),
        .malformedHeader(.unknownPolicy("face"))
      ),
      (
        body.replacingOccurrences(
          of: "\"policy\":\"pin\",\"public_key\"", with: "\"policy\":1,\"public_key\""),
        .malformedHeader(.body(.fieldsNotValid))
      ),
      (
        "{\"extra\":1," + body.dropFirst(),
        .malformedHeader(.unknownField(.header, name: "extra"))
      ),
      ("[]", .malformedHeader(.body(.notAJSONObject))),
      (
        String(repeating: " ", count: 65_536) + body,
        .malformedHeader(.body(.tooLarge))
      ),
    ]
    for (text, error) in cases {
      XCTAssertNotEqual(text, body)
      XCTAssertThrowsError(try Header.parse(Array(text.utf8))) {
        XCTAssertEqual(VaultError($0), error)
      }
    }
  }

  /// `revoked_devices` (vault(5) Devices): read back as written; a repeated id, the id of a
  /// record the header holds, and an id of another length are malformed.
  func testRevokedDevicesAreParsedStrictly() throws {
    let created = try makeVault()
    var header = created.vault.header
    let other = [UInt8](repeating: 7, count: 16).base64
    let signature = SignedRevocation(
      writerKey: [UInt8](repeating: 8, count: 32).base64,
      signature: [UInt8](repeating: 9, count: 64).base64)
    header.revokedDevices = [other]
    header.revocations = [signature]
    let parsed = try Header.parse(try header.encoded())
    XCTAssertEqual(parsed.revokedDevices, [other])
    XCTAssertEqual(parsed.revocationPairs, [RevokedDevice(deviceID: other, signed: signature)])
    XCTAssertEqual(parsed.revokedDeviceHexIDs, [String(repeating: "07", count: 16)])
    let why = VaultError.malformedHeader(.lists(.revokedDevicesInvalid(maximum: 256)))
    for ids in [[other, other], [header.devices[0].deviceID]] {
      header.revokedDevices = ids
      header.revocations = ids.map { _ in signature }
      XCTAssertThrowsError(try Header.parse(try header.encoded())) {
        XCTAssertEqual(VaultError($0), why)
      }
    }
    header.revokedDevices = [[UInt8](repeating: 7, count: 15).base64]
    header.revocations = [signature]
    XCTAssertThrowsError(try Header.parse(try header.encoded())) {
      XCTAssertEqual(VaultError($0), .malformedHeader(.invalidBase64(field: "revoked_devices")))
    }
    // One revocation for each revoked id of an enrolled header, of 64 bytes; none in a header
    // the code has not enrolled.
    header.revokedDevices = [other]
    let notBase64 = VaultError.malformedHeader(.invalidBase64(field: "revocations"))
    for (revocations, expected) in [
      (nil, .malformedHeader(.lists(.revocationMissing))),
      ([signature, signature], .malformedHeader(.lists(.revocationsNotOnePerDevice))),
      (
        [
          SignedRevocation(
            writerKey: signature.writerKey, signature: [UInt8](repeating: 9, count: 63).base64)
        ],
        notBase64
      ),
      (
        [
          SignedRevocation(
            writerKey: [UInt8](repeating: 8, count: 31).base64, signature: signature.signature)
        ],
        notBase64
      ),
    ] as [([SignedRevocation]?, VaultError)] {
      header.revocations = revocations
      XCTAssertThrowsError(try Header.parse(try header.encoded()), "\(expected)") {
        XCTAssertEqual(VaultError($0), expected)
      }
    }
    header.revocations = [signature]
    header.recovery.enrollmentKey = nil
    for index in header.devices.indices { header.devices[index].enrollment = nil }
    XCTAssertThrowsError(try Header.parse(try header.encoded())) {
      XCTAssertEqual(VaultError($0), .malformedHeader(.lists(.revocationsNotOnePerDevice)))
    }
    header.revocations = nil
    XCTAssertEqual(try Header.parse(try header.encoded()).revocationPairs.map(\.signed), [nil])
  }

  func testHandoffsAreParsedStrictly() throws {
    let created = try makeVault()
    var header = created.vault.header
    let link = KeyHandoff.make(
      from: created.masterKey, to: SymmetricKey.random(), vaultID: header.vaultID,
      deviceID: header.devices[0].deviceIDBytes, signer: Signing.generate(),
      newWriterKey: Signing.generate().publicKey, newEnrollmentKey: Signing.generate().publicKey,
      authorizer: Signing.generate())
    header.handoffs = [link]
    XCTAssertEqual(try Header.parse(try header.encoded()).handoffs, [link])
    var bare = link
    bare.authorization = nil
    header.handoffs = [bare]
    XCTAssertEqual(try Header.parse(try header.encoded()).handoffs, [bare])
    let withoutKey = String(decoding: try header.encoded(), as: UTF8.self).replacingOccurrences(
      of: "\"enrollment_key\":\"\(link.enrollmentKey)\",", with: "")
    XCTAssertFalse(withoutKey.contains(link.enrollmentKey))
    XCTAssertThrowsError(try Header.parse(Array(withoutKey.utf8))) {
      XCTAssertEqual(VaultError($0), .malformedHeader(.body(.fieldsNotValid)))
    }
    header.handoffs = Array(repeating: link, count: 17)
    XCTAssertThrowsError(try Header.parse(try header.encoded())) {
      XCTAssertEqual(VaultError($0), .malformedHeader(.lists(.tooManyHandoffs(maximum: 16))))
    }
    var short = link
    short.signature = [UInt8](repeating: 1, count: 63).base64
    header.handoffs = [short]
    XCTAssertThrowsError(try Header.parse(try header.encoded())) {
      XCTAssertEqual(VaultError($0), .malformedHeader(.invalidBase64(field: "handoffs")))
    }
    header.handoffs = [link]
    let body = String(decoding: try header.encoded(), as: UTF8.self).replacingOccurrences(
      of: "\"device_id\":\"\(link.deviceID)\",\"enrollment_key\"",
      with: "\"device_id\":\"\(link.deviceID)\",\"extra\":1,\"enrollment_key\"")
    XCTAssertTrue(body.contains("\"extra\":1"))
    XCTAssertThrowsError(try Header.parse(Array(body.utf8))) {
      XCTAssertEqual(VaultError($0), .malformedHeader(.unknownField(.handoff, name: "extra")))
    }
  }

  /// `vault(5)` ENROLLMENT: a new vault's records are enrolled by its code, and a header has
  /// enrollments exactly when its recovery slot has the enrollment key.
  func testEnrollmentsAreMadeAtInitAndParsedStrictly() throws {
    let created = try makeVault()
    var header = created.vault.header
    let signer = try Enrollment.key(code: created.recoveryCode, vaultID: header.vaultID)
    XCTAssertEqual(header.recovery.enrollmentKey, signer.publicKey.base64)
    XCTAssertNoThrow(try header.verifyEnrollments())
    XCTAssertTrue(
      Enrollment.verifies(
        header.devices[0], enrollmentKey: signer.publicKey, vaultID: header.vaultID))
    let enrollment = header.devices[0].enrollment
    header.devices[0].enrollment = nil
    XCTAssertThrowsError(try Header.parse(try header.encoded())) {
      XCTAssertEqual(VaultError($0), .malformedHeader(.deviceRecords(.notEnrolled)))
    }
    header.recovery.enrollmentKey = nil
    XCTAssertNoThrow(try Header.parse(try header.encoded()))
    XCTAssertThrowsError(try header.verifyEnrollments()) {
      XCTAssertEqual(
        VaultError($0),
        .integrity(.device(.notEnrolled)))
    }
    header.devices[0].enrollment = enrollment
    XCTAssertThrowsError(try Header.parse(try header.encoded())) {
      XCTAssertEqual(
        VaultError($0),
        .malformedHeader(.deviceRecords(.enrolledWithoutKey)))
    }
    header.recovery.enrollmentKey = signer.publicKey.base64
    header.devices[0].enrollment = [UInt8](repeating: 1, count: 63).base64
    XCTAssertThrowsError(try Header.parse(try header.encoded())) {
      XCTAssertEqual(VaultError($0), .malformedHeader(.invalidBase64(field: "enrollment")))
    }
    // A record whose X25519 key was replaced by whoever holds the master key is not enrolled.
    header.devices[0].enrollment = enrollment
    header.devices[0].publicKey = SealedBox.keyPair().publicKey.base64
    XCTAssertThrowsError(try header.verifyEnrollments()) {
      XCTAssertEqual(
        VaultError($0),
        .integrity(.device(.recordNotEnrolled(deviceID: header.devices[0].deviceIDBytes.hex))))
    }
  }

  /// The header is decoded by hand (no Codable on every command's path): each member's type is
  /// checked as the Codable decoding of earlier releases checked it, and what it wrote reads back
  /// as it was.
  func testHeaderMembersOfAnotherTypeAreRefusedAndTheWrittenOneReadsBack() throws {
    let created = try makeVault()
    let encoded = try created.vault.header.encoded()
    XCTAssertEqual(try Header.parse(encoded), created.vault.header)
    let body = String(decoding: encoded, as: UTF8.self)
    let invalid = VaultError.malformedHeader(.body(.fieldsNotValid))
    let cases: [(String, VaultError)] = [
      (
        body.replacingOccurrences(of: "\"format\":2", with: "\"format\":\"2\""),
        .malformedHeader(.body(.noFormatVersion))
      ),
      (
        body.replacingOccurrences(of: "\"format\":2", with: "\"format\":2.0"),
        .malformedHeader(.body(.noFormatVersion))
      ),
      (body.replacingOccurrences(of: "\"policy\":\"pin\"", with: "\"policy\":null"), invalid),
      (body.replacingOccurrences(of: "\"opslimit\":1", with: "\"opslimit\":-1"), invalid),
      (body.replacingOccurrences(of: "\"opslimit\":1", with: "\"opslimit\":\"1\""), invalid),
      (
        body.replacingOccurrences(of: "\"chunk_hash\":\"tag\"", with: "\"chunk_hash\":\"row\""),
        invalid
      ),
      (body.replacingOccurrences(of: "\"devices\":[{", with: "\"devices\":[7,{"), invalid),
      (
        body.replacingOccurrences(of: "\"recovery\":{", with: "\"recovery\":{\"tag\":true,"),
        .malformedHeader(.body(.notAJSONObject))
      ),
      (
        body.replacingOccurrences(
          of: "\"devices\":[{", with: "\"devices\":[{\"biometry\":{\"state\":\"on\"},"),
        .malformedHeader(.unknownBiometryState("on"))
      ),
      (
        body.replacingOccurrences(of: "\"format\":2", with: "\"format\":2,\"format\":2"),
        .malformedHeader(.body(.notAJSONObject))
      ),
    ]
    for (text, error) in cases {
      XCTAssertNotEqual(text, body)
      XCTAssertThrowsError(try Header.parse(Array(text.utf8)), text) {
        XCTAssertEqual(VaultError($0), error, text)
      }
    }
    let nullOptional = body.replacingOccurrences(
      of: "\"chunk_hash\":\"tag\"", with: "\"chunk_hash\":null")
    XCTAssertNil(try Header.parse(Array(nullOptional.utf8)).chunkHash)
  }

  func testNewerSchemaAndForeignFilesAreRefused() throws {
    _ = try makeVault()
    tamper("PRAGMA user_version = 3")
    XCTAssertThrowsError(try Vault.open(path: home.vaultPath, environment: environment)) {
      XCTAssertEqual(VaultError($0), .unsupportedVersion(3))
    }
    tamper("PRAGMA application_id = 7")
    XCTAssertThrowsError(try Vault.open(path: home.vaultPath, environment: environment)) {
      XCTAssertEqual(VaultError($0), .integrity(.notAVaultFile(path: home.vaultPath)))
    }
  }

  func testEntriesRoundTripInChunksAndStayEncrypted() throws {
    let created = try makeVault()
    let store = EntryStore(vault: created.vault, masterKey: created.masterKey)
    let big = (0..<(EntryStore.chunkSize * 2 + 17)).map { UInt8(truncatingIfNeeded: $0 * 7) }
    try store.put(
      try EntryName("big"), content: SecureBytes(copying: big), overwrite: false, guarded: false)
    try store.put(
      try EntryName("mail/work"), content: secure("hunter2-UNIQUEMARK"), overwrite: false,
      guarded: true)
    XCTAssertEqual(try store.get(try EntryName("big")).content.unprotectedBytes, big)
    XCTAssertEqual(try store.get(try EntryName("big")).metadata.chunks, 3)
    XCTAssertEqual(try store.list().map(\.name), ["big", "mail/work"])
    XCTAssertEqual(try store.list(prefix: "mail").map(\.name), ["mail/work"])
    XCTAssertEqual(try store.metadata(try EntryName("mail/work"))?.guarded, true)
    XCTAssertThrowsError(
      try store.put(try EntryName("big"), content: secure("x"), overwrite: false, guarded: false)
    ) { XCTAssertEqual(VaultError($0), .exists("big")) }
    XCTAssertThrowsError(
      try store.put(
        try EntryName("new"), content: SecureBytes(count: 0), overwrite: false, guarded: false)
    ) { XCTAssertEqual(VaultError($0), .invalidInput(.emptyContent)) }
    let raw = try XCTUnwrap(PrivateFiles.read(home.vaultPath))
    for needle in ["hunter2", "UNIQUEMARK", "mail/work", "2026-", "\"name\""] {
      XCTAssertNil(raw.firstRange(of: Array(needle.utf8)), needle)
    }
  }

  /// A command that verified the state, then waited while others wrote more states than are
  /// kept, still writes: the device remembers a later state the chain reaches.
  func testAWriterThatFellBehindTheKeptStatesStillWrites() throws {
    let created = try makeVault()
    let late = EntryStore(vault: created.vault, masterKey: created.masterKey)
    let other = try Vault.open(path: home.vaultPath, environment: environment)
    try other.verifyState(masterKey: created.masterKey)
    let busy = EntryStore(vault: other, masterKey: created.masterKey)
    for index in 0..<Int(Vault.keptStates) + 10 {
      try busy.put(
        try EntryName("busy/\(index)"), content: secure("x"), overwrite: false, guarded: false)
    }
    try late.put(try EntryName("late"), content: secure("y"), overwrite: false, guarded: false)
    XCTAssertTrue(try late.get(try EntryName("late")).content == secure("y"))
  }

  func testSwappedRecordsFailToOpen() throws {
    let created = try makeVault()
    let store = EntryStore(vault: created.vault, masterKey: created.masterKey)
    try store.put(try EntryName("a"), content: secure("alpha"), overwrite: false, guarded: false)
    try store.put(try EntryName("b"), content: secure("bravo"), overwrite: false, guarded: false)
    // Swap the two rows' indexes: b's index gives the row of a, which opens but names another
    // entry. (A placeholder index left behind would be a malformed row whenever it fell in b's
    // bucket, one run in 256.)
    let lookupA = store.lookup(try EntryName("a"))
    let lookupB = store.lookup(try EntryName("b"))
    tamper("UPDATE records SET lookup = X'00' WHERE lookup = X'\(lookupB.hex)'")
    tamper("UPDATE records SET lookup = X'\(lookupB.hex)' WHERE lookup = X'\(lookupA.hex)'")
    tamper("UPDATE records SET lookup = X'\(lookupA.hex)' WHERE lookup = X'00'")
    // The rows no longer add up in their buckets (a name's bucket follows from its index).
    XCTAssertThrowsError(try store.get(try EntryName("b"))) {
      XCTAssertEqual(VaultError($0), .integrity(.state(.recordsNotAuthenticated)))
    }
  }

  func testChunksSwappedBetweenEntriesOrFlippedFailToOpen() throws {
    let created = try makeVault()
    let store = EntryStore(vault: created.vault, masterKey: created.masterKey)
    try store.put(try EntryName("a"), content: secure("alpha"), overwrite: false, guarded: false)
    try store.put(try EntryName("b"), content: secure("bravo"), overwrite: false, guarded: false)
    tamper("CREATE TABLE saved AS SELECT record_id, box FROM chunks")
    tamper(
      "UPDATE chunks SET box = (SELECT box FROM saved WHERE saved.record_id != chunks.record_id)")
    tamper("DROP TABLE saved")
    for name in ["a", "b"] {
      XCTAssertThrowsError(try store.get(try EntryName(name))) {
        XCTAssertEqual(
          VaultError($0),
          .integrity(.sealed(object: "the content of '\(name)'", .failedAuthentication)))
      }
    }
    try store.put(try EntryName("c"), content: secure("charlie"), overwrite: false, guarded: false)
    // Byte 30 changed whatever it was (set to FF, it stayed the same one run in 256).
    tamper(
      "UPDATE chunks SET box = CAST(substr(box, 1, 30)"
        + " || CASE WHEN substr(box, 31, 1) = X'FF' THEN X'00' ELSE X'FF' END"
        + " || substr(box, 32) AS BLOB)")
    XCTAssertThrowsError(try store.get(try EntryName("c"))) {
      XCTAssertEqual(
        VaultError($0), .integrity(.sealed(object: "the content of 'c'", .failedAuthentication)))
    }
  }

  func testReplayedOldRevisionFailsToOpen() throws {
    let created = try makeVault()
    let store = EntryStore(vault: created.vault, masterKey: created.masterKey)
    let name = try EntryName("a")
    try store.put(name, content: secure("old"), overwrite: false, guarded: false)
    let oldBox = try VaultFileTamperer(path: home.vaultPath).blob("SELECT box FROM chunks")
    try store.put(name, content: secure("new"), overwrite: true, guarded: false)
    tamper("UPDATE chunks SET box = ?", oldBox)
    XCTAssertThrowsError(try store.get(name)) {
      XCTAssertEqual(
        VaultError($0), .integrity(.sealed(object: "the content of 'a'", .failedAuthentication)))
    }
  }

  func testMoveAndRemove() throws {
    let created = try makeVault()
    let store = EntryStore(vault: created.vault, masterKey: created.masterKey)
    try store.put(try EntryName("a"), content: secure("alpha"), overwrite: false, guarded: false)
    try store.put(try EntryName("b"), content: secure("bravo"), overwrite: false, guarded: false)
    XCTAssertThrowsError(
      try store.move(try EntryName("a"), to: try EntryName("b"), overwrite: false)
    ) {
      XCTAssertEqual(VaultError($0), .exists("b"))
    }
    try store.move(try EntryName("a"), to: try EntryName("c/d"), overwrite: false)
    XCTAssertEqual(
      try store.get(try EntryName("c/d")).content.unprotectedBytes, Array("alpha".utf8))
    XCTAssertEqual(try store.list().map(\.name), ["b", "c/d"])
    try store.remove(try EntryName("b"))
    XCTAssertThrowsError(try store.remove(try EntryName("b"))) {
      XCTAssertEqual(VaultError($0), .removed("b"))
    }
  }
}

/// Byte-for-byte file copy for the copied-vault test.
func copyfile(_ from: String, _ to: String) -> Bool {
  guard let bytes = try? PrivateFiles.read(from) else { return false }
  return (try? PrivateFiles.atomicWrite(bytes, to: to)) != nil
}
