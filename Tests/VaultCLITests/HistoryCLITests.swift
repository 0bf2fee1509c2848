import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault history`, `get --revision`, `restore`, `purge` and `settings`, through the built
/// binary: every change keeps the version it replaces, and retention drops them only beyond both
/// bounds.
final class HistoryCLITests: XCTestCase {
  var box: Sandbox!
  /// 2026-01-01T00:00:00Z.
  static let start = 1_767_225_600.0
  static let day = 86_400.0

  override func setUp() {
    box = Sandbox()
    box.initPINOnly()
  }

  override func tearDown() { box = nil }

  /// `vault` with the PIN and the wall clock at `start` + `days`.
  @discardableResult
  func run(_ arguments: [String], stdin: [UInt8]? = nil, days: Double = 0) -> Subprocess.Result {
    box.vaultPIN(
      arguments, stdin: stdin,
      env: ["VAULT_TEST_WALLCLOCK": String(Int(Self.start + days * Self.day))])
  }

  func add(_ name: String, _ content: [UInt8], force: Bool = false, days: Double = 0) {
    let result = run(["add", name] + (force ? ["--force"] : []), stdin: content, days: days)
    XCTAssertEqual(result.status, 0, result.stderrText)
  }

  func revisions(_ name: String) -> [Int] {
    let result = run(["history", name, "--json"])
    let rows =
      (try? JSONSerialization.jsonObject(with: Data(result.stdout)) as? [[String: Any]]) ?? []
    return rows.compactMap { $0["revision"] as? Int }
  }

  func testAForcedOverwriteIsRestoredByteExact() {
    let original: [UInt8] = [0, 1, 2, 255, 10, 13, 0]
    add("bank/pin", original)
    add("bank/pin", Array("replaced".utf8), force: true, days: 1)
    let history = run(["history", "bank/pin"])
    XCTAssertEqual(history.status, 0, history.stderrText)
    XCTAssertEqual(
      history.stdoutText,
      """
      2  2026-01-02T00:00:00Z  8 bytes  add --force  bank/pin  current
      1  2026-01-01T00:00:00Z  7 bytes  add          bank/pin

      """)
    XCTAssertEqual(run(["get", "bank/pin", "--revision", "1"]).stdout, original)
    let restored = run(["restore", "bank/pin"], days: 2)
    XCTAssertEqual(restored.status, 0, restored.stderrText)
    XCTAssertEqual(restored.stderrText, "Restored revision 1 of 'bank/pin' (now revision 3).\n")
    XCTAssertEqual(run(["get", "bank/pin"]).stdout, original)
    // The restore is itself undoable: the replaced version is kept.
    XCTAssertEqual(revisions("bank/pin"), [3, 2, 1])
    XCTAssertEqual(run(["get", "bank/pin", "--revision", "2"]).stdoutText, "replaced")
    let json = run(["history", "bank/pin", "--json"]).stdoutText
    XCTAssertTrue(
      json.hasPrefix(
        #"[{"revision":3,"time":"2026-01-03T00:00:00Z","name":"bank/pin","size":7,"#
          + #""command":"restore","state":"current","guarded":false}"#), json)
  }

  func testRemoveThenRestore() {
    add("mail", Array("hunter2".utf8))
    let removed = run(["rm", "mail"])
    XCTAssertEqual(removed.status, 0)
    XCTAssertEqual(
      removed.stderrText,
      "Removed 'mail'. Undo with: vault restore mail  ('vault purge' removes it for good).\n")
    let gone = run(["get", "mail"])
    XCTAssertEqual(gone.status, 3)
    XCTAssertEqual(
      gone.stderrText,
      "vault: error: the entry 'mail' was removed\nvault: hint: bring it back with: vault restore"
        + " mail\n")
    XCTAssertEqual(run(["list"]).stdoutText, "")
    XCTAssertEqual(
      run(["history", "mail"]).stdoutText,
      """
      2  2026-01-01T00:00:00Z        -  rm   mail  removed
      1  2026-01-01T00:00:00Z  7 bytes  add  mail

      """)
    XCTAssertEqual(run(["list", "--removed"]).stdoutText, "mail\n")
    XCTAssertEqual(
      run(["list", "--removed", "--json"]).stdoutText,
      #"[{"name":"mail","removed":"2026-01-01T00:00:00Z"}]"# + "\n")
    XCTAssertEqual(run(["list", "--removed", "x"]).stdoutText, "")
    XCTAssertEqual(run(["restore", "mail"]).status, 0)
    XCTAssertEqual(run(["list", "--removed"]).stdoutText, "")
    XCTAssertEqual(run(["get", "mail"]).stdoutText, "hunter2")
    XCTAssertEqual(run(["list"]).stdoutText, "mail\n")
    XCTAssertEqual(revisions("mail"), [3, 1])
  }

  /// The undo hint is one argument a shell takes as it is: quoted when it must be, after `--`
  /// when it starts with '-', never run.
  func testTheUndoHintIsSafeToPaste() {
    let names = [
      ("two words", "'two words'"), ("-dash", "-- -dash"), ("a$(id)b", "'a$(id)b'"),
      ("it's", #"'it'\''s'"#), ("plain/name", "plain/name"),
    ]
    let pin = " 3<<EOF\n$PIN\nEOF"
    for (name, word) in names {
      let env = ["NAME": name]
      XCTAssertEqual(
        box.shell("printf x | vault --pin-fd 3 add -- \"$NAME\"" + pin, env: env).status, 0)
      let removed = box.shell("vault --pin-fd 3 rm -- \"$NAME\"" + pin, env: env)
      XCTAssertEqual(
        removed.stderrText,
        "Removed '\(name)'. Undo with: vault restore \(word)  ('vault purge' removes it for"
          + " good).\n")
      // The hint pasted as it is (the PIN descriptor given before the command).
      let pasted = box.shell("vault --pin-fd 3 restore \(word)" + pin)
      XCTAssertEqual(pasted.status, 0, "\(name): \(pasted.stderrText)")
      XCTAssertEqual(
        box.shell("vault --pin-fd 3 get -- \"$NAME\"" + pin, env: env).stdoutText, "x")
    }
  }

  func testAddingUnderARemovedNameContinuesItsHistory() {
    add("x", Array("old".utf8))
    run(["rm", "x"])
    add("x", Array("new".utf8))
    XCTAssertEqual(revisions("x"), [3, 1])
    XCTAssertEqual(run(["get", "x", "--revision", "1"]).stdoutText, "old")
    XCTAssertEqual(
      run(["check"]).stdoutText,
      "ok: header, 1 entry (2 chunks), 0 journal entries, 1 kept revision\n")
  }

  func testRenamingKeepsTheOldNameAndAbsorbsTheReplacedEntry() {
    add("a", Array("alpha".utf8))
    add("b", Array("bravo".utf8))
    XCTAssertEqual(run(["mv", "a", "b"]).status, 4)
    XCTAssertEqual(run(["mv", "--force", "a", "b"]).status, 0)
    XCTAssertEqual(
      run(["history", "b"]).stdoutText,
      """
      3  2026-01-01T00:00:00Z  5 bytes  mv   b  current
      2  2026-01-01T00:00:00Z  5 bytes  add  b
      1  2026-01-01T00:00:00Z  5 bytes  add  a

      """)
    // The entry that was at b is still readable, byte for byte, and can come back.
    XCTAssertEqual(run(["get", "b", "--revision", "2"]).stdoutText, "bravo")
    XCTAssertEqual(run(["restore", "b", "--revision", "2"]).status, 0)
    XCTAssertEqual(run(["get", "b"]).stdoutText, "bravo")
    XCTAssertEqual(run(["history", "a"]).status, 3)
    XCTAssertEqual(run(["check"]).status, 0)
  }

  func testUnknownRevisionsAndCurrentRevision() {
    add("k", Array("v".utf8))
    let missing = run(["get", "k", "--revision", "7"])
    XCTAssertEqual(missing.status, 3)
    XCTAssertEqual(
      missing.stderrText,
      "vault: error: no revision 7 of 'k' is kept\nvault: hint: see 'vault history k'\n")
    let nothing = run(["restore", "k"])
    XCTAssertEqual(nothing.status, 3)
    XCTAssertEqual(nothing.stderrText, "vault: error: no earlier revision of 'k' is kept\n")
    let current = run(["restore", "k", "--revision", "1"])
    XCTAssertEqual(current.status, 5)
    XCTAssertEqual(current.stderrText, "vault: error: revision 1 of 'k' is its current version\n")
    XCTAssertEqual(run(["get", "k", "--revision", "0"]).status, 64)
    XCTAssertEqual(run(["history", "nothing"]).status, 3)
  }

  func testRetentionKeepsTheNewestByCount() {
    XCTAssertEqual(run(["settings", "history_days", "0"]).status, 0)
    XCTAssertEqual(run(["settings", "history_keep", "2"]).status, 0)
    add("n", Array("1".utf8))
    for value in 2...5 { add("n", Array("\(value)".utf8), force: true) }
    XCTAssertEqual(revisions("n"), [5, 4, 3])
    XCTAssertEqual(run(["get", "n", "--revision", "3"]).stdoutText, "3")
    XCTAssertEqual(run(["get", "n", "--revision", "2"]).status, 3)
    // Their chunks went with them.
    XCTAssertEqual(
      run(["check"]).stdoutText,
      "ok: header, 1 entry (3 chunks), 0 journal entries, 2 kept revisions\n")
  }

  func testWithNoHistoryKeptRemovalIsFinalAndSaysSo() {
    XCTAssertEqual(run(["settings", "history_keep", "0"]).status, 0)
    XCTAssertEqual(run(["settings", "history_days", "0"]).status, 0)
    add("z", Array("zed".utf8))
    let removed = run(["rm", "z"])
    XCTAssertEqual(removed.status, 0)
    XCTAssertEqual(
      removed.stderrText,
      "Removed 'z' for good: the retention settings keep no history (see 'vault settings').\n")
    XCTAssertEqual(run(["restore", "z"]).status, 3)
  }

  func testRetentionKeepsTheYoungWhateverTheirRank() {
    XCTAssertEqual(run(["settings", "history_keep", "1"]).status, 0)
    add("y", Array("1".utf8))
    add("y", Array("2".utf8), force: true)
    add("y", Array("3".utf8), force: true)
    // 89 days on, revisions 1 and 2 (replaced on day 0) are young enough to stay.
    add("y", Array("4".utf8), force: true, days: 89)
    XCTAssertEqual(revisions("y"), [4, 3, 2, 1])
    // 91 days on, beyond both bounds: only the newest kept revision and the young one stay.
    add("y", Array("5".utf8), force: true, days: 91)
    XCTAssertEqual(revisions("y"), [5, 4, 3])
  }

  func testChangingASettingAppliesItAtOnce() {
    add("s", Array("1".utf8))
    for value in 2...4 { add("s", Array("\(value)".utf8), force: true) }
    XCTAssertEqual(
      run(["settings"]).stdoutText, "history_keep 10\nhistory_days 90\nbiometric_reuse_seconds 0\n")
    XCTAssertEqual(run(["settings", "history_keep", "1"]).stderrText, "Set history_keep to 1.\n")
    let set = run(["settings", "history_days", "0"])
    XCTAssertEqual(set.stderrText, "Set history_days to 0; dropped 2 kept revisions.\n")
    XCTAssertEqual(
      run(["settings"]).stdoutText, "history_keep 1\nhistory_days 0\nbiometric_reuse_seconds 0\n")
    XCTAssertEqual(run(["settings", "history_keep"]).stdoutText, "1\n")
    XCTAssertEqual(revisions("s"), [4, 3])
    let bad = run(["settings", "history_days", "36501"])
    XCTAssertEqual(bad.status, 5)
    XCTAssertEqual(
      bad.stderrText,
      "vault: error: history_days is a whole number from 0 to 36500, not '36501'\n")
    XCTAssertEqual(run(["settings", "history_days", "-1"]).status, 64)
    XCTAssertEqual(run(["settings", "colour", "1"]).status, 64)
    XCTAssertEqual(
      run(["settings"]).stdoutText, "history_keep 1\nhistory_days 0\nbiometric_reuse_seconds 0\n")
  }

  func testPurgeShrinksTheFile() throws {
    add("small", Array("stay".utf8))
    let big = [UInt8]((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
    add("big", big)
    add("big", Array("smaller".utf8), force: true)
    XCTAssertEqual(run(["rm", "big"]).status, 0)
    let before = try fileSize()
    XCTAssertGreaterThan(before, 3_000_000)
    let purged = run(["purge", "big"])
    XCTAssertEqual(purged.status, 0, purged.stderrText)
    let after = try fileSize()
    // A few records in pages of 16 KiB (`vault(5)`: new files since 0.5.0): a dozen pages.
    XCTAssertLessThan(after, 256 * 1024)
    XCTAssertEqual(
      purged.stderrText,
      "Purged 'big' and 2 kept revisions (47 content chunks); the file went from \(before) to"
        + " \(after) bytes. Backups and other copies still hold what they held.\n")
    XCTAssertEqual(
      run(["history", "big"]).stdoutText, "4  2026-01-01T00:00:00Z  -  purge  big  purged\n")
    let restore = run(["restore", "big"])
    XCTAssertEqual(restore.status, 3)
    XCTAssertEqual(
      restore.stderrText, "vault: error: the entry 'big' was purged; nothing of it is kept\n")
    XCTAssertEqual(run(["get", "big"]).stderrText, restore.stderrText)
    XCTAssertEqual(run(["purge", "big"]).status, 3)
    XCTAssertEqual(run(["list", "--removed"]).stdoutText, "")
    XCTAssertEqual(run(["get", "small"]).stdoutText, "stay")
    XCTAssertEqual(
      run(["check"]).stdoutText,
      "ok: header, 1 entry (1 chunk), 0 journal entries, 1 removed entry\n")
  }

  func testPurgeHistoryKeepsCurrentVersions() throws {
    let big = [UInt8](repeating: 7, count: 2_000_000)
    add("p", big)
    add("p", Array("now".utf8), force: true)
    add("q", Array("q".utf8))
    let before = try fileSize()
    let purged = run(["purge", "--history"])
    XCTAssertEqual(purged.status, 0, purged.stderrText)
    XCTAssertLessThan(try fileSize(), before - 1_900_000)
    XCTAssertEqual(revisions("p"), [2])
    XCTAssertEqual(run(["get", "p"]).stdoutText, "now")
    XCTAssertEqual(run(["purge"]).status, 64)
    XCTAssertEqual(run(["purge", "p", "--history"]).status, 64)
  }

  func testAGuardedEntrysRevisionsNeedTheFreshCheck() {
    XCTAssertEqual(box.vaultPIN(["add", "--guard", "g"], stdin: [65]).status, 0)
    XCTAssertEqual(box.vaultPIN(["add", "--force", "g"], stdin: [66]).status, 0)
    let token = box.vaultPIN(["unlock", "--raw"]).stdoutText.trimmingCharacters(in: .newlines)
    let env = ["VAULT_SESSION": token]
    XCTAssertEqual(box.vault(["get", "g", "--revision", "1"], env: env).status, 10)
    let read = box.vault(
      ["get", "g", "--revision", "1"], pin: [Sandbox.pin],
      env: env.merging(["VAULT_TEST_BOOTCLOCK": "1003"]) { $1 })
    XCTAssertEqual(read.stdout, [65], read.stderrText)
  }

  private func fileSize() throws -> Int {
    try FileManager.default.attributesOfItem(atPath: box.vaultPath)[.size] as? Int ?? 0
  }
}
