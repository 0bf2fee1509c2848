import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultJournal
@testable import VaultSecrets

/// Commands that read the vault before a `vault rekey` committed and write after it: they lost
/// a race (exit 18), never an integrity failure, and nothing is stored under the retired key.
final class RotationRaceTests: XCTestCase {
  var home: TemporaryHome!

  override func setUp() { home = TemporaryHome() }
  override func tearDown() { home = nil }

  func testAWriteWithTheRetiredKeyLosesTheRace() throws {
    let environment = home.environment()
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinOnly,
      environment: environment)
    try EntryStore(vault: created.vault, masterKey: created.masterKey).put(
      EntryName("a"), content: secure("alpha"), overwrite: false, guarded: false)
    let stale = try Vault.open(path: home.vaultPath, environment: environment)
    try stale.verifyState(masterKey: created.masterKey)
    let rotated = try Vault.open(path: home.vaultPath, environment: environment)
    try rotated.verifyState(masterKey: created.masterKey)
    let done = try rotated.rekey(
      masterKey: created.masterKey, recoveryCode: RecoveryCode.generate())
    XCTAssertThrowsError(
      try EntryStore(vault: stale, masterKey: created.masterKey).put(
        EntryName("a"), content: secure("edited"), overwrite: true, guarded: false)
    ) {
      guard case .vaultChanged = VaultError($0) else { return XCTFail("\($0)") }
    }
    // A journal entry begun before the rotation is sealed to the key the device recorded at
    // the rotation, which the file now names: it is kept, and the new key opens it.
    try JournalStore.append(
      secure("during the rotation"), to: stale, stamp: JournalStamp.local(1_767_225_600))
    let after = try Vault.open(path: home.vaultPath, environment: environment)
    try after.verifyState(masterKey: done.masterKey)
    let journal = try JournalStore(vault: after, masterKey: done.masterKey)
    XCTAssertEqual(
      try journal.contents().entries.map { $0.text.unprotectedBytes },
      [Array("during the rotation".utf8)])
    XCTAssertEqual(
      try EntryStore(vault: after, masterKey: done.masterKey).get(EntryName("a")).content
        .unprotectedBytes, Array("alpha".utf8))
  }

  /// More rotations than the header keeps retired writer keys: only the keys that signed an
  /// entry still in the vault are kept, so the journal keeps verifying.
  func testManyRotationsKeepTheJournalVerifiable() throws {
    let environment = home.environment()
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinOnly,
      environment: environment)
    try JournalStore.append(
      secure("first"), to: created.vault, stamp: JournalStamp.local(1_767_225_600))
    try JournalStore(vault: created.vault, masterKey: created.masterKey).fold()
    var key = created.masterKey
    for _ in 0..<(Header.maximumRetiredWriters + 2) {
      let vault = try Vault.open(path: home.vaultPath, environment: environment)
      try vault.verifyState(masterKey: key)
      key = try vault.rekey(masterKey: key, recoveryCode: RecoveryCode.generate()).masterKey
    }
    let vault = try Vault.open(path: home.vaultPath, environment: environment)
    try vault.verifyState(masterKey: key)
    XCTAssertEqual(vault.header.retiredWriters?.count, 1)
    XCTAssertEqual(try IntegrityCheck.verify(vault, masterKey: key).journal, 1)
    XCTAssertEqual(vault.header.rotations?.count, Header.maximumRotations)
  }
}
