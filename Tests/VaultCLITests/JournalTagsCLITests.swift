import Foundation
import VaultCore
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultJournal
@testable import VaultSecrets

/// Journal tags through the built binary: `@word` after white space (never an address's `@`),
/// grouped without regard to case; `journal list --tag`, `journal tags [--json]`, and their
/// completion with a session only.
final class JournalTagsCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]
  var ids: [String] = []

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }

  static let texts = [
    "Met @Anna at @work.\nmail a@b.c (@paren) @work-life\n",
    "@work again, @WORK and @Work\n",
    "nothing tagged here\n",
  ]

  /// A PIN-only vault in a session (UTC) with the three entries of `texts`, a minute apart.
  override func setUp() {
    box = Sandbox(extra: ["TZ": "UTC"])
    session = box.pinOnlySession()
    for (index, text) in Self.texts.enumerated() {
      let result = box.vault(
        ["journal"], stdin: Array(text.utf8),
        env: ["VAULT_TEST_WALLCLOCK": "\(1_800_000_000 + 60 * index)"])
      XCTAssertEqual(result.status, 0, result.stderrText)
    }
    ids = box.vault(["journal", "list"], env: session).stdoutText.split(separator: "\n").map {
      String($0.prefix { $0 != " " })
    }
    XCTAssertEqual(ids.count, 3)
  }

  func line(_ index: Int) -> String {
    let first = Self.texts[index].prefix { $0 != "\n" }
    return "\(ids[index])  2027-01-15 08:0\(index):00+00:00  \(first)\n"
  }

  func testTagsAreCountedOncePerEntryMostUsedFirst() {
    let tags = box.vault(["journal", "tags"], env: session)
    XCTAssertEqual(tags.status, 0, tags.stderrText)
    XCTAssertEqual(tags.stderr, [])
    XCTAssertEqual(tags.stdoutText, "2  @work\n1  @anna\n1  @work-life\n")
    let json = box.vault(["journal", "tags", "--json"], env: session)
    XCTAssertEqual(json.status, 0)
    XCTAssertEqual(
      json.stdoutText,
      #"[{"tag":"@work","count":2},{"tag":"@anna","count":1},{"tag":"@work-life","count":1}]"#
        + "\n")
    XCTAssertEqual(box.vault(["journal", "tags"]).status, 10, "reading needs the key")
  }

  func testCountsAreRightAligned() {
    for _ in 0..<9 {
      XCTAssertEqual(box.vault(["journal"], stdin: Array("@often\n".utf8)).status, 0)
    }
    XCTAssertEqual(
      box.vault(["journal", "tags"], env: session).stdoutText,
      "9  @often\n2  @work\n1  @anna\n1  @work-life\n")
    XCTAssertEqual(box.vault(["journal"], stdin: Array("@often\n".utf8)).status, 0)
    XCTAssertEqual(
      box.vault(["journal", "tags"], env: session).stdoutText,
      "10  @often\n 2  @work\n 1  @anna\n 1  @work-life\n")
  }

  func testListFiltersByEveryTagGiven() {
    let work = box.vault(["journal", "list", "--tag", "work"], env: session)
    XCTAssertEqual(work.status, 0, work.stderrText)
    XCTAssertEqual(work.stdoutText, line(0) + line(1))
    XCTAssertEqual(
      box.vault(["journal", "list", "--tag", "@ANNA", "--tag", "Work"], env: session).stdoutText,
      line(0))
    XCTAssertEqual(
      box.vault(["journal", "list", "--tag", "work", "-n", "1"], env: session).stdoutText, line(1))
    // An address's '@' and one after '(' start no tag.
    for word in ["b", "paren", "work-lif"] {
      let none = box.vault(["journal", "list", "--tag", word], env: session)
      XCTAssertEqual(none.status, 0)
      XCTAssertEqual(none.stdout, [], word)
    }
    let json = box.vault(["journal", "list", "--json", "--tag", "anna"], env: session)
    XCTAssertTrue(json.stdoutText.hasPrefix(#"[{"id":"\#(ids[0])","#), json.stdoutText)
    XCTAssertEqual(json.stdoutText.components(separatedBy: #""id""#).count, 2)
  }

  func testABadTagIsAUsageError() {
    for word in ["a b", "@", "", "work!"] {
      let result = box.vault(["journal", "list", "--tag", word], env: session)
      XCTAssertEqual(result.status, 64, word)
      XCTAssertEqual(
        result.errorLines,
        [
          "vault: error: invalid tag '\(word)' for --tag (letters, digits, '_' and '-', after an"
            + " optional '@')",
          "Usage: vault journal list [--since DATE] [--until DATE] [--count N] [--tag TAG] [--json]",
        ], word)
    }
  }

  func testTagRule() {
    func keys(_ text: String) -> [String] {
      Array(text.utf8).withUnsafeBytes { JournalTags.keys(inUTF8: $0) }
    }
    XCTAssertEqual(keys("@a @B\t@c\n@d"), ["a", "b", "c", "d"])
    XCTAssertEqual(keys("x@y.z mail@host (@p) [@q] @"), [])
    XCTAssertEqual(keys("@Ünïcode_1-2, @日本"), ["ünïcode_1-2", "日本"])
    // A decomposed é is the same tag as a composed one.
    XCTAssertEqual(keys("@cafe\u{301} @caf\u{e9}"), ["caf\u{e9}"])
    // After a no-break space (white space) a tag starts; invalid UTF-8 ends one.
    XCTAssertEqual(keys("\u{a0}@nbsp"), ["nbsp"])
    let invalid = [UInt8]("@ab".utf8) + [0xff] + [UInt8]("@cd @ef".utf8)
    XCTAssertEqual(invalid.withUnsafeBytes { JournalTags.keys(inUTF8: $0) }, ["ab", "ef"])
    XCTAssertEqual(JournalTags.key("@Work"), "work")
    XCTAssertEqual(JournalTags.key("work"), "work")
    XCTAssertNil(JournalTags.key("@@work"))
    XCTAssertNil(JournalTags.key("a.b"))
  }

  func testTagsCompleteOnlyWithASession() {
    let all = box.vault(["__complete", "--tags"], env: session)
    XCTAssertEqual(all.status, 0)
    XCTAssertEqual(all.stdoutText, "anna\nwork\nwork-life\n")
    XCTAssertEqual(
      box.vault(["__complete", "--tags", "--", "W"], env: session).stdoutText, "work\nwork-life\n")
    XCTAssertEqual(
      box.vault(["__complete", "--tags", "--", "@a"], env: session).stdoutText, "anna\n")
    let locked = box.vault(["__complete", "--tags"])
    XCTAssertEqual(locked.status, 0)
    XCTAssertEqual(locked.stdout, [])
    XCTAssertEqual(locked.stderr, [])
  }
}

extension ShellCompletionTests {
  func testBashAndFishCompleteJournalTagsWithASession() throws {
    let fixture = try makeFixture()
    let written = fixture.box.vault(["journal"], stdin: Array("@work and @walk, @home\n".utf8))
    XCTAssertEqual(written.status, 0, written.stderrText)
    let env = fixture.environment
    XCTAssertEqual(
      try bash(["vault", "journal", "list", "--tag", ""], environment: env),
      ["home", "walk", "work"])
    XCTAssertEqual(
      try bash(["vault", "journal", "list", "--tag", "w"], environment: env), ["walk", "work"])
    XCTAssertEqual(
      try fish("vault journal list --tag ", environment: env), ["home", "walk", "work"])
    XCTAssertEqual(
      try bash(["vault", "journal", "list", "--tag", ""], environment: fixture.locked), [])
    XCTAssertEqual(try fish("vault journal list --tag ", environment: fixture.locked), [])
  }
}
