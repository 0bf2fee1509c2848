import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// Concurrent changes on two devices, merged by `vault sync` through the built binaries: no
/// acknowledged change lost, conflicts kept as history, the same state on both.
final class SyncMergeCLITests: XCTestCase {
  var pair: SyncPair!
  /// A wall clock for every command, so that B's changes are the later ones.
  let start = (Date().timeIntervalSince1970).rounded()
  override func setUpWithError() throws {
    try TestTier.requireSystem("real git")
    pair = SyncPair()
  }
  override func tearDown() { pair = nil }

  private func at(_ offset: Double) -> [String: String] {
    ["VAULT_TEST_WALLCLOCK": String(start + offset)]
  }

  @discardableResult
  private func cmd(
    _ box: Sandbox, _ arguments: [String], stdin: String? = nil, at offset: Double,
    file: StaticString = #filePath, line: UInt = #line
  ) -> Subprocess.Result {
    let result = box.vault(
      arguments, stdin: stdin.map { Array($0.utf8) },
      pin: [box === pair.a ? Sandbox.pin : SyncPair.pinB], env: at(offset))
    XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderrText)", file: file, line: line)
    return result
  }

  /// A and B hold `names` (content "orig-NAME"), synced.
  private func twoDevices(_ names: [String]) -> (a: String, b: String) {
    pair.initA()
    for name in names { cmd(pair.a, ["add", name], stdin: "orig-" + name, at: 0) }
    cmd(pair.a, ["sync", "init", pair.remote], at: 1)
    pair.joinB()
    cmd(pair.a, ["sync"], at: 2)
    let listed = pair.read(pair.a, ["sync", "devices", "--json"])
    let devices =
      (try? JSONSerialization.jsonObject(with: Data(listed.stdout))) as? [[String: Any]] ?? []
    let own = devices.first { $0["this"] as? Bool == true }?["device"] as? String ?? ""
    let other = devices.first { $0["this"] as? Bool == false }?["device"] as? String ?? ""
    return (own, other)
  }

  private func list(_ box: Sandbox) -> [String] {
    cmd(box, ["list"], at: 100).stdoutText.split(separator: "\n").map(String.init)
  }

  private func get(_ box: Sandbox, _ name: String, revision: Int? = nil) -> String {
    box.vault(
      ["get", name] + (revision.map { ["--revision", String($0)] } ?? []),
      pin: [box === pair.a ? Sandbox.pin : SyncPair.pinB], env: at(100)
    ).stdoutText
  }

  /// The contents of every kept version of `name`, oldest first.
  private func history(_ box: Sandbox, _ name: String) -> [String] {
    let listed = cmd(box, ["history", name, "--json"], at: 100)
    let versions =
      (try? JSONSerialization.jsonObject(with: Data(listed.stdout))) as? [[String: Any]] ?? []
    return versions.compactMap { $0["revision"] as? Int }.sorted().map {
      get(box, name, revision: $0)
    }
  }

  /// Both devices list the same names with the same contents.
  private func assertSameState(file: StaticString = #filePath, line: UInt = #line) {
    let names = list(pair.a)
    XCTAssertEqual(names, list(pair.b), file: file, line: line)
    for name in names {
      XCTAssertEqual(get(pair.a, name), get(pair.b, name), name, file: file, line: line)
    }
    for box in [pair.a, pair.b] {
      let checked = box.vault(
        ["check"], pin: [box === pair.a ? Sandbox.pin : SyncPair.pinB], env: at(100))
      XCTAssertEqual(checked.status, 0, checked.stderrText, file: file, line: line)
    }
  }

  func testConcurrentChangesToDifferentEntriesMergeCleanly() {
    _ = twoDevices(["a1", "b1", "gone"])
    cmd(pair.a, ["add", "--force", "a1"], stdin: "a-edit", at: 10)
    cmd(pair.a, ["add", "from-a"], stdin: "new-a", at: 11)
    cmd(pair.b, ["add", "--force", "b1"], stdin: "b-edit", at: 12)
    cmd(pair.b, ["rm", "gone"], at: 13)
    cmd(pair.b, ["add", "from-b"], stdin: "new-b", at: 14)
    XCTAssertEqual(cmd(pair.a, ["sync"], at: 20).errorLines.count, 1)
    let merged = cmd(pair.b, ["sync"], at: 21)
    XCTAssertEqual(merged.errorLines.filter { $0.hasPrefix("conflict:") }, [])
    cmd(pair.a, ["sync"], at: 22)
    XCTAssertEqual(list(pair.a), ["a1", "b1", "from-a", "from-b"])
    assertSameState()
    XCTAssertEqual(get(pair.a, "b1"), "b-edit")
    XCTAssertEqual(get(pair.b, "a1"), "a-edit")
  }

  /// An HOTP counter used on both devices merges as the larger: no code is ever given twice.
  func testOneTimeCodeCountersMergeAsTheirMaximum() {
    _ = twoDevices([])
    let uri = "otpauth://hotp/Ex:alice?secret=\(OneTimeCodeCLITests.sha1)&counter=0"
    cmd(pair.a, ["add", "bank"], stdin: "pw\notp: \(uri)\n", at: 3)
    cmd(pair.a, ["sync"], at: 4)
    cmd(pair.b, ["sync"], at: 5)
    let codes = OneTimeCodeCLITests.hotpCodes
    XCTAssertEqual(cmd(pair.a, ["otp", "bank"], at: 10).stdoutText, codes[0])
    XCTAssertEqual(cmd(pair.a, ["otp", "bank"], at: 11).stdoutText, codes[1])
    XCTAssertEqual(cmd(pair.b, ["otp", "bank"], at: 12).stdoutText, codes[0])
    cmd(pair.a, ["sync"], at: 20)
    let merged = cmd(pair.b, ["sync"], at: 21)
    XCTAssertEqual(merged.status, 0, merged.stderrText)
    XCTAssertEqual(merged.errorLines.filter { $0.hasPrefix("conflict:") }, [])
    XCTAssertEqual(cmd(pair.b, ["otp", "bank"], at: 22).stdoutText, codes[2])
    cmd(pair.b, ["sync"], at: 23)
    cmd(pair.a, ["sync"], at: 24)
    XCTAssertEqual(cmd(pair.a, ["otp", "bank"], at: 25).stdoutText, codes[3])
    assertSameState()
  }

  func testAConcurrentEditOfOneEntryKeepsBothTheLaterCurrent() {
    _ = twoDevices(["mail"])
    cmd(pair.a, ["add", "--force", "mail"], stdin: "from-a", at: 10)
    cmd(pair.b, ["add", "--force", "mail"], stdin: "from-b", at: 20)
    cmd(pair.a, ["sync"], at: 30)
    let merged = cmd(pair.b, ["sync"], at: 31)
    XCTAssertEqual(merged.errorLines.first, "conflict: mail: kept both, see vault history mail")
    cmd(pair.a, ["sync"], at: 32)
    XCTAssertEqual(get(pair.a, "mail"), "from-b")
    assertSameState()
    XCTAssertEqual(history(pair.a, "mail"), ["orig-mail", "from-a", "from-b"])
    XCTAssertEqual(history(pair.b, "mail"), ["orig-mail", "from-a", "from-b"])
    // The other order: A's change is the later one.
    cmd(pair.b, ["add", "--force", "mail"], stdin: "b-again", at: 40)
    cmd(pair.a, ["add", "--force", "mail"], stdin: "a-again", at: 50)
    cmd(pair.b, ["sync"], at: 60)
    XCTAssertEqual(
      cmd(pair.a, ["sync"], at: 61).errorLines.first,
      "conflict: mail: kept both, see vault history mail")
    cmd(pair.b, ["sync"], at: 62)
    XCTAssertEqual(get(pair.b, "mail"), "a-again")
    assertSameState()
    XCTAssertEqual(
      history(pair.b, "mail"), ["orig-mail", "from-a", "from-b", "b-again", "a-again"])
  }

  /// New-user review: with three devices the latest edit is current, whatever the sync order.
  ///
  /// A merge used to write the current version at its own time, so it beat an edit a third
  /// device made after the winner and before that merge.
  func testThreeConcurrentEditsTheLatestIsCurrentEverywhere() throws {
    _ = twoDevices(["mail"])
    let c = Sandbox()
    let pinC = "246801"
    try FileManager.default.createDirectory(
      atPath: (c.vaultPath as NSString).deletingLastPathComponent,
      withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    func onC(_ arguments: [String], stdin: String? = nil, at offset: Double) -> Subprocess.Result {
      let result = c.vault(
        arguments, stdin: stdin.map { Array($0.utf8) }, pin: [pinC], env: at(offset))
      XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderrText)")
      return result
    }
    let cloned = c.vault(
      ["sync", "clone", pair.remote], pin: [pair.recoveryCode, pinC], env: at(3))
    XCTAssertEqual(cloned.status, 0, cloned.stderrText)
    cmd(pair.a, ["sync"], at: 4)
    cmd(pair.b, ["sync"], at: 5)
    cmd(pair.a, ["add", "--force", "mail"], stdin: "from-a", at: 10)
    cmd(pair.b, ["add", "--force", "mail"], stdin: "from-b", at: 20)
    _ = onC(["add", "--force", "mail"], stdin: "from-c", at: 30)
    cmd(pair.b, ["sync"], at: 40)
    cmd(pair.a, ["sync"], at: 41)
    XCTAssertEqual(get(pair.a, "mail"), "from-b")
    XCTAssertEqual(
      onC(["sync"], at: 42).errorLines.first, "conflict: mail: kept both, see vault history mail")
    cmd(pair.a, ["sync"], at: 43)
    cmd(pair.b, ["sync"], at: 44)
    XCTAssertEqual(get(pair.a, "mail"), "from-c")
    XCTAssertEqual(get(pair.b, "mail"), "from-c")
    XCTAssertEqual(onC(["get", "mail"], at: 100).stdoutText, "from-c")
    assertSameState()
    XCTAssertEqual(history(pair.a, "mail").sorted(), ["from-a", "from-b", "from-c", "orig-mail"])
  }

  /// A device whose clock runs a day ahead does not win: a version stamped more than 5 minutes
  /// ahead of the merging device's clock ranks below every other.
  func testAClockFarAheadDoesNotWinTheConflict() {
    _ = twoDevices(["mail"])
    cmd(pair.a, ["add", "--force", "mail"], stdin: "from-the-future", at: 86_400)
    cmd(pair.b, ["add", "--force", "mail"], stdin: "honest", at: 20)
    cmd(pair.a, ["sync"], at: 86_401)
    let merged = cmd(pair.b, ["sync"], at: 30)
    XCTAssertEqual(merged.errorLines.first, "conflict: mail: kept both, see vault history mail")
    XCTAssertEqual(get(pair.b, "mail"), "honest")
    XCTAssertEqual(history(pair.b, "mail"), ["orig-mail", "from-the-future", "honest"])
    // Within the bound, the later clock wins as usual.
    cmd(pair.a, ["sync"], at: 40)
    cmd(pair.a, ["add", "--force", "mail"], stdin: "a-soon", at: 200)
    cmd(pair.b, ["add", "--force", "mail"], stdin: "b-now", at: 50)
    cmd(pair.a, ["sync"], at: 60)
    cmd(pair.b, ["sync"], at: 61)
    XCTAssertEqual(get(pair.b, "mail"), "a-soon")
    cmd(pair.a, ["sync"], at: 62)
    assertSameState()
  }

  /// Settings merge value by value; a purge against a removal is a purge; two edits of a
  /// streamed content (over 1 MiB) keep both, byte-exact.
  func testSettingsPurgesAndLargeContentsMerge() {
    _ = twoDevices(["big", "secret"])
    cmd(pair.a, ["settings", "history_keep", "7"], at: 10)
    cmd(pair.b, ["settings", "history_days", "30"], at: 20)
    let large = { (seed: UInt32) -> String in
      String(
        (0..<1_200_000).map { i -> Character in
          Character(UnicodeScalar(UInt8(97 + (UInt32(i) &* 2_654_435_761 &+ seed) >> 27 % 26)))
        })
    }
    let fromA = "from A\n" + large(1)
    let fromB = "from B\n" + large(2)
    XCTAssertTrue(fromA != fromB)
    cmd(pair.a, ["add", "--force", "big"], stdin: fromA, at: 11)
    cmd(pair.b, ["add", "--force", "big"], stdin: fromB, at: 21)
    cmd(pair.a, ["rm", "secret"], at: 12)
    cmd(pair.b, ["purge", "secret"], at: 22)
    cmd(pair.a, ["sync"], at: 30)
    cmd(pair.b, ["sync"], at: 31)
    // Attack review: a purge, which whoever holds the master key can push, is said.
    XCTAssertEqual(
      cmd(pair.a, ["sync"], at: 32).errorLines.first,
      "purged: secret: removed with its history on another device")
    assertSameState()
    for box in [pair.a, pair.b] {
      XCTAssertEqual(
        cmd(box, ["settings"], at: 100).stdoutText,
        "history_keep 7\nhistory_days 30\nbiometric_reuse_seconds 0\n")
      XCTAssertTrue(get(box, "big") == fromB)
      XCTAssertTrue(history(box, "big") == ["orig-big", fromA, fromB])
      let purged = box.vault(
        ["get", "secret"], pin: [box === pair.a ? Sandbox.pin : SyncPair.pinB], env: at(100))
      XCTAssertEqual(purged.status, 3)
      XCTAssertEqual(
        purged.stderrText, "vault: error: the entry 'secret' was purged; nothing of it is kept\n")
    }
  }

  /// Attack review: an edit against a purge keeps the edit, and only what was made since the
  /// purge's base: the versions the purge erased do not come back, on either side.
  func testAnEditAgainstAPurgeKeepsOnlyTheEdit() {
    _ = twoDevices(["x", "y"])
    cmd(pair.a, ["add", "--force", "x"], stdin: "second-x", at: 3)
    cmd(pair.a, ["add", "--force", "y"], stdin: "second-y", at: 3)
    cmd(pair.a, ["sync"], at: 4)
    cmd(pair.b, ["sync"], at: 5)
    cmd(pair.a, ["purge", "x"], at: 10)
    cmd(pair.b, ["add", "--force", "x"], stdin: "b-edit", at: 20)
    cmd(pair.b, ["purge", "y"], at: 10)
    cmd(pair.a, ["add", "--force", "y"], stdin: "a-edit", at: 20)
    cmd(pair.a, ["sync"], at: 30)
    cmd(pair.b, ["sync"], at: 31)
    cmd(pair.a, ["sync"], at: 32)
    assertSameState()
    for box in [pair.a, pair.b] {
      XCTAssertEqual(history(box, "x"), ["b-edit"])
      XCTAssertEqual(history(box, "y"), ["a-edit"])
    }
    let tree = pair.git(["ls-tree", "-r", "vault"]).stdoutText
    XCTAssertEqual(tree.split(separator: "\n").filter { $0.contains("contents/") }.count, 2)
  }

  func testAnEditAgainstARemovalKeepsTheEditWhicheverIsLater() {
    _ = twoDevices(["early", "late"])
    cmd(pair.b, ["add", "--force", "early"], stdin: "edited", at: 5)
    cmd(pair.a, ["rm", "early"], at: 10)
    cmd(pair.a, ["add", "--force", "late"], stdin: "edited", at: 10)
    cmd(pair.b, ["rm", "late"], at: 20)
    cmd(pair.a, ["sync"], at: 30)
    let merged = cmd(pair.b, ["sync"], at: 31)
    XCTAssertEqual(
      merged.errorLines.filter { $0.hasPrefix("conflict:") }.sorted(),
      [
        "conflict: early: changed on one device and removed on the other; kept the change, see"
          + " vault history early",
        "conflict: late: changed on one device and removed on the other; kept the change, see"
          + " vault history late",
      ].sorted())
    cmd(pair.a, ["sync"], at: 32)
    XCTAssertEqual(list(pair.a), ["early", "late"])
    XCTAssertEqual(get(pair.a, "early"), "edited")
    XCTAssertEqual(get(pair.a, "late"), "edited")
    assertSameState()
  }

  func testTwoEntriesThatReachOneNameAreBothKeptTheLaterRenamed() {
    let (_, b) = twoDevices(["old"])
    cmd(pair.a, ["add", "shared"], stdin: "a-first", at: 10)
    cmd(pair.b, ["add", "shared"], stdin: "b-later", at: 20)
    cmd(pair.a, ["mv", "old", "target"], at: 10)
    cmd(pair.b, ["add", "target"], stdin: "b-target", at: 20)
    cmd(pair.a, ["sync"], at: 30)
    let merged = cmd(pair.b, ["sync"], at: 31)
    let day = String(
      ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: start + 20))
        .prefix(10))
    let suffix = " (conflict \(b.prefix(8)) \(day))"
    XCTAssertEqual(
      merged.errorLines.filter { $0.hasPrefix("conflict:") }.sorted(),
      [
        "conflict: shared: two entries had this name; kept both, the later as 'shared\(suffix)'",
        "conflict: target: two entries had this name; kept both, the later as 'target\(suffix)'",
      ])
    cmd(pair.a, ["sync"], at: 32)
    XCTAssertEqual(list(pair.a), ["shared", "shared" + suffix, "target", "target" + suffix])
    XCTAssertEqual(get(pair.a, "shared"), "a-first")
    XCTAssertEqual(get(pair.a, "shared" + suffix), "b-later")
    XCTAssertEqual(get(pair.a, "target"), "orig-old")
    XCTAssertEqual(get(pair.a, "target" + suffix), "b-target")
    assertSameState()
  }

  /// New-user review: A adds `target` and removes `y` while B renames `y` onto `target`.
  ///
  /// A syncs first. B's sync failed on every try ("the vault's records are not the ones its state
  /// authenticates"): both entries are kept, the rename as the later under the conflict name.
  func testARenameOntoANameAddedElsewhereAgainstARemovalMerges() {
    let (_, b) = twoDevices(["x", "y"])
    cmd(pair.a, ["add", "target"], stdin: "a-target", at: 10)
    cmd(pair.a, ["rm", "y"], at: 11)
    cmd(pair.b, ["mv", "y", "target"], at: 20)
    cmd(pair.a, ["sync"], at: 30)
    let merged = pair.b.vault(["sync"], pin: [SyncPair.pinB], env: at(31))
    XCTAssertEqual(merged.status, 0, merged.stderrText)
    let day = String(
      ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: start + 20)).prefix(10))
    let suffix = " (conflict \(b.prefix(8)) \(day))"
    XCTAssertEqual(
      merged.errorLines.filter { $0.hasPrefix("conflict:") },
      [
        "conflict: target: two entries had this name; kept both, the later as 'target\(suffix)'",
        "conflict: target\(suffix): changed on one device and removed on the other; kept the"
          + " change, see vault history target\(suffix)",
      ])
    cmd(pair.a, ["sync"], at: 32)
    XCTAssertEqual(list(pair.a), ["target", "target" + suffix, "x"])
    XCTAssertEqual(get(pair.a, "target"), "a-target")
    XCTAssertEqual(get(pair.a, "target" + suffix), "orig-y")
    assertSameState()
  }

  /// Every pair of an edit, a rename, a removal and nothing on both devices, one entry per
  /// pair, with B's change the later: the change that the rules keep, the other in history.
  func testEveryCombinationOfEditRenameAndRemove() {
    let ops = ["edit", "mv", "rm", "none"]
    var names: [String] = []
    for x in ops { for y in ops { names.append("\(x)-\(y)") } }
    _ = twoDevices(names)
    func apply(_ box: Sandbox, _ op: String, _ name: String, side: String, at offset: Double) {
      switch op {
      case "edit": cmd(box, ["add", "--force", name], stdin: "\(side)-\(name)", at: offset)
      case "mv": cmd(box, ["mv", name, "\(name)-\(side)"], at: offset)
      case "rm": cmd(box, ["rm", name], at: offset)
      default: break
      }
    }
    for x in ops {
      for y in ops {
        apply(pair.a, x, "\(x)-\(y)", side: "A", at: 10)
        apply(pair.b, y, "\(x)-\(y)", side: "B", at: 20)
      }
    }
    cmd(pair.a, ["sync"], at: 30)
    cmd(pair.b, ["sync"], at: 31)
    cmd(pair.a, ["sync"], at: 32)
    assertSameState()
    var expected: [String: String] = [:]
    for x in ops {
      for y in ops {
        let name = "\(x)-\(y)"
        // B is later; an edit or a rename beats a removal; nothing beats nothing.
        let winner: (op: String, side: String) =
          y == "none"
          ? (x, "A")
          : x == "none"
            ? (y, "B")
            : y == "rm" && x != "rm"
              ? (x, "A")
              : (y, "B")
        switch winner.op {
        case "edit": expected[name] = "\(winner.side)-\(name)"
        case "mv": expected["\(name)-\(winner.side)"] = "orig-\(name)"
        case "rm": break
        default: expected[name] = "orig-\(name)"
        }
      }
    }
    XCTAssertEqual(list(pair.a), expected.keys.sorted())
    for (name, content) in expected { XCTAssertEqual(get(pair.b, name), content, name) }
    // The losing change is in the current entry's history (the current version last).
    XCTAssertEqual(
      history(pair.a, "edit-edit"), ["orig-edit-edit", "A-edit-edit", "B-edit-edit"])
    XCTAssertEqual(history(pair.a, "edit-mv-B"), ["orig-edit-mv", "A-edit-mv", "orig-edit-mv"])
    XCTAssertEqual(history(pair.b, "mv-edit"), ["orig-mv-edit", "orig-mv-edit", "B-mv-edit"])
    XCTAssertEqual(history(pair.b, "rm-edit"), ["orig-rm-edit", "B-rm-edit"])
    XCTAssertEqual(history(pair.b, "edit-rm"), ["orig-edit-rm", "A-edit-rm"])
  }
}
