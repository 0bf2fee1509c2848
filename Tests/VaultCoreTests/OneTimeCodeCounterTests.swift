import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// HOTP counter records in a real vault file: advanced in a write, verified by the integrity
/// check, and carried through a master-key rotation under their names.
final class OneTimeCodeCounterTests: XCTestCase {
  var home: TemporaryHome!

  override func setUp() { home = TemporaryHome() }
  override func tearDown() { home = nil }

  static let uri = "otpauth://hotp/x?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&counter=0"

  func testACounterGrowsAndSurvivesARotation() throws {
    let environment = home.environment()
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinOnly,
      environment: environment)
    let name = try EntryName("h")
    let store = EntryStore(vault: created.vault, masterKey: created.masterKey)
    try store.put(name, content: secure("pw\notp: \(Self.uri)\n"), overwrite: false, guarded: false)
    let code = try OneTimeCode(uri: secure(Self.uri))
    XCTAssertNil(try store.storedCounter(code, of: name))
    var made: [String] = []
    for expected in 0..<3 {
      let counted = try store.nextCode(code, of: name)
      XCTAssertEqual(counted.counter, UInt64(expected))
      made.append(String(decoding: counted.code.unprotectedBytes, as: UTF8.self))
    }
    XCTAssertEqual(made, ["755224", "287082", "359152"])
    XCTAssertEqual(try store.storedCounter(code, of: name), 3)
    XCTAssertEqual(try store.history(name).count, 1)
    XCTAssertEqual(
      try IntegrityCheck.verify(created.vault, masterKey: created.masterKey).entries, 1)

    let vault = try Vault.open(path: home.vaultPath, environment: environment)
    try vault.verifyState(masterKey: created.masterKey)
    let rotated = try vault.rekey(
      masterKey: created.masterKey, recoveryCode: RecoveryCode.generate())
    let after = try Vault.open(path: home.vaultPath, environment: environment)
    try after.verifyState(masterKey: rotated.masterKey)
    let rotatedStore = EntryStore(vault: after, masterKey: rotated.masterKey)
    XCTAssertEqual(try rotatedStore.storedCounter(code, of: name), 3)
    let next = try rotatedStore.nextCode(code, of: name)
    XCTAssertEqual(next.counter, 3)
    XCTAssertEqual(next.code.unprotectedBytes, Array("969429".utf8))
    XCTAssertEqual(try IntegrityCheck.verify(after, masterKey: rotated.masterKey).entries, 1)
  }

  func testTheCheckRefusesACounterOfNoEntryOrOfNoKnownName() throws {
    let fingerprint = String(repeating: "ab", count: 16)
    // The orphan's entry id, or nil for a counter of no known name (its record id is random).
    let cases: [(String, [UInt8]?)] = [
      (
        "hotp:" + String(repeating: "07", count: 16) + ":" + fingerprint,
        Array(repeating: 7, count: 16)
      ),
      ("hotp:07:" + fingerprint, nil),
      ("other:1", nil),
    ]
    for (counterName, orphanOf) in cases {
      let home = TemporaryHome()
      let created = try Vault.create(
        path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinOnly,
        environment: home.environment())
      let counters = WriterCounters(vault: created.vault, masterKey: created.masterKey)
      try created.vault.write(masterKey: created.masterKey) { write in
        try OneTimeCodeCounters.store(
          .init(name: counterName, value: 1), replacing: nil, in: write, counters: counters)
      }
      XCTAssertThrowsError(
        try IntegrityCheck.verify(created.vault, masterKey: created.masterKey), counterName
      ) { error in
        guard case .integrity(.record(let damage)) = VaultError(error) else {
          return XCTFail("\(error)")
        }
        if let orphanOf {
          XCTAssertEqual(damage, .orphanCounter(entryID: orphanOf))
        } else {
          guard case .counterOfUnknownName = damage else { return XCTFail("\(damage)") }
        }
      }
    }
  }
}
