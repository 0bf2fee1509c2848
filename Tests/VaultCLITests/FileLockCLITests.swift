import Foundation
import VaultFormat
import VaultTestSupport
import XCTest

/// A command that finds the vault file locked by another process (a long import or export)
/// waits for it, says once that it waits, and gives up with exit 18 only past its limit; what
/// it was given (a journal entry typed in) is written once the lock is gone.
final class FileLockCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]
  static let waiting = "vault: waiting for another vault command that is using the vault file..."

  override func setUpWithError() throws {
    try TestTier.requireSystem("processes contending for the lock")
    box = Sandbox()
    session = box.pinOnlySession()
  }

  override func tearDown() { box = nil }

  /// Holds an exclusive lock on the vault file (as a writer that is committing does) and lets
  /// it go after `seconds`, on another thread; returns the group to wait on.
  ///
  /// `BEGIN IMMEDIATE` instead holds it as a writer that is still writing does (a long import):
  /// others read, and only their writes wait.
  func holdLock(for seconds: Double, begin: String = "BEGIN EXCLUSIVE") throws -> DispatchGroup {
    // Used by this thread, then by the one that lets the lock go, never by both at once.
    nonisolated(unsafe) let holder = try VaultFileTamperer(path: box.vaultPath)
    try holder.execute(begin)
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

  /// From the attack review: a journal write that gave up leaves no gap.
  ///
  /// A journal entry whose write gave up (exit 18) kept its writer sequence number, and every
  /// later read warned that the entry was never delivered. The
  /// number is given back, so the next entry takes it and nothing is reported.
  func testAJournalEntryThatGaveUpLeavesNoGap() throws {
    let first = box.vault(["journal"], stdin: Array("Before it.\n".utf8), env: session)
    XCTAssertEqual(first.status, 0, first.stderrText)
    let released = try holdLock(for: 3, begin: "BEGIN IMMEDIATE")
    let given = box.vault(
      ["journal"], stdin: Array("Lost to the lock.\n".utf8),
      env: session.merging(["VAULT_TEST_LOCK_WAIT": "1.5"]) { $1 })
    released.wait()
    XCTAssertEqual(given.status, 18, given.stderrText)
    let next = box.vault(["journal"], stdin: Array("After it.\n".utf8), env: session)
    XCTAssertEqual(next.status, 0, next.stderrText)
    // An unlock with the PIN folds the pending entries, counting the writer's numbers.
    XCTAssertEqual(box.vaultPIN(["list"]).status, 0)
    let list = box.vault(["journal", "list"], env: session)
    XCTAssertEqual(list.status, 0, list.stderrText)
    XCTAssertEqual(list.stderrText, "")
    XCTAssertTrue(list.stdoutText.hasSuffix(" After it.\n"), list.stdoutText)
    XCTAssertEqual(box.vault(["check"], env: session).status, 0)
  }
}
