import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultSecrets

/// `vault lock` always wins against reads that renew the same session at the same moment.
final class RevocationRaceTests: XCTestCase {
  func testLockWinsAgainstConcurrentRenewals() throws {
    var failures: [String] = []
    for round in 0..<TestTier.rounds(sample: 3, stress: 12) {
      let box = Sandbox(extra: ["VAULT_TEST_BOOTCLOCK": "1000"])
      let session = box.pinOnlySession()
      guard let token = session["VAULT_SESSION"] else { return XCTFail("no session") }
      XCTAssertEqual(box.vault(["add", "x"], stdin: Array("v".utf8), env: session).status, 0)
      // A reader whose every read is due for renewal (its clock moves 31 s per read), racing
      // the lock.
      let script = """
        i=0
        while [ $i -lt 40 ]; do
          VAULT_TEST_BOOTCLOCK=$((1031 + 31 * i)) vault list >/dev/null 2>&1
          i=$((i + 1))
        done &
        reader=$!
        sleep 0.0$((\(round) % 9 + 1))
        VAULT_TEST_BOOTCLOCK=1500 vault lock 2>"$HOME/lock.err"
        echo "lock=$?"
        wait $reader
        VAULT_TEST_BOOTCLOCK=2800 vault list >/dev/null 2>&1
        echo "after=$?"
        """
      let result = box.shell(script, env: ["VAULT_SESSION": token])
      if result.stdoutText != "lock=0\nafter=10\n" {
        let err = (try? String(contentsOfFile: box.home + "/lock.err", encoding: .utf8)) ?? ""
        failures.append("round \(round): \(result.stdoutText) \(err)")
      }
    }
    XCTAssertEqual(failures, [])
  }
}
