import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultSecrets

/// Reads never depend on a write succeeding, and a file-size limit is an error, not a silent
/// death by SIGXFSZ.
final class ResourceLimitTests: XCTestCase {
  var box: Sandbox!

  override func setUpWithError() throws {
    try TestTier.requireSystem("resource limits")
    box = Sandbox(extra: ["VAULT_TEST_BOOTCLOCK": "1000"])
  }
  override func tearDown() { box = nil }

  /// A session's renewal is in the agent's memory: with no file allowed to grow, a read due
  /// for renewal still answers.
  func testAReadInASessionWorksWhenNoFileMayGrow() {
    var session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "x"], stdin: Array("v".utf8), env: session).status, 0)
    session["VAULT_TEST_BOOTCLOCK"] = "1100"
    let read = box.shell("ulimit -f 0; vault get x", env: session)
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "v")
    XCTAssertEqual(read.stderrText, "")
    let list = box.shell("ulimit -f 0; vault list", env: session)
    XCTAssertEqual(list.stdoutText, "x\n")
    XCTAssertEqual(list.status, 0, list.stderrText)
  }

  func testAFileSizeLimitIsAClearErrorAndLosesNothing() throws {
    let session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "keep"], stdin: Array("kept".utf8), env: session).status, 0)
    let big = box.home + "/big"
    try Data(repeating: 0x61, count: 1 << 20).write(to: URL(fileURLWithPath: big))
    // With the PIN, so the write runs in the limited process, not in the agent's worker.
    let add = box.shell(
      "printf '%s\\n' \"$PIN\" > \"$HOME/pin\"; ulimit -f 64;"
        + " vault add big --pin-fd 3 3<\"$HOME/pin\" < \"$HOME/big\"")
    XCTAssertEqual(add.status, 1, add.stderrText)
    XCTAssertEqual(
      add.errorLines,
      [
        "vault: error: disk I/O error: the file-size limit (ulimit -f) of 32768 bytes was"
          + " reached; nothing was written"
      ])
    XCTAssertEqual(box.vault(["get", "keep"], env: session).stdoutText, "kept")
    XCTAssertEqual(box.vault(["get", "big"], env: session).status, 3)
    XCTAssertEqual(box.vault(["check"], env: session).status, 0)
  }
}
