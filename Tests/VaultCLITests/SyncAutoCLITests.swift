import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault config sync.auto on` through the built binaries: a command that changes the vault
/// starts `vault sync` in the background and returns without waiting for it.
final class SyncAutoCLITests: XCTestCase {
  var pair: SyncPair!
  override func setUpWithError() throws {
    try TestTier.requireSystem("real git, a background process")
    pair = SyncPair()
  }
  override func tearDown() { pair = nil }

  private var log: String { pair.a.vaultPath + ".sync/auto-sync.log" }

  /// A folder with a `git` whose `push` waits until the file `release` beside it exists.
  private func waitingGit() throws -> String {
    let folder = pair.a.home + "/waiting-git"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let script = """
      #!/bin/sh
      for argument in "$@"; do
        if [ "$argument" = push ]; then
          n=0
          while [ ! -e '\(folder)/release' ] && [ $n -lt 400 ]; do sleep 0.05; n=$((n + 1)); done
        fi
      done
      exec /usr/bin/git "$@"

      """
    try script.write(toFile: folder + "/git", atomically: true, encoding: .utf8)
    XCTAssertEqual(chmod(folder + "/git", 0o755), 0)
    return folder
  }

  /// Polls `condition` every 50 ms for up to 20 s.
  private func eventually(_ condition: () -> Bool) -> Bool {
    for _ in 0..<400 {
      if condition() { return true }
      usleep(50_000)
    }
    return condition()
  }

  private func syncedPair() {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
    XCTAssertEqual(pair.syncA().status, 0)
  }

  func testAWriteStartsASyncInTheBackgroundAndDoesNotWaitForIt() throws {
    syncedPair()
    XCTAssertEqual(pair.a.vault(["config"]).stdoutText, "sync.auto off\n")
    let set = pair.a.vault(["config", "sync.auto", "on"])
    XCTAssertEqual(set.status, 0, set.stderrText)
    XCTAssertEqual(
      set.errorLines,
      [
        "Set sync.auto on: a command that changes the vault starts 'vault sync' in the"
          + " background (its messages in \(log))."
      ])
    XCTAssertEqual(pair.a.vault(["config", "sync.auto"]).stdoutText, "on\n")
    XCTAssertEqual(pair.b.vault(["config"]).stdoutText, "sync.auto off\n", "this device's alone")
    let token = pair.a.vaultPIN(["unlock", "--raw"]).stdoutText.trimmingCharacters(
      in: .newlines)
    let folder = try waitingGit()
    let before = pair.head
    let content: [UInt8] = [0, 1, 2, 255] + Array("auto".utf8)
    let added = pair.a.vault(
      ["add", "auto/one"], stdin: content,
      env: ["VAULT_SESSION": token, "PATH": folder + ":/usr/bin:/bin"])
    XCTAssertEqual(added.status, 0, added.stderrText)
    XCTAssertEqual(added.stderrText.contains("Synced"), false, "nothing of the sync is shown")
    // The command has ended while the background sync still waits for its push.
    XCTAssertEqual(pair.head, before)
    XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/release", contents: nil))
    XCTAssertTrue(eventually { pair.head != before }, "the background sync pushed")
    XCTAssertTrue(
      eventually {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").hasPrefix("Synced with")
      })
    var info = stat()
    XCTAssertEqual(stat(log, &info), 0)
    XCTAssertEqual(info.st_mode & 0o777, 0o600)
    XCTAssertEqual(pair.syncB().status, 0)
    XCTAssertEqual(pair.read(pair.b, ["get", "auto/one"]).stdout, content)
    // A read changes nothing: no sync starts.
    try FileManager.default.removeItem(atPath: log)
    XCTAssertEqual(pair.a.vault(["get", "auto/one"], env: ["VAULT_SESSION": token]).status, 0)
    usleep(300_000)
    XCTAssertFalse(FileManager.default.fileExists(atPath: log))
    XCTAssertEqual(pair.a.vault(["config", "sync.auto", "off"]).errorLines, ["Set sync.auto off."])
    pair.add(pair.a, "manual", Array("x".utf8))
    usleep(300_000)
    XCTAssertFalse(FileManager.default.fileExists(atPath: log))
  }

  /// New-user review: a journal entry written without the key is a change too (it waits in
  /// the vault to be folded), and started no background sync.
  func testAJournalEntryStartsTheBackgroundSync() {
    syncedPair()
    XCTAssertEqual(pair.a.vault(["config", "sync.auto", "on"]).status, 0)
    let token = pair.a.vaultPIN(["unlock", "--raw"]).stdoutText.trimmingCharacters(
      in: .newlines)
    let before = pair.head
    let written = pair.a.vault(
      ["journal"], stdin: Array("auto journal entry\n".utf8), env: ["VAULT_SESSION": token])
    XCTAssertEqual(written.status, 0, written.stderrText)
    XCTAssertTrue(eventually { pair.head != before }, "the background sync pushed")
    XCTAssertEqual(pair.syncB().status, 0)
    XCTAssertTrue(
      pair.read(pair.b, ["journal", "list"]).stdoutText.contains("auto journal entry"))
  }

  func testWithoutAHeldKeyTheBackgroundSyncCannotAskAndPushesNothing() {
    syncedPair()
    XCTAssertEqual(pair.a.vault(["config", "sync.auto", "on"]).status, 0)
    let before = pair.head
    pair.add(pair.a, "by/pin", Array("x".utf8))
    XCTAssertTrue(
      eventually {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("vault: error:")
      })
    XCTAssertEqual(
      (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").first.map(
        String.init),
      "vault: error: locked: no valid session and no terminal to ask on")
    XCTAssertEqual(pair.head, before)
  }

  /// Issue "The agent as the one key holder": `vault config` works on a vault that does not
  /// sync (it exited 21); the setting waits for `vault sync init`.
  func testConfigWorksOnAVaultThatDoesNotSyncAndRefusesBadKeysAndValues() {
    pair.initA()
    let unsynced = pair.a.vault(["config", "sync.auto", "on"])
    XCTAssertEqual(unsynced.status, 0, unsynced.stderrText)
    XCTAssertEqual(
      unsynced.errorLines,
      [
        "Set sync.auto on: it starts syncing in the background once the vault syncs ('vault sync"
          + " init')."
      ])
    XCTAssertEqual(pair.a.vault(["config"]).stdoutText, "sync.auto on\n")
    XCTAssertEqual(pair.a.vault(["config", "sync.auto", "off"]).status, 0)
    XCTAssertEqual(pair.a.vault(["config"]).stdoutText, "sync.auto off\n")
    XCTAssertEqual(pair.a.vault(["config", "sync.fast", "on"]).status, 64)
    let maybe = pair.a.vault(["config", "sync.auto", "maybe"])
    XCTAssertEqual(maybe.status, 5)
    XCTAssertEqual(maybe.errorLines, ["vault: error: sync.auto is on or off, not 'maybe'"])
  }

  /// Release 0.12.0 kept sync.auto in the sync repository's git configuration: it is still
  /// read, and the next setting moves it into the device state.
  func testASettingOfTheLastReleaseIsReadAndMoved() throws {
    pair.initA()
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    let git = ["--git-dir=" + pair.a.vaultPath + ".sync", "config", "--local"]
    XCTAssertEqual(
      Subprocess.run("/usr/bin/git", git + ["vault.autosync", "true"], environment: [:]).status, 0)
    XCTAssertEqual(pair.a.vault(["config", "sync.auto"]).stdoutText, "on\n")
    XCTAssertEqual(pair.a.vault(["config", "sync.auto", "off"]).status, 0)
    XCTAssertEqual(
      Subprocess.run("/usr/bin/git", git + ["--get", "vault.autosync"], environment: [:]).status,
      1, "the old setting is gone")
    XCTAssertEqual(pair.a.vault(["config", "sync.auto"]).stdoutText, "off\n")
  }
}
