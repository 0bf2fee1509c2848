import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultSecrets

/// A listing when the system refuses every new thread (a container's `pids.max`, a memory
/// limit): it ends, with every name, on the calling thread (it waited forever while libdispatch
/// retried thread creation; attack review of issue "Speed").
final class ListWithoutThreadsTests: XCTestCase {
  override func setUpWithError() throws {
    try TestTier.requireSystem("a process without threads")
  }

  func testListFindAndJSONFinishWithoutAnyThread() {
    let box = Sandbox()
    let session = box.pinOnlySession()
    // More than two batches of 1,024 rows, so one is read while another waits for its thread.
    let names = (0..<2_500).map { "site-\(String(1_000_000 + $0).dropFirst())/login" }
    let lines = names.map { #"{"name": "\#($0)", "content": "pw"}"# + "\n" }.joined()
    let imported = box.vault(
      ["import", "--from", "jsonl", "-"], stdin: Array(lines.utf8), env: session)
    XCTAssertEqual(imported.status, 0, imported.stderrText)
    let refused = session.merging(["VAULT_TEST_NO_THREADS": "1"]) { $1 }
    let listed = box.vault(["list"], env: refused)
    XCTAssertEqual(listed.status, 0, listed.stderrText)
    XCTAssertEqual(listed.stdoutText, names.joined(separator: "\n") + "\n")
    let json = box.vault(["list", "--json"], env: refused).stdoutText
    XCTAssertEqual(json.ranges(of: #""name":"site-"#).count, 2_500)
    let found = box.vault(["find", "site-002499"], env: refused)
    XCTAssertEqual(found.status, 0, found.stderrText)
    XCTAssertEqual(found.stdoutText, "site-002499/login\n")
  }
}
