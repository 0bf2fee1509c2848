import Foundation
import VaultTestSupport
import XCTest

/// A command that finds the vault file locked by another process (a long import or export)
/// waits for it, says once that it waits, and gives up with exit 18 only past its limit; what
/// it was given (a journal entry typed in) is written once the lock is gone.
final class FileLockCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]
  static let waiting = "vault: waiting for another vault command that is using the vault file..."

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
  }

  override func tearDown() { box = nil }

  /// Holds an exclusive lock on the vault file (as a writer that is committing does) and lets
  /// it go after `seconds`, on another thread; returns the group to wait on.
  func holdLock(for seconds: Double) throws -> DispatchGroup {
    // Used by this thread, then by the one that lets the lock go, never by both at once.
    nonisolated(unsafe) let holder = try VaultFileTamperer(path: box.vaultPath)
    try holder.execute("BEGIN EXCLUSIVE")
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
      do {
        try holder.execute("COMMIT")
      } catch {
        XCTFail("cannot let the lock go: \(error)")
      }
      group.leave()
    }
    return group
  }

  func testACommandWaitsForTheLockAndSaysSoOnce() throws {
    let released = try holdLock(for: 2.5)
    let added = box.vault(["add", "wifi"], stdin: Array("pw".utf8), env: session)
    released.wait()
    XCTAssertEqual(added.status, 0, added.stderrText)
    XCTAssertEqual(added.stderrText, Self.waiting + "\n")
    XCTAssertEqual(box.vault(["get", "wifi"], env: session).stdoutText, "pw")

    let again = try holdLock(for: 2.5)
    let journal = box.vault(["journal"], stdin: Array("Typed while busy.\n".utf8), env: session)
    again.wait()
    XCTAssertEqual(journal.status, 0, journal.stderrText)
    XCTAssertTrue(journal.stderrText.hasPrefix(Self.waiting + "\n"), journal.stderrText)
    XCTAssertTrue(
      box.vault(["journal", "show", "today"], env: session).stdoutText.hasSuffix(
        "Typed while busy.\n"))
  }

  func testAWaitPastItsLimitEndsWith18AndChangesNothing() throws {
    let released = try holdLock(for: 3)
    let added = box.vault(
      ["add", "wifi"], stdin: Array("pw".utf8),
      env: session.merging(["VAULT_TEST_LOCK_WAIT": "1.5"]) { $1 })
    released.wait()
    XCTAssertEqual(added.status, 18, added.stderrText)
    XCTAssertEqual(
      added.stderrText,
      Self.waiting + "\n"
        + "vault: error: another vault command kept the vault file busy for more than 1 s;"
        + " nothing was changed\n"
        + "vault: hint: run it again when that command has ended\n")
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "")
  }
}
