import VaultTestSupport
import XCTest

@testable import VaultAgent
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

final class SessionStoreTests: XCTestCase {
  var home: TemporaryHome!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { home = nil }
  let vaultID = try! VaultID(Array(0..<16))

  override func setUp() { home = TemporaryHome() }

  func sessions(boot: Double, wall: Double = 5_000_000, bootID: String = "boot-1") -> SessionStore {
    SessionStore(
      environment: home.environment([
        "VAULT_TEST_BOOTCLOCK": "\(boot)", "VAULT_TEST_WALLCLOCK": "\(wall)",
        "VAULT_TEST_BOOT_ID": bootID,
      ]))
  }

  func testIssueOpenAndFileModes() throws {
    let master = SymmetricKey.random()
    let token = try sessions(boot: 100).issue(
      vaultID: vaultID, masterKey: master, idle: 900, vaultPath: home.vaultPath)
    XCTAssertEqual(token.count, 64)
    let opened = try sessions(boot: 200).open(token: token, vaultID: vaultID)
    XCTAssertTrue(opened.masterKey == master)
    XCTAssertEqual(opened.expiry, SessionStore.Expiry(idle: 900, hard: 8 * 3600 - 100))
    let path = try XCTUnwrap(sessions(boot: 0).path(token: token, vaultID: vaultID))
    var info = stat()
    stat(path, &info)
    XCTAssertEqual(info.st_mode & 0o777, 0o600)
    stat((path as NSString).deletingLastPathComponent, &info)
    XCTAssertEqual(info.st_mode & 0o777, 0o700)
    let raw = try XCTUnwrap(PrivateFiles.read(path))
    XCTAssertNil(raw.firstRange(of: Array(token.utf8)))
  }

  func testIdleTimeoutIsRenewedOnUse() throws {
    let token = try sessions(boot: 0).issue(
      vaultID: vaultID, masterKey: .random(), idle: 900, vaultPath: home.vaultPath)
    _ = try sessions(boot: 800).open(token: token, vaultID: vaultID)
    _ = try sessions(boot: 1600).open(token: token, vaultID: vaultID)
    XCTAssertThrowsError(try sessions(boot: 2501).open(token: token, vaultID: vaultID)) {
      XCTAssertEqual(VaultError($0), .locked(.sessionExpired))
    }
    XCTAssertThrowsError(try sessions(boot: 2502).open(token: token, vaultID: vaultID)) {
      XCTAssertEqual(VaultError($0), .locked(.sessionUnknown))
    }
  }

  func testHardLimitEndsEvenAnActiveSession() throws {
    let token = try sessions(boot: 0).issue(
      vaultID: vaultID, masterKey: .random(), idle: 3600, vaultPath: home.vaultPath)
    var boot = 0.0
    while boot + 3000 < 8 * 3600 {
      boot += 3000
      _ = try sessions(boot: boot).open(token: token, vaultID: vaultID)
    }
    XCTAssertThrowsError(try sessions(boot: 8 * 3600 + 1).open(token: token, vaultID: vaultID)) {
      XCTAssertEqual(VaultError($0), .locked(.sessionExpired))
    }
  }

  func testSettingTheWallClockBackNeverExtendsASession() throws {
    let token = try sessions(boot: 0, wall: 5_000_000).issue(
      vaultID: vaultID, masterKey: .random(), idle: 60, vaultPath: home.vaultPath)
    XCTAssertThrowsError(
      try sessions(boot: 61, wall: 4_000_000).open(token: token, vaultID: vaultID)
    ) { XCTAssertEqual(VaultError($0), .locked(.sessionExpired)) }
  }

  func testARebootEndsSessions() throws {
    let token = try sessions(boot: 1000).issue(
      vaultID: vaultID, masterKey: .random(), idle: 900, vaultPath: home.vaultPath)
    XCTAssertThrowsError(
      try sessions(boot: 10, bootID: "boot-2").open(token: token, vaultID: vaultID)
    ) { XCTAssertEqual(VaultError($0), .locked(.sessionExpired)) }
  }

  func testRevokeForgedAndOtherVaultTokens() throws {
    let store = sessions(boot: 0)
    let token = try store.issue(
      vaultID: vaultID, masterKey: .random(), idle: 900, vaultPath: home.vaultPath)
    XCTAssertThrowsError(
      try store.open(token: token, vaultID: VaultID(Array(repeating: 9, count: 16)))
    ) {
      XCTAssertEqual(VaultError($0), .locked(.sessionUnknown))
    }
    XCTAssertThrowsError(try store.open(token: String(repeating: "a", count: 64), vaultID: vaultID))
    XCTAssertThrowsError(try store.open(token: "xyz", vaultID: vaultID)) {
      XCTAssertEqual(VaultError($0), .locked(.malformedSessionToken))
    }
    try store.revokeAll(vaultID: vaultID, reason: .lock)
    XCTAssertThrowsError(try store.open(token: token, vaultID: vaultID)) {
      XCTAssertEqual(VaultError($0), .locked(.sessionsRevoked(.lock, noTerminal: false)))
    }
  }

  func testCheckRecordTellsARecordFromAnOlderJSONFileAndDamage() throws {
    let token = try sessions(boot: 100).issue(
      vaultID: vaultID, masterKey: .random(), idle: 900, vaultPath: home.vaultPath)
    let path = try XCTUnwrap(sessions(boot: 0).path(token: token, vaultID: vaultID))
    let raw = try XCTUnwrap(PrivateFiles.read(path))
    XCTAssertEqual(raw.count, SessionStore.recordByteCount)
    XCTAssertNoThrow(try SessionStore.checkRecord(raw))
    XCTAssertThrowsError(try SessionStore.checkRecord(Array(#"{"idle":1e300}"#.utf8))) {
      XCTAssertEqual(
        VaultError($0),
        .locked(.sessionFromOlderRelease))
    }
    for bad in [Array(raw.dropLast()), raw + [0], [], Array(repeating: 0, count: raw.count)] {
      XCTAssertThrowsError(try SessionStore.checkRecord(bad)) {
        XCTAssertEqual(VaultError($0), .integrity(.session(.malformed(path: nil))))
      }
    }
  }

  func testIdleIsWholeSecondsWithinOneSecondAndTheHardLimit() throws {
    for (asked, stored) in [(0.5, 1), (600.9, 600), (1e9, 28800), (Double.nan, 1)]
      as [(Double, Int)]
    {
      let token = try sessions(boot: 100).issue(
        vaultID: vaultID, masterKey: .random(), idle: asked, vaultPath: home.vaultPath)
      let opened = try sessions(boot: 100).open(token: token, vaultID: vaultID)
      XCTAssertEqual(opened.expiry.idle, stored, "\(asked)")
    }
    XCTAssertEqual(SessionStore.milliseconds(-5), 0)
    XCTAssertEqual(SessionStore.milliseconds(.infinity), 0)
    XCTAssertEqual(SessionStore.milliseconds(1e300), SessionRecord.maximumTime)
    XCTAssertEqual(SessionStore.milliseconds(1002.5), 1_002_500)
  }
}
