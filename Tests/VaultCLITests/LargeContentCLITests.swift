import Foundation
import VaultCore
import VaultFormat
import VaultTestSupport
import XCTest

/// Entries above `EntryStore.streamThreshold` through the built binary: streamed in and out in
/// pieces, refused by the commands that would read them into memory, kept by history and
/// rotation, and checked against truncation.
final class LargeContentCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]

  /// 3,000,000 bytes of a fixed pattern: padded to 3,014,656 (46 chunks of 64 KiB).
  static let big = [UInt8]((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 11) })

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "big"], stdin: Self.big, env: session).status, 0)
  }

  override func tearDown() { box = nil }

  static let refusal =
    "vault: error: 'big' is too large to read into memory (3000000 bytes; the limit is"
    + " 1048576); nothing was read\nvault: hint: read it whole with: vault get big > FILE\n"

  /// From a regular file the content is read inside the write; from a pipe through a spool:
  /// the same bytes either way.
  func testAFileAndAPipeGiveTheSameEntry() {
    let result = box.shell(
      """
      vault get big > big.bin
      vault add file < big.bin && cat big.bin | vault add piped
      vault get file | cmp - big.bin && vault get piped | cmp - big.bin && echo same
      """, env: session)
    XCTAssertEqual(result.stdoutText, "same\n", result.stderrText)
  }

  func testALargeEntryComesBackByteForByte() {
    let read = box.vault(["get", "big"], env: session)
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdout, Self.big)
    XCTAssertEqual(read.stderrText, "")
    XCTAssertEqual(
      box.vault(["check"], env: session).stdoutText,
      "ok: header, 1 entry (46 chunks), 0 journal entries\n")
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "big\n")
  }

  func testCommandsThatReadIntoMemoryRefuseIt() {
    for arguments in [
      ["get", "big", "--field", "user"], ["get", "big", "--line", "1"], ["get", "big", "--json"],
      ["get", "big", "--fields"], ["otp", "big"], ["unset", "big", "user"],
    ] {
      let result = box.vault(arguments, env: session)
      XCTAssertEqual(result.status, 5, arguments.joined(separator: " "))
      XCTAssertEqual(result.stderrText, Self.refusal, arguments.joined(separator: " "))
      XCTAssertEqual(result.stdout, [], arguments.joined(separator: " "))
    }
    let edit = box.vault(["edit", "big"], env: session.merging(["EDITOR": "true"]) { $1 })
    XCTAssertEqual(edit.status, 5)
    XCTAssertEqual(edit.stderrText, Self.refusal)
    XCTAssertEqual(box.vault(["get", "big"], env: session).stdout, Self.big, "nothing changed")
  }

  func testGrepSearchesEverythingElseAndSaysWhatItLeftOut() {
    XCTAssertEqual(
      box.vault(["add", "mail"], stdin: Array("hunter2\n".utf8), env: session).status, 0)
    let result = box.vault(["grep", "hunter"], env: session)
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.stdoutText, "mail:1:hunter2\n")
    XCTAssertEqual(
      result.stderrText,
      "vault: note: 1 entry is too large to search in memory (a content of more than 1048576"
        + " bytes) and was not searched: 'big'\n")
    let audit = box.vault(["audit"], env: session)
    XCTAssertEqual(audit.status, 1, audit.stderrText)
    XCTAssertFalse(audit.stdoutText.contains("big"), audit.stdoutText)
  }

  func testHistoryKeepsLargeRevisionsExact() {
    let second = Array(Self.big.reversed())
    XCTAssertEqual(box.vault(["add", "--force", "big"], stdin: second, env: session).status, 0)
    XCTAssertEqual(box.vault(["get", "big"], env: session).stdout, second)
    XCTAssertEqual(box.vault(["get", "big", "--revision", "1"], env: session).stdout, Self.big)
    XCTAssertEqual(box.vault(["restore", "big", "--revision", "1"], env: session).status, 0)
    XCTAssertEqual(box.vault(["get", "big"], env: session).stdout, Self.big)
    XCTAssertEqual(
      box.vault(["check"], env: session).stdoutText,
      "ok: header, 1 entry (92 chunks), 0 journal entries, 2 kept revisions\n")
  }

  func testRotationSealsTheStreamAgain() throws {
    let (run, _) = try RekeyCLITests.rekey(box)
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertEqual(box.vaultPIN(["get", "big"]).stdout, Self.big)
    XCTAssertEqual(
      box.vaultPIN(["check"]).stdoutText, "ok: header, 1 entry (46 chunks), 0 journal entries\n")
  }

  func testATruncatedStreamIsAnIntegrityFailure() {
    box.tamper { try $0.execute("DELETE FROM chunks WHERE idx = 45") }
    let result = box.vault(["get", "big"], env: session)
    XCTAssertEqual(result.status, 17, result.stderrText)
    XCTAssertEqual(result.stdout, [], "the count is checked before any piece is written")
    XCTAssertTrue(
      result.stderrText.hasPrefix(
        "vault: error: integrity failure: the content of 'big' has missing or extra chunks"),
      result.stderrText)
  }

  /// Without `CAP_IPC_LOCK` (dropped from the bounding set, so root loses it too) and with a
  /// 64 KiB `RLIMIT_MEMLOCK`, the first refused lock is said once.
  func testALockThatFailsIsSaidOnce() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
      throw XCTSkip("setpriv (util-linux) is needed to drop CAP_IPC_LOCK")
    }
    // With the PIN, so the command runs in this process and not in the agent's worker.
    let result = box.shell(
      "printf '%s\\n' \"$PIN\" > pin; setpriv --bounding-set -ipc_lock"
        + " sh -c 'ulimit -l 64; vault get big --pin-fd 3 3<pin' > out")
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(
      result.stderrText,
      "vault: warning: memory for secrets could not be locked (its limit is 64 KiB, 'ulimit"
        + " -l'); plaintext may be written to swap\n")
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: box.home + "/out")), Data(Self.big))
  }
}

extension LargeContentCLITests {
  /// Ctrl-\ (SIGQUIT) while `add` reads: the process ends by the signal, and the Swift runtime's
  /// crash report (a backtrace with the memory around each register, which held a piece of the
  /// input) is not printed.
  func testSIGQUITEndsTheCommandWithoutACrashReport() {
    let result = box.shell(
      """
      mkfifo in
      (printf 'secret-piece'; sleep 3) > in &
      vault add piece < in 2> err &
      pid=$!
      sleep 1
      kill -QUIT $pid
      wait $pid
      echo "status $?"
      cat err
      """, env: session)
    XCTAssertEqual(result.stdoutText, "status 131\n")
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "big\n", "nothing was stored")
  }
}

extension LargeContentCLITests {
  /// What a command holds in memory from standard input is bounded, and refused as soon as it
  /// runs past the bound, before the key is asked for.
  func testInputsHeldInMemoryAreBounded() {
    XCTAssertEqual(
      box.vault(["add", "mail"], stdin: Array("hunter2\n".utf8), env: session).status, 0)
    let over = [UInt8](repeating: 0x61, count: 1_048_577)
    let set = box.vault(["set", "mail", "note"], stdin: over, env: session)
    XCTAssertEqual(set.status, 5)
    XCTAssertEqual(
      set.stderrText,
      "vault: error: the value on standard input is larger than 1048576 bytes, more than vault"
        + " holds in memory; nothing was written\n")
    let inject = box.vault(["inject"], stdin: over, env: session)
    XCTAssertEqual(inject.status, 5)
    XCTAssertEqual(
      inject.stderrText,
      "vault: error: the template is larger than 1048576 bytes, more than vault holds in memory;"
        + " nothing was written\n")
    let journal = box.vault(
      ["journal"], stdin: [UInt8](repeating: 0x61, count: 16 * 1_048_576 + 1), env: session)
    XCTAssertEqual(journal.status, 5)
    XCTAssertEqual(
      journal.stderrText,
      "vault: error: the text on standard input is larger than 16777216 bytes, more than vault"
        + " holds in memory; nothing was written\n")
    XCTAssertEqual(box.vault(["get", "mail"], env: session).stdoutText, "hunter2\n")
  }

  /// A chunk (or record) planted far larger than any the format makes is refused unread.
  func testAnOversizedChunkIsRefusedUnread() {
    box.tamper { try $0.execute("UPDATE chunks SET box = zeroblob(8388608) WHERE idx = 0") }
    let read = box.vault(["get", "big"], env: session)
    XCTAssertEqual(read.status, 17)
    XCTAssertTrue(
      read.stderrText.hasPrefix(
        "vault: error: integrity failure: the content of 'big' has a missing or oversized chunk"),
      read.stderrText)
    XCTAssertEqual(read.stdout, [])
    XCTAssertEqual(box.vault(["check"], env: session).status, 17)
  }

  func testTheVaultFileIsNotItsOwnInput() {
    let result = box.shell(
      "vault add loop < \"$VAULT_FILE\"", env: session.merging(["VAULT_FILE": box.vaultPath]) { $1 }
    )
    XCTAssertEqual(result.status, 5)
    XCTAssertEqual(
      result.stderrText,
      "vault: error: standard input is the vault file itself, which the add would write to; copy"
        + " it first (vault backup FILE) and add the copy\n")
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "big\n")
  }
}

extension LargeContentCLITests {
  /// A large add from a slow pipe seals its content before its write: other commands, readers
  /// and writers, go on meanwhile; one that took the name first wins, and the add says so.
  func testASlowLargeAddHoldsNoLock() {
    for (force, outcome) in [
      (
        "",
        "add 4\nvault: error: an entry named 'slow' exists\nvault: hint: use --force to replace it\n"
      ),
      (
        "--force",
        "add 18\nvault: error: 'slow' changed while its content was read; nothing was"
          + " stored\n"
      ),
    ] {
      _ = box.vault(["rm", "slow"], env: session)
      let result = box.shell(
        """
        vault get big > big.bin
        rm -f in; mkfifo in
        (head -c 8388608 /dev/zero; sleep 3; printf end) > in &
        vault add \(force) slow < in 2> add.err &
        pid=$!
        sleep 1
        printf 'quick' | vault add slow && echo added
        vault get big | cmp -s - big.bin; echo "get $?"
        kill -0 $pid && echo "still reading"
        wait $pid
        echo "add $?"
        cat add.err
        """, env: session)
      XCTAssertEqual(
        result.stdoutText, "added\nget 0\nstill reading\n" + outcome, result.stderrText)
      XCTAssertEqual(box.vault(["get", "slow"], env: session).stdoutText, "quick")
    }
  }

}
