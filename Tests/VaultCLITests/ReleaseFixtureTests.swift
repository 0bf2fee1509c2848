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
      // A checkout makes them 0644; vault refuses anything but private files.
      chmod(box.home + folder + "/" + file, 0o600)
    }
    return box
  }

  func testAnActivatedVaultOfTheFirstReleaseStillUnlocks() throws {
    let box = try makeBox()
    let status = box.biosim(["status"])
    XCTAssertTrue(status.stdoutText.contains("domain state:  abee1d1bbcaaa037…"), status.stdoutText)
    box.biosim(["next", "match"])
    // Its PIN, 2468, is shorter than a new PIN may be: it still unlocks, and status says so.
    let entry = box.vault(["get", "fixture/entry"], pin: ["2468"])
    XCTAssertEqual(entry.status, 0, entry.stderrText)
    XCTAssertEqual(entry.stdoutText, "from the first release\n")
    XCTAssertTrue(
      box.vault(["status"]).stdoutText.contains(
        "warning:          the PIN is shorter than 6 characters; set a longer one with"
          + " 'vault passwd'"))
    box.biosim(["next", "match"])
    let unlocked = box.vault(["unlock", "--raw"], pin: ["2468"])
    XCTAssertEqual(unlocked.status, 0, unlocked.stderrText)
    let session = ["VAULT_SESSION": unlocked.stdoutText.trimmingCharacters(in: .newlines)]
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
    XCTAssertEqual(box.vault(["unlock"], pin: ["2468"]).status, 15)
  }
}
