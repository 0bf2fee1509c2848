import Foundation
import XCTest

@testable import VaultCLI

/// The default tier's two end-to-end runs through real processes.
///
/// A command served by the unlock agent, and two devices syncing through a real git remote. The
/// rest of the agent's and
/// sync's tests are in the system tier (`VAULT_TESTS=all`).
final class EndToEndTests: XCTestCase {
  /// `vault unlock` starts the agent; `vault get` without a PIN is served by it with the exact
  /// bytes; after `vault lock` the same command is refused with exit 10.
  func testACommandIsServedByTheAgentUntilTheVaultIsLocked() {
    let box = Sandbox(extra: ["VAULT_TEST_BOOTCLOCK": "1000"], spawning: true)
    box.initPINOnly()
    let added = box.vaultPIN(["add", "mail/work"], stdin: Array("s3cret\nuser: ada\n".utf8))
    XCTAssertEqual(added.status, 0, added.stderrText)
    let unlocked = box.vaultPIN(["unlock"])
    XCTAssertEqual(unlocked.status, 0, unlocked.stderrText)
    XCTAssertEqual(unlocked.stdout, [])

    let served = box.vault(["get", "mail/work"])
    XCTAssertEqual(served.status, 0, served.stderrText)
    XCTAssertEqual(served.stdoutText, "s3cret\nuser: ada\n")
    XCTAssertEqual(served.stderr, [])

    XCTAssertEqual(box.vault(["lock"]).status, 0)
    let refused = box.vault(["get", "mail/work"])
    XCTAssertEqual(refused.status, 10)
    XCTAssertEqual(refused.stdout, [])
    XCTAssertEqual(refused.errorLines.last, "vault: hint: unlock first with: vault unlock")
  }

  /// A's entry reaches B through a bare git repository; B's new entry comes back to A.
  func testTwoDevicesSyncThroughARealGitRemote() {
    let pair = SyncPair()
    pair.twoSynced()
    let read = pair.b.vault(["get", "mail/work"], pin: [SyncPair.pinB])
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "hunter2")

    pair.add(pair.b, "wifi/home", Array("correct horse".utf8))
    XCTAssertEqual(pair.syncB().status, 0)
    let received = pair.syncA()
    XCTAssertEqual(received.status, 0, received.stderrText)
    let back = pair.a.vaultPIN(["get", "wifi/home"])
    XCTAssertEqual(back.status, 0, back.stderrText)
    XCTAssertEqual(back.stdoutText, "correct horse")
  }
}
