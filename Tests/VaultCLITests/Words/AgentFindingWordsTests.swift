import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets
import VaultSync
import VaultTransfer
import XCTest

@testable import VaultCLI

/// The words the command line gives the facts of the agent's failures and an impostor on its socket: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class AgentFindingWordsTests: XCTestCase {
  func testWhatWentWrongWithTheAgent() {
    let cases: [(AgentError, ExitCode, String)] = [
      (.notRunning, .failure, "the unlock agent is not running"),
      (.keyNotTaken(nil), .failure, "the unlock agent did not take the key"),
      (.keyNotTaken(.closed), .failure, "the unlock agent did not take the key (closed)"),
      (.keyNotTaken(.system(32)), .failure, "the unlock agent did not take the key (system(32))"),
      (
        .socketOfAnotherUser(socket: "/run/user/1000/vault/agent.sock"), .integrity,
        "integrity failure: the agent socket /run/user/1000/vault/agent.sock is served by another"
          + " user's process"
      ),
      (.requestTooLarge, .invalidInput, "the request to the agent is larger than 4 MiB"),
    ]
    for (error, code, words) in cases {
      XCTAssertEqual(error.exitCode, code)
      XCTAssertEqual(error.message, words)
      XCTAssertNil(error.hint)
    }
  }

  func testAnImpostorOnTheAgentSocket() {
    let cases: [(PeerFinding, String)] = [
      (.noPeer, "the kernel names no peer"),
      (.notHeld, "its process could not be held"),
      (.wrongGroup(1000, expected: 998), "it runs with group 1000, not vault's group 998"),
      (.ownExecutableUnreadable, "this process cannot read its own executable"),
      (.otherProgram("/usr/bin/nc"), "its program is /usr/bin/nc"),
      (.otherProgram(nil), "its program is another program"),
      (.dumpable, "it is dumpable"),
      (.executableUnreadable, "its executable cannot be read"),
      (.ended, "it ended while it was checked"),
      (.noGreeting, "it did not greet as vault's agent"),
      (.anotherWriter(pid: 4242), "another process (pid 4242) speaks for it"),
    ]
    for (finding, words) in cases {
      let report = ExitStatus.report(.agentImpostor(socket: "/a.sock", pid: 77, finding: finding))
      XCTAssertEqual(report.code, .unsafePermissions)
      XCTAssertEqual(
        report.message,
        "the agent socket /a.sock is served by a process that is not vault's agent (pid 77: "
          + words + "); nothing was sent to it")
    }
  }
}
