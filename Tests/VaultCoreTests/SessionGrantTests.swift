import Foundation
import VaultTestSupport
import XCTest

@testable import VaultAgent
@testable import VaultCrypto
@testable import VaultFormat

/// Sessions as grants (vault(5), SESSIONS): the token's text, which grant a request is served
/// by, and what is left on disk.
final class SessionGrantTests: XCTestCase {
  let folder = "/run/user/1000/vault"

  func parsed(_ text: String) -> SessionToken? {
    if case .token(let token) = SessionToken.parse(text) { return token }
    return nil
  }

  func testATokenReadsBackAsItsSecretAndFolder() throws {
    let token = SessionToken.issue(folder: folder)
    let text = String(decoding: token.text.unprotectedBytes, as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("grant1:"), text)
    XCTAssertEqual(text.count, 7 + 64 + 1 + 2 * folder.utf8.count)
    let back = try XCTUnwrap(parsed(text))
    XCTAssertEqual(back.secret, token.secret)
    XCTAssertEqual(back.folder, folder)
    XCTAssertEqual(back.grantID, token.grantID)
    XCTAssertNotEqual(SessionToken.issue(folder: folder).grantID, token.grantID)
  }

  func testA64DigitTokenIsOfAnOlderReleaseAndOtherTextIsMalformed() {
    guard case .olderRelease = SessionToken.parse(String(repeating: "ab", count: 32)) else {
      return XCTFail("64 hex digits are a session of releases 0.3 to 0.12")
    }
    let secret = String(repeating: "0f", count: 32)
    let good = "grant1:" + secret + ":" + Array(folder.utf8).hex
    XCTAssertNotNil(parsed(good))
    let long = "/" + String(repeating: "a", count: 100)
    for text in [
      "", "not-a-token", String(repeating: "AB", count: 32), "grant2:" + secret + ":2f",
      "grant1:" + secret, "grant1:" + secret + ":", "grant1:" + secret.uppercased() + ":2f",
      "grant1:" + String(secret.dropFirst(2)) + ":2f", "grant1:" + secret + ":2",
      "grant1:" + secret + ":" + Array("run/vault".utf8).hex,
      "grant1:" + secret + ":" + Array("/run\u{0}/vault".utf8).hex,
      "grant1:" + secret + ":" + Array(long.utf8).hex, "grant1:" + secret + ":ff",
      good + " ", " " + good,
    ] {
      guard case .malformed = SessionToken.parse(text) else {
        return XCTFail("\(text.debugDescription) is not a token of this release")
      }
    }
  }

  func testAGrantServesOnlyItsTokenAndThePlainHoldOnlyRequestsWithout() {
    var holdings = AgentHoldings()
    let id = VaultID.random()
    let session = SessionToken.issue(folder: folder)
    let other = SessionToken.issue(folder: folder)
    holdings.hold(
      vaultID: id, path: "/v.db", key: .random(), idle: 60, now: 100, grant: session.grantID)
    XCTAssertNil(holdings.current(path: "/v.db", now: 101), "no plain hold")
    XCTAssertNil(holdings.current(path: "/v.db", token: other.secret, now: 101))
    XCTAssertNotNil(holdings.current(path: "/v.db", token: session.secret, now: 101))
    XCTAssertNil(holdings.current(path: "/w.db", token: session.secret, now: 101))
    // A plain hold of the same vault and path leaves the grant, and serves requests without one.
    holdings.hold(vaultID: id, path: "/v.db", key: .random(), idle: 30, now: 110)
    XCTAssertEqual(holdings.holdings.count, 2)
    XCTAssertEqual(holdings.current(path: "/v.db", now: 111)?.idle, 30)
    XCTAssertEqual(holdings.current(path: "/v.db", token: session.secret, now: 111)?.idle, 60)
    // Each has its own timers: the plain hold ends at 140, the grant, used at 150, at 210.
    holdings.renew(path: "/v.db", token: session.secret, now: 150)
    XCTAssertNil(holdings.current(path: "/v.db", now: 150))
    XCTAssertNotNil(holdings.current(path: "/v.db", token: session.secret, now: 209))
    XCTAssertNil(holdings.current(path: "/v.db", token: session.secret, now: 210))
    XCTAssertTrue(holdings.isEmpty, "nothing live is left")
  }

  func testForgettingAVaultEndsItsGrantsAndATokenEndsItsOwnGrantAlone() {
    var holdings = AgentHoldings()
    let id = VaultID.random()
    let first = SessionToken.issue(folder: folder)
    let second = SessionToken.issue(folder: folder)
    for token in [first, second] {
      holdings.hold(
        vaultID: id, path: "/v.db", key: .random(), idle: 60, now: 0, grant: token.grantID)
    }
    holdings.hold(vaultID: id, path: "/v.db", key: .random(), idle: 60, now: 0)
    XCTAssertEqual(holdings.forget(token: first.secret), 1)
    XCTAssertEqual(holdings.forget(token: first.secret), 0)
    XCTAssertNotNil(holdings.current(path: "/v.db", token: second.secret, now: 1))
    XCTAssertNotNil(holdings.current(path: "/v.db", now: 1))
    XCTAssertEqual(holdings.forget(vaultID: id, path: nil), 2, "the hold and the last grant")
    XCTAssertTrue(holdings.isEmpty)
  }

  func testAnotherVaultAtThePathReplacesEveryGrantOfTheOldOne() {
    var holdings = AgentHoldings()
    let session = SessionToken.issue(folder: folder)
    holdings.hold(
      vaultID: .random(), path: "/v.db", key: .random(), idle: 60, now: 0,
      grant: session.grantID)
    holdings.hold(vaultID: .random(), path: "/v.db", key: .random(), idle: 60, now: 1)
    XCTAssertEqual(holdings.holdings.count, 1)
    XCTAssertNil(holdings.current(path: "/v.db", token: session.secret, now: 2))
  }

  func testTheLedgerRemovesTheSessionFilesOfOlderReleasesAndKeepsItsMarkers() throws {
    let home = TemporaryHome()
    let environment = home.environment()
    let ledger = SessionLedger(environment: environment)
    let directory = environment.sessionDirectory
    let id = VaultID.random()
    let manager = FileManager.default
    for name in [id.hex, id.hex + ".revoked-0011223344556677", "not-a-vault-id"] {
      try manager.createDirectory(
        atPath: directory + "/" + name, withIntermediateDirectories: true)
      XCTAssertTrue(manager.createFile(atPath: directory + "/" + name + "/f", contents: Data()))
    }
    chmod(directory, 0o700)
    ledger.revokeAll(vaultID: id, reason: .pinChange)
    XCTAssertEqual(
      try manager.contentsOfDirectory(atPath: directory).sorted(),
      [id.hex + ".revoked", "not-a-vault-id"])
    XCTAssertEqual(ledger.revocation(of: id), .pinChange)
    ledger.clearRevocation(id)
    XCTAssertNil(ledger.revocation(of: id))
    XCTAssertEqual(try manager.contentsOfDirectory(atPath: directory), ["not-a-vault-id"])
  }
}
