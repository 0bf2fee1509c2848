import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// Finding things through the built binary: `list --tree`, `list FOLDER/`, `find`, the "did you
/// mean" of a name not found, the words other tools use, and `vault` without a command.
final class FindingCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }

  override func setUp() {
    box = Sandbox()
  }

  /// A PIN-only vault in a session, holding `names` (each with the content `x`).
  func store(_ names: [String], file: StaticString = #filePath, line: UInt = #line) {
    session = box.pinOnlySession(file: file, line: line)
    for name in names {
      let result = box.vault(["add", "--", name], stdin: Array("x".utf8), env: session)
      XCTAssertEqual(result.status, 0, "add \(name): \(result.stderrText)", file: file, line: line)
    }
  }

  static let treeNames = [
    "mail/work", "a/c/d", "wifi", "a", "café/thé", "mail/home", "Zeta", "a/b",
  ]

  // MARK: - list --tree and folders

  func testTreeDrawsNestedFoldersAnEntryThatIsAlsoAFolderAndUnicode() {
    store(Self.treeNames)
    let tree = box.vault(["list", "--tree"], env: session)
    XCTAssertEqual(tree.status, 0, tree.stderrText)
    XCTAssertEqual(tree.stderr, [])
    XCTAssertEqual(
      tree.stdoutText,
      """
      ├── Zeta
      ├── a
      ├── a/
      │   ├── b
      │   └── c/
      │       └── d
      ├── café/
      │   └── thé
      ├── mail/
      │   ├── home
      │   └── work
      └── wifi

      """)
    XCTAssertEqual(box.vault(["ls", "--tree"], env: session).stdout, tree.stdout)
  }

  func testAFolderPrefixListsThatFolderFlatOrAsItsTree() {
    store(Self.treeNames)
    let flat = box.vault(["list", "a/"], env: session)
    XCTAssertEqual(flat.status, 0, flat.stderrText)
    XCTAssertEqual(flat.stdoutText, "a/b\na/c/d\n")
    let subtree = box.vault(["list", "--tree", "a/"], env: session)
    XCTAssertEqual(subtree.status, 0, subtree.stderrText)
    XCTAssertEqual(subtree.stdoutText, "a/\n├── b\n└── c/\n    └── d\n")
    XCTAssertEqual(
      box.vault(["list", "--tree", "a/c/"], env: session).stdoutText, "a/c/\n└── d\n")
    // A decomposed é names the same folder as the stored (NFC) one.
    XCTAssertEqual(
      box.vault(["list", "--tree", "cafe\u{301}/"], env: session).stdoutText, "café/\n└── thé\n")
    // A prefix that is not a folder filters, and the tree is drawn from the top.
    XCTAssertEqual(
      box.vault(["list", "--tree", "mai"], env: session).stdoutText,
      "└── mail/\n    ├── home\n    └── work\n")
    let none = box.vault(["list", "--tree", "nothing/"], env: session)
    XCTAssertEqual(none.status, 0)
    XCTAssertEqual(none.stdout, [])
  }

  func testTreeRefusesJSONWhichStaysAFlatArray() {
    store(["a/b"])
    let refused = box.vault(["list", "--tree", "--json"], env: session)
    XCTAssertEqual(refused.status, 64)
    XCTAssertEqual(refused.stdout, [])
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: --tree draws text; --json is always a flat array",
        "Usage: vault list [--json] [--removed] [--tree] [PREFIX]",
      ])
    let json = box.vault(["list", "--json", "a/"], env: session)
    XCTAssertEqual(json.status, 0)
    XCTAssertTrue(json.stdoutText.hasPrefix(#"[{"name":"a/b","created":""#), json.stdoutText)
  }

  func testTreeOfRemovedEntries() {
    store(["old/one", "old/two", "keep"])
    for name in ["old/one", "old/two"] {
      XCTAssertEqual(box.vault(["rm", name], env: session).status, 0)
    }
    let removed = box.vault(["list", "--removed", "--tree"], env: session)
    XCTAssertEqual(removed.status, 0, removed.stderrText)
    XCTAssertEqual(removed.stdoutText, "└── old/\n    ├── one\n    └── two\n")
  }

  func testTreeShowsControlCharactersSafely() {
    // No entry name can hold one (EntryName refuses them); the drawing is safe all the same.
    XCTAssertEqual(
      NameTree.render(["a\u{1b}[2Jb/c\u{7}", "a\u{1b}[2Jb/d"]),
      "└── a?[2Jb/\n    ├── c?\n    └── d\n")
    XCTAssertEqual(NameTree.render([]), "")
    XCTAssertEqual(NameTree.render(["x/y"], folder: "x/"), "x/\n└── y\n")
  }

  // MARK: - find

  static let findNames = ["mail/work", "network/wifi", "work", "w/o/r/k", "homework/notes", "misc"]

  func testFindOrdersBestFirstInAnyCase() {
    store(Self.findNames)
    let found = box.vault(["find", "WORK"], env: session)
    XCTAssertEqual(found.status, 0, found.stderrText)
    XCTAssertEqual(found.stderr, [])
    // work 21, mail/work 20, network/wifi and homework/notes 16 (the shorter first), w/o/r/k 15.
    XCTAssertEqual(
      found.stdoutText, "work\nmail/work\nnetwork/wifi\nhomework/notes\nw/o/r/k\n")
    let json = box.vault(["find", "--json", "work"], env: session)
    XCTAssertEqual(json.status, 0)
    XCTAssertEqual(
      json.stdoutText,
      #"[{"name":"work","score":21},{"name":"mail/work","score":20},"#
        + #"{"name":"network/wifi","score":16},{"name":"homework/notes","score":16},"#
        + #"{"name":"w/o/r/k","score":15}]"# + "\n")
    // Every WORD must match: only mail/work has both.
    XCTAssertEqual(
      box.vault(["find", "--json", "mail", "w"], env: session).stdoutText,
      #"[{"name":"mail/work","score":24}]"# + "\n")
    // mail/work's m and w both start a segment (6); homework/notes has neither (-1).
    XCTAssertEqual(
      box.vault(["find", "mw"], env: session).stdoutText, "mail/work\nhomework/notes\n")
  }

  func testFindExitsOneWhenNothingMatches() {
    store(Self.findNames)
    let none = box.vault(["find", "zzz"], env: session)
    XCTAssertEqual(none.status, 1)
    XCTAssertEqual(none.stdout, [])
    XCTAssertEqual(none.stderr, [])
    let json = box.vault(["find", "--json", "krow"], env: session)
    XCTAssertEqual(json.status, 1)
    XCTAssertEqual(json.stdoutText, "[]\n")
    let empty = box.vault(["find", ""], env: session)
    XCTAssertEqual(empty.status, 64)
    XCTAssertEqual(
      empty.errorLines, ["vault: error: WORD is empty", "Usage: vault find [--json] WORD..."])
    let missing = box.vault(["find"], env: session)
    XCTAssertEqual(missing.status, 64)
    XCTAssertEqual(
      missing.errorLines,
      ["vault: error: missing argument WORD", "Usage: vault find [--json] WORD..."])
    // Names are secret: locked, nothing is read.
    XCTAssertEqual(box.vault(["find", "work"]).status, 10)
  }

  func testFuzzyScores() {
    XCTAssertEqual(FuzzyMatch.score("work", words: ["work"]), 21)
    XCTAssertEqual(FuzzyMatch.score("Work", words: ["wORK"]), 21)
    XCTAssertEqual(FuzzyMatch.score("work", words: ["wrk"]), 4 + 1 + 6 - 1)
    XCTAssertNil(FuzzyMatch.score("work", words: ["krow"]))
    XCTAssertNil(FuzzyMatch.score("wo", words: ["work"]))
    // The best alignment counts: the run in "ab/abc" beats the first a.
    XCTAssertEqual(FuzzyMatch.score("xa/abc", words: ["abc"]), 4 + 6 + 6 - 1)
    XCTAssertEqual(
      FuzzyMatch.rank(["b", "a", "ab"], words: ["a"]).map(\.name), ["a", "ab"])
  }

  // MARK: - did you mean

  static let suggestionNames = ["mail/work", "mail/home", "Bank", "my folder/pin"]

  func assertNotFound(
    _ arguments: [String], _ hint: String, pin: Bool = false,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let result = pin ? box.vaultPIN(arguments) : box.vault(arguments, env: session)
    XCTAssertEqual(result.status, 3, result.stderrText, file: file, line: line)
    XCTAssertEqual(result.stdout, [], file: file, line: line)
    let name = arguments.last ?? ""
    XCTAssertEqual(
      result.errorLines, ["vault: error: no entry named '\(name)'", "vault: hint: \(hint)"],
      file: file, line: line)
  }

  func testANameNotFoundGetsTheNearestNameTheCaseOrTheFolder() {
    store(Self.suggestionNames)
    assertNotFound(["get", "mail/wrok"], "did you mean 'mail/work'?")
    assertNotFound(["get", "MAIL/WORK"], "did you mean 'mail/work'?")
    assertNotFound(["get", "bank"], "did you mean 'Bank'?")
    assertNotFound(["get", "mail"], "'mail' is a folder; list it with: vault list mail/")
    assertNotFound(
      ["get", "Mail"], "did you mean the folder 'mail/'? list it with: vault list mail/")
    assertNotFound(
      ["get", "my folder"], "'my folder' is a folder; list it with: vault list 'my folder/'")
    assertNotFound(["get", "nothing-near"], "see 'vault list'")
    // The same for every command that reports the name, after its own opening.
    assertNotFound(["rm", "mail/hoem"], "did you mean 'mail/home'?")
    assertNotFound(["history", "mail/wrok"], "did you mean 'mail/work'?")
  }

  func testSuggestionsNeedTheKeyAlreadyHeldAndNeverAskAgain() {
    store(Self.suggestionNames)
    // One PIN line only: a second prompt would fail with "--pin-fd 3 ended".
    assertNotFound(["get", "mail/wrok"], "did you mean 'mail/work'?", pin: true)
    assertNotFound(["rm", "mail"], "'mail' is a folder; list it with: vault list mail/", pin: true)
    // Locked: the command fails before any name is known, and no name is suggested.
    let locked = box.vault(["get", "mail/wrok"])
    XCTAssertEqual(locked.status, 10)
    XCTAssertFalse(locked.stderrText.contains("mail/work"), locked.stderrText)
  }

  // MARK: - words from other tools, and no command

  func testAliasesFromOtherTools() {
    session = box.pinOnlySession()
    let inserted = box.vault(["insert", "mail/work"], stdin: Array("hunter2".utf8), env: session)
    XCTAssertEqual(inserted.status, 0, inserted.stderrText)
    let shown = box.vault(["show", "mail/work"], env: session)
    XCTAssertEqual(shown.status, 0)
    XCTAssertEqual(shown.stdoutText, "hunter2")
    let deleted = box.vault(["delete", "mail/work"], env: session)
    XCTAssertEqual(deleted.status, 0, deleted.stderrText)
    XCTAssertEqual(box.vault(["get", "mail/work"], env: session).status, 3)
    XCTAssertEqual(box.vault(["restore", "mail/work"], env: session).status, 0)
    XCTAssertEqual(box.vault(["remove", "mail/work"], env: session).status, 0)
    let version = box.vault(["version"])
    XCTAssertEqual(version.status, 0)
    XCTAssertEqual(version.stdoutText, "vault 0.12.0\n")
    XCTAssertEqual(box.vault(["--version"]).stdoutText, version.stdoutText)
    XCTAssertEqual(VaultCommands.program.canonicalPath(["show"]), ["get"])
    XCTAssertEqual(VaultCommands.program.canonicalPath(["insert"]), ["add"])
    XCTAssertEqual(VaultCommands.program.canonicalPath(["delete"]), ["rm"])
  }

  /// Each hint names a command vault has: `git` pointed at no sync, "not built yet", after
  /// `vault sync` came in 0.10.0 (from the new-user review of 0.11.0).
  func testWordsOfOtherToolsThatAreNoCommandSayWhatToRun() {
    let cases: [(arguments: [String], hint: String)] = [
      (["copy", "mail/work"], "copy an entry to the clipboard with: vault get --clip NAME"),
      (
        ["cp", "a", "b"],
        "copy an entry under another name with: vault get NAME | vault add NEW; to the"
          + " clipboard: vault get --clip NAME"
      ),
      (
        ["git", "push", "--force"],
        "vault keeps one encrypted file and has no git store; it syncs between devices through a"
          + " git remote with: vault sync init REMOTE, then vault sync"
      ),
    ]
    for (arguments, hint) in cases {
      let result = box.vault(arguments)
      XCTAssertEqual(result.status, 64, arguments[0])
      XCTAssertEqual(result.stdout, [])
      XCTAssertEqual(
        result.errorLines,
        [
          "vault: error: vault has no '\(arguments[0])' command", "vault: hint: \(hint)",
          "Usage: vault <command>",
        ])
    }
    for pointed in [["get", "--help"], ["sync", "--help"], ["sync", "init", "--help"]] {
      XCTAssertEqual(box.vault(pointed).status, 0, pointed.joined(separator: " "))
    }
    // A near command is still suggested for a typo.
    XCTAssertEqual(
      box.vault(["gte"]).errorLines,
      [
        "vault: error: unknown command 'gte'", "vault: hint: did you mean 'get'?",
        "Usage: vault <command>",
      ])
  }

  func testNoCommandPrintsTheShortHelpOnStandardError() {
    let result = box.vault([])
    XCTAssertEqual(result.status, 64)
    XCTAssertEqual(result.stdout, [])
    let lines = result.errorLines
    XCTAssertEqual(lines.first, "Usage: vault <command> [<options>]")
    XCTAssertEqual(lines[1], "Commands:")
    XCTAssertEqual(
      lines[2], "  init         Create a new vault and print its one-time recovery code.")
    XCTAssertTrue(
      lines.contains("  find         Find entry names by fuzzy match, best first, one per line."))
    XCTAssertFalse(result.stderrText.contains("__complete"))
    XCTAssertEqual(
      Array(lines.suffix(2)),
      [
        "Example: printf 'hunter2' | vault add mail/work; vault get mail/work",
        "See 'vault help COMMAND' for a command's details, 'vault --help' for the options.",
      ])
    // Every visible command is listed once, by name.
    let listed = lines.dropFirst(2).compactMap { line -> String? in
      guard line.hasPrefix("  "), let first = line.dropFirst(2).first, first != " " else {
        return nil
      }
      return String(line.dropFirst(2).prefix { $0 != " " })
    }
    XCTAssertEqual(listed, VaultCommands.program.root.visibleSubcommands.map(\.name))
    XCTAssertEqual(result.stderrText, Help.short(VaultCommands.program) + "\n")
    // With only a global option it stays the usage error.
    XCTAssertEqual(
      box.vault(["--vault", "/nonexistent"]).errorLines,
      ["vault: error: missing command", "Usage: vault <command>"])
  }
}
