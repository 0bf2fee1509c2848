import Foundation
import XCTest

@testable import VaultCLI

/// A vault and device state written by release 0.1.0 (committed under `Tests/Fixtures`) still
/// unlocks with its PIN and a match: the domain state, the device secret, the header and the
/// records read exactly as that release wrote them.
final class ReleaseFixtureTests: XCTestCase {
  static let folder = GeneratorTestSupport.packageRoot + "/Tests/Fixtures/release-0.1.0"

  func makeBox() throws -> Sandbox {
    let box = Sandbox()
    let manager = FileManager.default
    for (file, folder) in [("vault.db", "/data/vault"), ("device.json", "/state/vault")] {
      try manager.createDirectory(
        atPath: box.home + folder, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      try manager.copyItem(atPath: Self.folder + "/" + file, toPath: box.home + folder + "/" + file)
    }
    return box
  }

  func testAnActivatedVaultOfTheFirstReleaseStillUnlocks() throws {
    let box = try makeBox()
    let status = box.biosim(["status"])
    XCTAssertTrue(status.stdoutText.contains("domain state:  abee1d1bbcaaa037…"), status.stdoutText)
    box.biosim(["next", "match"])
    let entry = box.vaultPIN(["get", "fixture/entry"])
    XCTAssertEqual(entry.status, 0, entry.stderrText)
    XCTAssertEqual(entry.stdoutText, "from the first release\n")
    let token = box.unlock()
    let session = ["VAULT_SESSION": token]
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "fixture/entry\n")
    let journal = box.vault(["journal", "show", "cdfb98ee"], env: session)
    XCTAssertEqual(journal.stdoutText, "A journal entry from 0.1.0.\n")
    XCTAssertEqual(box.vault(["check"], env: session).status, 0)
    let biometry = box.statusJSON()["biometry"] as? [String: Any]
    XCTAssertEqual(biometry?["state"] as? String, "active")
  }

  func testAnEnrollmentChangeIsStillDetected() throws {
    let box = try makeBox()
    box.biosim(["enroll", "--label", "left-index"])
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["unlock"]).status, 15)
  }
}
