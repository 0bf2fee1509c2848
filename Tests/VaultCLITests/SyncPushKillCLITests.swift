import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault sync` killed (SIGKILL) while git pushes, and a push that loses the branch lock.
///
/// A `git` earlier on PATH kills its parent before the push, while it runs, or after it
/// completed. Both vaults and the repository stay usable, and the next sync completes with
/// nothing lost.
final class SyncPushKillCLITests: XCTestCase {
  var pair: SyncPair!
  override func setUpWithError() throws {
    try TestTier.requireSystem("real git, kills")
    pair = SyncPair(spawning: true)  // git kills its parent, the vault process
  }
  override func tearDown() { pair = nil }

  /// A folder with a `git` that kills the process that started it around `git push`, as the
  /// file `mode` in the same folder says (`before`, `during`, `after`; anything else: no kill).
  private func killingGit() throws -> String {
    let folder = pair.b.home + "/killing-git"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let script = """
      #!/bin/sh
      mode=$(cat '\(folder)/mode' 2>/dev/null)
      for argument in "$@"; do
        if [ "$argument" = push ]; then
          case "$mode" in
            before) kill -9 "$PPID"; exit 1 ;;
            during) /usr/bin/git "$@" & child=$!; kill -9 "$PPID"; wait "$child"; exit $? ;;
            after) /usr/bin/git "$@"; status=$?; kill -9 "$PPID"; exit $status ;;
            locked)
              echo none > '\(folder)/mode'
              echo "error: cannot lock ref 'refs/heads/vault': is at 1 but expected 2" >&2
              exit 1 ;;
          esac
        fi
      done
      exec /usr/bin/git "$@"

      """
    let path = folder + "/git"
    try script.write(toFile: path, atomically: true, encoding: .utf8)
    XCTAssertEqual(chmod(path, 0o755), 0)
    return folder
  }

  /// The temporary files a git killed while it fetched leaves in the sync repository are
  /// removed by a later sync once they are an hour old; a fresh one (a fetch still running) stays.
  func testAKilledFetchsTemporaryFilesAreRemovedOnceStale() throws {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    let pack = pair.a.vaultPath + ".sync/objects/pack"
    let stale = pack + "/tmp_pack_Stale1"
    let fresh = pack + "/tmp_pack_Fresh1"
    let object = pair.a.vaultPath + ".sync/objects/tmp_obj_Stale2"
    for file in [stale, fresh, object] {
      XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3])))
    }
    var times = [
      timeval(tv_sec: time(nil) - 7200, tv_usec: 0), timeval(tv_sec: time(nil) - 7200, tv_usec: 0),
    ]
    XCTAssertEqual(utimes(stale, &times), 0)
    XCTAssertEqual(utimes(object, &times), 0)
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
    XCTAssertFalse(FileManager.default.fileExists(atPath: object))
    XCTAssertTrue(FileManager.default.fileExists(atPath: fresh))
  }

  /// Attack review: a push that loses the race for the remote's branch lock (git's "cannot lock
  /// ref") is a remote that moved: the sync begins again from the fetch.
  func testAPushThatLostTheBranchLockIsTriedAgain() throws {
    let folder = try killingGit()
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    pair.add(pair.b, "raced", Array("won".utf8))
    try "locked".write(toFile: folder + "/mode", atomically: true, encoding: .utf8)
    let synced = pair.syncB(env: ["PATH": folder + ":/usr/bin:/bin"])
    XCTAssertEqual(synced.status, 0, synced.stderrText)
    XCTAssertEqual(
      try String(contentsOfFile: folder + "/mode", encoding: .utf8), "none\n", "it was raced")
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.read(pair.a, ["get", "raced"]).stdoutText, "won")
  }

  func testASyncKilledDuringTheGitPushIsCompletedByTheNext() throws {
    let folder = try killingGit()
    let path = ["PATH": folder + ":/usr/bin:/bin"]
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    var expected: [String] = []
    for mode in ["before", "during", "after"] {
      pair.add(pair.a, "from-a/\(mode)", Array("a-\(mode)".utf8))
      pair.add(pair.b, "from-b/\(mode)", Array("b-\(mode)".utf8))
      expected += ["from-a/\(mode)", "from-b/\(mode)"]
      XCTAssertEqual(pair.syncA().status, 0)
      try mode.write(toFile: folder + "/mode", atomically: true, encoding: .utf8)
      let killed = pair.syncB(env: path)
      XCTAssertEqual(killed.status, 137, "\(mode): \(killed.stderrText)")
      try "none".write(toFile: folder + "/mode", atomically: true, encoding: .utf8)
      XCTAssertEqual(pair.read(pair.b, ["check"]).status, 0, mode)
      XCTAssertEqual(pair.git(["fsck", "--strict"]).status, 0, mode)
      let next = pair.syncB(env: path)
      XCTAssertEqual(next.status, 0, "\(mode): \(next.stderrText)")
      XCTAssertEqual(pair.syncA().status, 0, mode)
      for box in [pair.a, pair.b] {
        XCTAssertEqual(
          pair.read(box, ["list"]).stdoutText, expected.sorted().joined(separator: "\n") + "\n",
          mode)
      }
      XCTAssertEqual(pair.read(pair.a, ["get", "from-b/\(mode)"]).stdoutText, "b-\(mode)")
    }
  }

  /// Review of 0.11.0, item 5: a change after a sync killed once its push reached the remote.
  ///
  /// `vault rm` (or `vault mv`) of what the killed sync pushed: the next sync took its own pushed records for another
  /// device's change, kept them against the removal ("conflict: x: changed on one device and
  /// removed on the other; kept the change") and the entry came back everywhere; after a move,
  /// "conflict: y: kept both". A device recognises what it pushed itself.
  func testAChangeAfterASyncKilledAfterItsPushIsKept() throws {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    XCTAssertEqual(pair.syncA().status, 0)
    for (index, change) in [["rm", "x0"], ["mv", "x1", "y1"]].enumerated() {
      let name = "x\(index)"
      pair.add(pair.a, name, Array("s".utf8))
      let killed = pair.syncA(env: ["VAULT_TEST_CRASH": "sync-after-push"])
      XCTAssertEqual(killed.status, 137, killed.stderrText)
      let remoteList = pair.git(["ls-tree", "-r", "--name-only", "vault"]).stdoutText
      XCTAssertTrue(remoteList.contains("records/"), "the push reached the remote")
      let changed = pair.read(pair.a, change)
      XCTAssertEqual(changed.status, 0, changed.stderrText)
      let synced = pair.syncA()
      XCTAssertEqual(synced.status, 0, synced.stderrText)
      let conflicts = synced.errorLines.filter { $0.hasPrefix("conflict:") }
      XCTAssertEqual(conflicts, [], "\(change): \(synced.stderrText)")
      XCTAssertEqual(pair.syncB().status, 0)
      let expected = index == 0 ? "" : "y1\n"
      for box in [pair.a, pair.b] {
        XCTAssertEqual(pair.read(box, ["list"]).stdoutText, expected, "\(change)")
      }
    }
  }

  /// Review of 0.11.0, item 6: a stale lock of git's on the remote is named.
  ///
  /// A push killed together with the remote's `git-receive-pack` left `HEAD.lock` there, and
  /// every device's sync then said "the remote moved 5 times". vault never removes a lock on
  /// the remote; it names git's cause, the file's age and the command.
  func testAStaleLockOnTheRemoteIsNamedWithItsAgeAndTheCommandThatRemovesIt() throws {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    let lock = pair.remote + "/HEAD.lock"
    XCTAssertTrue(FileManager.default.createFile(atPath: lock, contents: Data()))
    var times = [
      timeval(tv_sec: time(nil) - 7300, tv_usec: 0), timeval(tv_sec: time(nil) - 7300, tv_usec: 0),
    ]
    XCTAssertEqual(utimes(lock, &times), 0)
    let before = pair.head
    pair.add(pair.a, "after-the-lock", Array("kept".utf8))
    let refused = pair.syncA()
    XCTAssertEqual(refused.status, 21, refused.stderrText)
    XCTAssertEqual(
      refused.errorLines.last,
      "vault: error: sync failed: git's lock file \(lock) (made 2 h ago) is in the way on the"
        + " remote, left by a push killed on the remote's side; only when no other device is"
        + " syncing, remove it with 'rm \(lock)'; nothing was merged")
    XCTAssertTrue(FileManager.default.fileExists(atPath: lock), "vault never removes it")
    XCTAssertEqual(pair.head, before)
    XCTAssertEqual(unlink(lock), 0)
    let synced = pair.syncA()
    XCTAssertEqual(synced.status, 0, synced.stderrText)
    XCTAssertNotEqual(pair.head, before)
  }

  /// Fault run of the review of 0.11.0: a fetch waits for a ref lock held by another git.
  ///
  /// The git of a killed sync goes on fetching, and the next sync's fetch met its ref lock ("cannot lock ref 'refs/remotes/origin/vault'"), exit 21.
  func testAFetchWaitsForTheRefLockOfAGitStillRunning() throws {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    pair.add(pair.b, "from-b", Array("b".utf8))
    XCTAssertEqual(pair.syncB().status, 0)
    let lock = pair.a.vaultPath + ".sync/refs/remotes/origin/vault.lock"
    XCTAssertTrue(FileManager.default.createFile(atPath: lock, contents: Data()))
    let released = DispatchWorkItem { unlink(lock) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.5, execute: released)
    let synced = pair.syncA()
    XCTAssertEqual(synced.status, 0, synced.stderrText)
    XCTAssertEqual(pair.read(pair.a, ["get", "from-b"]).stdoutText, "b")
    released.wait()
  }
}
