import VaultTestSupport
import XCTest

@testable import VaultAgent
@testable import VaultCLI
@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// Sessions through the built binaries, as grants the agent holds (vault(5), SESSIONS).
///
/// Shells, expiry on the injected boot clock, wall clock set back, `vault lock`, tokens from
/// elsewhere or an older release, a job without `XDG_RUNTIME_DIR`, nothing on disk, guarded
/// reads.
final class SessionCLITests: XCTestCase {
  var box: Sandbox!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }

  override func setUp() {
    box = Sandbox(extra: ["VAULT_TEST_BOOTCLOCK": "1000", "VAULT_TEST_WALLCLOCK": "1800000000"])
    box.initBiometric()
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["add", "note"], stdin: Array("hello".utf8)).status, 0)
  }

  func get(_ token: String, boot: Int, wall: Int = 1_800_000_000) -> Subprocess.Result {
    box.vault(
      ["get", "note"],
      env: [
        "VAULT_SESSION": token, "VAULT_TEST_BOOTCLOCK": "\(boot)",
        "VAULT_TEST_WALLCLOCK": "\(wall)",
      ])
  }

  func testShellSyntaxes() {
    for (arguments, prefix, suffix) in [
      (["unlock", "--shell-session"], "export VAULT_SESSION=", ";\n"),
      (["unlock", "--shell", "zsh"], "export VAULT_SESSION=", ";\n"),
      (["unlock", "--shell=fish"], "set -gx VAULT_SESSION ", ";\n"),
      (["unlock", "--raw"], "", "\n"),
    ] {
      box.biosim(["next", "match"])
      let result = box.vaultPIN(arguments)
      XCTAssertEqual(result.status, 0, result.stderrText)
      let text = result.stdoutText
      let token =
        "grant1:" + String(repeating: "0", count: 64) + ":"
        + Array((box.folder.runtime + "/vault").utf8).hex
      XCTAssertTrue(text.hasPrefix(prefix + "grant1:") && text.hasSuffix(suffix), text)
      XCTAssertEqual(text.count, prefix.count + token.count + suffix.count, text)
    }
    let bad = box.vaultPIN(["unlock", "--shell", "tcsh"])
    XCTAssertEqual(bad.status, 64)
    XCTAssertEqual(
      bad.errorLines,
      [
        "vault: error: invalid value 'tcsh' for --shell (bash, zsh or fish)",
        "Usage: vault unlock [--timeout DURATION] [--shell-session] [--shell SHELL] [--raw] [--force]",
      ])
  }

  func testEvalInBashSetsTheVariable() {
    box.biosim(["next", "match"])
    let result = box.shell(
      #"eval "$(vault unlock --pin-fd 3 3<<EOF"# + "\n$PIN\nEOF\n" + #")"; vault get note"#)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.stdoutText, "hello")
  }

  func testIdleTimeoutRenewedOnUseAndHardLimit() {
    box.biosim(["next", "match"])
    let token = box.vaultPIN(["unlock", "--raw", "--timeout", "10m"]).stdoutText
      .trimmingCharacters(in: .newlines)
    XCTAssertEqual(get(token, boot: 1500).stdoutText, "hello")
    XCTAssertEqual(get(token, boot: 2000).stdoutText, "hello")
    let expired = get(token, boot: 2601)
    XCTAssertEqual(expired.status, 10)
    XCTAssertEqual(expired.stdout, [])
    XCTAssertEqual(
      expired.errorLines,
      [
        "vault: error: locked: the session in VAULT_SESSION has ended (its time ran out, the vault"
          + " was let go, or the unlock agent stopped); unlock again",
        "vault: hint: start a new session with: eval \"$(vault unlock --shell-session)\"",
      ])
  }

  func testHardLimitOfEightHours() {
    let token = box.unlock()
    var boot = 1000
    while boot + 800 < 1000 + 8 * 3600 {
      boot += 800
      XCTAssertEqual(get(token, boot: boot).status, 0, "at \(boot)")
    }
    // A grant ends at its hard limit, however recently it was used (vault(5), AGENT PROTOCOL).
    XCTAssertEqual(get(token, boot: 1000 + 8 * 3600 - 1).status, 0)
    XCTAssertEqual(get(token, boot: 1000 + 8 * 3600).status, 10)
  }

  func testSettingTheWallClockBackNeverExtendsASession() {
    let token = box.unlock()
    XCTAssertEqual(get(token, boot: 1000 + 901, wall: 1_700_000_000).status, 10)
  }

  func testLockRevokesALiveSession() {
    let token = box.unlock()
    XCTAssertEqual(get(token, boot: 1010).status, 0)
    let lock = box.vault(["lock"])
    XCTAssertEqual(lock.status, 0)
    XCTAssertEqual(
      lock.errorLines,
      ["Locked \(box.vaultPath): every session was revoked (the agent did not hold it)."])
    let after = get(token, boot: 1020)
    XCTAssertEqual(after.status, 10)
    XCTAssertEqual(after.stdout, [])
    XCTAssertEqual(
      after.errorLines,
      [
        "vault: error: locked: the vault was locked with 'vault lock'",
        "vault: hint: unlock first with: vault unlock",
      ])
  }

  func testForgedAndForeignTokensAreRefused() {
    let forged = get(String(repeating: "0", count: 64), boot: 1010)
    XCTAssertEqual(forged.status, 10)
    XCTAssertEqual(forged.stdout, [])
    XCTAssertEqual(get("not-a-token", boot: 1010).status, 10)

    let other = box.home + "/other.db"
    XCTAssertEqual(
      box.vault(["init", "--kdf", "test", "--no-biometry", "--vault", other], pin: ["999900"])
        .status,
      0)
    let foreign = box.vault(["unlock", "--raw", "--vault", other], pin: ["999900"]).stdoutText
      .trimmingCharacters(in: .newlines)
    XCTAssertTrue(foreign.hasPrefix("grant1:"), foreign)
    let refused = get(foreign, boot: 1010)
    XCTAssertEqual(refused.status, 10)
    XCTAssertEqual(refused.stdout, [])
  }

  /// Issue "The agent as the one key holder": no file holds the master key, not even sealed
  /// under the token; the runtime folder holds the agent's socket and lock alone.
  func testNoFileHoldsTheSessionOrItsKey() throws {
    let before = files(under: box.home)
    let token = box.unlock()
    guard case .token(let parsed) = SessionToken.parse(token) else {
      return XCTFail("\(token) is not a token of this release")
    }
    let secret = parsed.secret.unprotectedBytes
    let after = files(under: box.home)
    // The agent's socket and lock, and the record of its folder (for `vault lock`).
    XCTAssertEqual(
      after.subtracting(before).sorted(),
      ["run/vault/agent.lock", "run/vault/agent.sock", "state/vault/agent-folders"])
    for path in after where !path.hasSuffix("agent.sock") {
      let contents = try Data(contentsOf: URL(fileURLWithPath: box.home + "/" + path))
      XCTAssertNil(contents.range(of: Data(token.utf8)), path)
      XCTAssertNil(contents.range(of: Data(secret)), path)
    }
    var info = stat()
    XCTAssertEqual(stat(box.home + "/run/vault", &info), 0)
    XCTAssertEqual(info.st_mode & 0o777, 0o700)
  }

  /// Every file under `root`, relative to it.
  func files(under root: String) -> Set<String> {
    let items = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
    return Set(
      items.filter { item in
        var info = stat()
        return lstat(root + "/" + item, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR
      })
  }

  /// A job started without `XDG_RUNTIME_DIR` (cron, a systemd timer) reaches the agent its token
  /// names; once that agent is gone, it exits 10 saying to unlock again.
  func testACronLikeJobReachesTheAgentItsTokenNames() {
    let token = box.unlock()
    let cron = [
      "HOME": box.home, "PATH": "/usr/bin:/bin", "XDG_DATA_HOME": box.home + "/data",
      "XDG_STATE_HOME": box.home + "/state", "VAULT_SESSION": token,
      "VAULT_TEST_BOOTCLOCK": "1010", "VAULT_TEST_WALLCLOCK": "1800000000",
    ]
    let job = Subprocess.run(
      Sandbox.binDirectory + "/vault", ["get", "note"], environment: cron, directory: box.home)
    XCTAssertEqual(job.status, 0, job.stderrText)
    XCTAssertEqual(job.stdoutText, "hello")
    box.folder.stopAgent()
    let after = Subprocess.run(
      Sandbox.binDirectory + "/vault", ["get", "note"], environment: cron, directory: box.home)
    XCTAssertEqual(after.status, 10)
    XCTAssertEqual(after.stdout, [])
    XCTAssertEqual(
      after.errorLines,
      [
        "vault: error: locked: the session in VAULT_SESSION has ended (its time ran out, the vault"
          + " was let go, or the unlock agent stopped); unlock again",
        "vault: hint: start a new session with: eval \"$(vault unlock --shell-session)\"",
      ])
  }

  /// Attack review: a grant held by an agent in another folder (a shell with another
  /// XDG_RUNTIME_DIR) ends with `vault lock` run anywhere: the folder was recorded when that
  /// agent started.
  func testLockReachesAGrantInAnotherAgentsFolder() throws {
    let other = box.home + "/run2"
    XCTAssertEqual(mkdir(other, 0o700), 0)
    box.biosim(["next", "match"])
    let issued = box.vaultPIN(["unlock", "--raw"], env: ["XDG_RUNTIME_DIR": other])
    XCTAssertEqual(issued.status, 0, issued.stderrText)
    let token = issued.stdoutText.trimmingCharacters(in: .newlines)
    XCTAssertEqual(get(token, boot: 1010).stdoutText, "hello")
    XCTAssertEqual(box.vault(["lock"], spawn: true).status, 0)
    let after = get(token, boot: 1020)
    XCTAssertEqual(after.status, 10)
    XCTAssertEqual(after.stdout, [])
    if let pid = AgentListener.pid(other + "/vault/agent.sock") { kill(pid, SIGTERM) }
  }

  /// Attack review: a guarded read in a session whose match fails ends that vault's grants,
  /// as it ends the agent's holds.
  func testAFailedMatchAtAGuardedReadEndsTheGrant() {
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["add", "--guard", "bank"], stdin: Array("4242".utf8)).status, 0)
    let token = box.unlock()
    box.biosim(["next", "no-match"])
    let failed = box.vault(
      ["get", "bank"], env: ["VAULT_SESSION": token, "VAULT_TEST_BOOTCLOCK": "1005"])
    XCTAssertEqual(failed.status, 12, failed.stderrText)
    XCTAssertEqual(get(token, boot: 1010).status, 10, "the grant ended with the failed match")
  }

  /// A token of releases 0.3 to 0.12 (64 hex digits) is refused with "unlock again", and the
  /// session files those releases left (each held the master key under a token) are removed.
  func testATokenOfAnOlderReleaseIsRefusedAndItsFilesRemoved() throws {
    let vaultID = try Vault.open(path: box.vaultPath, environment: box.folder.environment()).vaultID
    let old = box.home + "/run/vault/" + vaultID.hex
    try FileManager.default.createDirectory(atPath: old, withIntermediateDirectories: true)
    chmod(box.home + "/run/vault", 0o700)
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: old + "/" + String(repeating: "a", count: 32), contents: Data(count: 149)))
    let refused = get(String(repeating: "0", count: 64), boot: 1010)
    XCTAssertEqual(refused.status, 10)
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: locked: the session was issued by an older release of vault; unlock again",
        "vault: hint: start a new session with: eval \"$(vault unlock --shell-session)\"",
      ])
    XCTAssertFalse(FileManager.default.fileExists(atPath: old))
  }

  /// An agent whose plain hold ended keeps serving a live grant: it does not exit while one is
  /// held; a request without the token is not served by it.
  func testAnAgentWithALiveGrantOutlivesItsHold() {
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["unlock", "--timeout", "1m"]).status, 0)
    let token = box.unlock()
    // At 1100 the hold (idle 60 s) has ended; the grant (idle 900 s) has not.
    XCTAssertEqual(
      box.statusJSON(env: ["VAULT_TEST_BOOTCLOCK": "1100"])["agent"] as? NSNull, NSNull())
    XCTAssertEqual(get(token, boot: 1100).stdoutText, "hello")
    let plain = box.vault(["get", "note"], env: ["VAULT_TEST_BOOTCLOCK": "1101"])
    XCTAssertEqual(plain.status, 10, "the grant serves requests with its token only")
  }

  func testGuardedReadsNeedAFreshMatchAndRefuseDuplicates() {
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["add", "--guard", "bank"], stdin: Array("4242".utf8)).status, 0)
    let token = box.unlock()
    let env = ["VAULT_SESSION": token]
    let noMatch = box.vault(["get", "bank"], env: env)
    XCTAssertEqual(noMatch.status, 10, "no match queued and no terminal")
    box.biosim(["next", "match"])
    XCTAssertEqual(
      box.vault(["get", "bank"], env: env.merging(["VAULT_TEST_BOOTCLOCK": "1002"]) { $1 })
        .stdoutText, "4242")
    box.biosim(["next", "match"])
    let duplicate = box.vault(
      ["get", "bank"], env: env.merging(["VAULT_TEST_BOOTCLOCK": "1002.5"]) { $1 })
    XCTAssertEqual(duplicate.status, 13, "as the guarded screen's debounce: cancelled")
    XCTAssertEqual(
      duplicate.errorLines,
      [
        "vault: error: cancelled: a guarded read came less than a second after the last one, so"
          + " it was taken for the same request repeated; nothing was asked or counted",
        "vault: note: 1 sensor answer queued with 'biosim next' is still waiting (match): the"
          + " next prompt takes it within 118 s; 'biosim next --clear' drops it",
      ])
    XCTAssertEqual(box.sensor()["queue"] as? [String], ["match"])
  }

  func testUnderLockoutThePINStandsInForAGuardedRead() {
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["add", "--guard", "bank"], stdin: Array("4242".utf8)).status, 0)
    let token = box.unlock()
    for _ in 0..<2 {
      box.biosim(["next", "no-match", "--count", "3"])
      box.vaultPIN(["unlock", "--force"])
      box.biosim(["next", "--clear"])
    }
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, true, "this vault's own failures")
    let read = box.vaultPIN(
      ["get", "bank"], env: ["VAULT_SESSION": token, "VAULT_TEST_BOOTCLOCK": "1005"])
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "4242")
    XCTAssertEqual(box.sensor()["locked_out"] as? Bool, false)
  }

  func testInAPINOnlyVaultThePINGuardsAGuardedRead() {
    let other = box.home + "/pin-only.db"
    box.vault(["init", "--kdf", "test", "--no-biometry", "--vault", other], pin: ["999900"])
    let added = box.vault(["add", "--guard", "x", "--vault", other], stdin: [65], pin: ["999900"])
    XCTAssertEqual(added.status, 0, added.stderrText)
    let token = box.vault(["unlock", "--raw", "--vault", other], pin: ["999900"]).stdoutText
      .trimmingCharacters(in: .newlines)
    let env = ["VAULT_SESSION": token]
    XCTAssertEqual(box.vault(["get", "x", "--vault", other], env: env).status, 10)
    let read = box.vault(
      ["get", "x", "--vault", other], pin: ["999900"],
      env: env.merging(["VAULT_TEST_BOOTCLOCK": "1003"]) { $1 })
    XCTAssertEqual(read.stdout, [65], read.stderrText)
  }

  func testForceKeepsTheGuardAndOtherEntriesAreNotDuplicates() {
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["add", "--guard", "a"], stdin: Array("1".utf8)).status, 0)
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vaultPIN(["add", "--guard", "b"], stdin: Array("2".utf8)).status, 0)
    let token = box.unlock()
    let replaced = box.vault(
      ["add", "-f", "a"], stdin: Array("3".utf8), env: ["VAULT_SESSION": token])
    XCTAssertEqual(replaced.status, 0, replaced.stderrText)
    XCTAssertEqual(
      box.vault(["get", "a"], env: ["VAULT_SESSION": token]).status, 10, "still guarded")
    box.biosim(["next", "match", "--count", "2"])
    let env = ["VAULT_SESSION": token, "VAULT_TEST_BOOTCLOCK": "1010"]
    XCTAssertEqual(box.vault(["get", "b"], env: env).stdoutText, "2")
    XCTAssertEqual(box.vault(["get", "a"], env: env).stdoutText, "3")
  }
}
