import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// What a remote may hold, and setting sync up again, through the built binaries.
final class SyncRemoteCLITests: XCTestCase {
  var pair: SyncPair!
  override func setUpWithError() throws {
    try TestTier.requireSystem("real git")
    pair = SyncPair()
  }
  override func tearDown() { pair = nil }

  private func synced() {
    pair.initA()
    pair.add(pair.a, "mail", Array("hunter2".utf8))
    XCTAssertEqual(pair.syncA(["sync", "init", pair.remote]).status, 0)
    pair.joinB()
  }

  /// Attack review: a file vault does not write, a file that is not a plain one, another
  /// `.gitattributes`, and a record or state file longer than vault writes (found before it is
  /// read) are refused (17) with nothing merged, instead of being carried forward or read whole.
  func testAFileVaultDoesNotWriteIsRefused() throws {
    synced()
    let good = pair.head
    let cases: [(String, (String) throws -> Void)] = [
      (
        "its commit holds a file vault does not write ('README')",
        { work in
          try "hi".write(toFile: work + "/README", atomically: true, encoding: .utf8)
          self.pair.git(["add", "README"], in: work)
        }
      ),
      (
        "its commit holds 'state' as other than a plain file (git mode 100755)",
        { work in XCTAssertEqual(chmod(work + "/state", 0o755), 0) }
      ),
      (
        "its .gitattributes is not the one vault writes",
        { work in
          try "* text\n".write(toFile: work + "/.gitattributes", atomically: true, encoding: .utf8)
        }
      ),
      (
        "it holds a record file longer than any vault writes",
        { work in
          let record = try XCTUnwrap(self.pair.recordFiles(in: work).first)
          try Data(count: 18 * 1024 * 1024).write(to: URL(fileURLWithPath: record))
        }
      ),
      (
        "its state file is longer than any vault writes",
        { work in
          let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: work + "/state"))
          try handle.seekToEnd()
          try handle.write(contentsOf: Data(count: 2 * 1024 * 1024))
          try handle.close()
        }
      ),
      (
        "its commit has no .gitattributes file",
        { work in self.pair.git(["rm", "-q", ".gitattributes"], in: work) }
      ),
      (
        "its commit holds a file vault does not write ('evil/link')",
        { work in
          try FileManager.default.createDirectory(
            atPath: work + "/evil", withIntermediateDirectories: true)
          try FileManager.default.createSymbolicLink(
            atPath: work + "/evil/link", withDestinationPath: "/etc/passwd")
          self.pair.git(["add", "evil/link"], in: work)
        }
      ),
    ]
    for (why, edit) in cases {
      pair.tamperRemote(edit)
      let refused = pair.syncB()
      XCTAssertEqual(refused.status, 17, refused.stderrText)
      XCTAssertEqual(
        refused.errorLines.first,
        "vault: error: the sync remote was refused: \(why); nothing was merged")
      XCTAssertEqual(pair.read(pair.b, ["get", "mail"]).stdoutText, "hunter2", why)
      pair.git(["update-ref", "refs/heads/vault", good])
    }
    XCTAssertEqual(pair.syncB().errorLines.last?.hasPrefix("Up to date"), true)
  }

  /// New-user review: a relative REMOTE is kept as the full path it names from the folder
  /// `sync init` ran in, and a new bare repository's HEAD is the branch vault pushes.
  func testARelativeRemoteIsKeptAsAFullPath() {
    pair.initA()
    let made = pair.syncA(["sync", "init", "relative.git"])
    XCTAssertEqual(made.status, 0, made.stderrText)
    let url = Subprocess.run(
      "/usr/bin/git",
      ["--git-dir=" + pair.a.vaultPath + ".sync", "config", "remote.origin.url"],
      environment: ["PATH": "/usr/bin:/bin", "HOME": pair.a.home, "GIT_CONFIG_NOSYSTEM": "1"])
    XCTAssertEqual(url.stdoutText, pair.a.home + "/relative.git\n")
    let head = Subprocess.run(
      "/usr/bin/git", ["--git-dir=" + pair.a.home + "/relative.git", "symbolic-ref", "HEAD"],
      environment: ["PATH": "/usr/bin:/bin", "HOME": pair.a.home, "GIT_CONFIG_NOSYSTEM": "1"])
    XCTAssertEqual(head.stdoutText, "refs/heads/vault\n")
  }

  /// New-user review: the same name of 1,020 bytes added on both devices: the later is
  /// renamed within the 1,024 bytes a name may have, its start shortened by whole characters.
  func testAConflictNameFitsTheLimitOfANameLength() {
    synced()
    let name = "é" + String(repeating: "n", count: 1018)
    pair.add(pair.a, name, Array("from a".utf8))
    pair.add(pair.b, name, Array("from b".utf8))
    XCTAssertEqual(pair.syncA().status, 0)
    let merged = pair.syncB()
    XCTAssertEqual(merged.status, 0, merged.stderrText)
    let names = pair.read(pair.b, ["list"]).stdoutText.split(separator: "\n").map(String.init)
    XCTAssertEqual(names.count, 3)
    let renamed = names.first { $0.contains("(conflict ") } ?? ""
    XCTAssertEqual(renamed.utf8.count, 1024)
    XCTAssertTrue(renamed.hasPrefix("é" + String(repeating: "n", count: 990)), renamed)
    XCTAssertEqual(pair.read(pair.b, ["get", renamed]).stdoutText, "from b")
    XCTAssertEqual(pair.read(pair.b, ["get", name]).stdoutText, "from a")
  }

  /// New-user review: two devices that each revoked another reach the same header, so their
  /// syncs settle instead of pushing a new state file every time.
  func testTwoRevocationsSettle() throws {
    synced()
    let c = Sandbox()
    let d = Sandbox()
    for other in [c, d] {
      let folder = (other.vaultPath as NSString).deletingLastPathComponent
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
      let cloned = other.vault(["sync", "clone", pair.remote], pin: [pair.recoveryCode, "555500"])
      XCTAssertEqual(cloned.status, 0, cloned.stderrText)
    }
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.syncB().status, 0)
    func id(_ box: Sandbox) -> String {
      let listed = box.vault(["sync", "devices", "--json"], pin: ["555500"])
      let devices =
        (try? JSONSerialization.jsonObject(with: Data(listed.stdout))) as? [[String: Any]] ?? []
      return devices.first { $0["this"] as? Bool == true }?["device"] as? String ?? ""
    }
    let (idC, idD) = (id(c), id(d))
    XCTAssertEqual(pair.revoke(pair.a, [String(idC.prefix(8))]).status, 0)
    let revokedD = pair.revoke(pair.b, [String(idD.prefix(8))], pin: SyncPair.pinB)
    XCTAssertEqual(revokedD.status, 0, revokedD.stderrText)
    for _ in 0..<2 {
      XCTAssertEqual(pair.syncA().status, 0)
      XCTAssertEqual(pair.syncB().status, 0)
    }
    for result in [pair.syncA(), pair.syncB()] {
      XCTAssertEqual(result.errorLines.last?.hasPrefix("Up to date with"), true, result.stderrText)
    }
    XCTAssertEqual(c.vault(["sync"], pin: ["555500"]).status, 17)
  }

  /// Attack review: after the sync repository was removed, `vault sync init` sets sync up
  /// again, with the same remote (merged without a base: nothing lost) or a new, empty one.
  func testSyncCanBeSetUpAgainWithTheSameOrANewRemote() throws {
    synced()
    pair.add(pair.a, "later", Array("after".utf8))
    try FileManager.default.removeItem(atPath: pair.a.vaultPath + ".sync")
    let again = pair.syncA(["sync", "init", pair.remote])
    XCTAssertEqual(again.status, 0, again.stderrText)
    XCTAssertEqual(pair.syncB().status, 0)
    XCTAssertEqual(pair.read(pair.b, ["get", "later"]).stdoutText, "after")
    try FileManager.default.removeItem(atPath: pair.a.vaultPath + ".sync")
    let other = pair.a.home + "/other.git"
    let moved = pair.syncA(["sync", "init", other])
    XCTAssertEqual(moved.status, 0, moved.stderrText)
    XCTAssertEqual(moved.errorLines.first, "Made a new bare repository at \(other).")
    XCTAssertEqual(pair.read(pair.a, ["check"]).status, 0)
  }
}
