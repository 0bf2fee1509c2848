import Foundation
import VaultTransfer
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault import` through the built binary: each format's mapping byte for byte, every refusal
/// with its line or record and exit code, and the whole-or-nothing rule.
final class ImportCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]
  /// 2026-01-01T00:00:00Z.
  static let clock = ["VAULT_TEST_WALLCLOCK": "1767225600"]

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession().merging(Self.clock) { $1 }
  }

  override func tearDown() { box = nil }

  /// Writes `bytes` to `name` in the sandbox and imports it with `arguments`.
  @discardableResult
  func importFile(
    _ bytes: [UInt8], as format: String = "jsonl", _ arguments: [String] = [],
    name: String = "export"
  ) -> Subprocess.Result {
    XCTAssertTrue(
      FileManager.default.createFile(atPath: box.home + "/" + name, contents: Data(bytes)))
    return box.vault(["import", "--from", format] + arguments + [name], env: session)
  }

  func lines(_ lines: String...) -> [UInt8] { Array(lines.joined(separator: "\n").utf8) }

  func get(_ arguments: String...) -> [UInt8] {
    let result = box.vault(["get"] + arguments, env: session)
    XCTAssertEqual(result.status, 0, result.stderrText)
    return result.stdout
  }

  func names() -> String { box.vault(["list"], env: session).stdoutText }

  var vaultBytes: Data { (try? Data(contentsOf: URL(fileURLWithPath: box.vaultPath))) ?? Data() }

  /// Imports `bytes` expecting a refusal: the exit status, the error lines, and nothing written.
  func assertRefused(
    _ bytes: [UInt8], as format: String = "jsonl", _ arguments: [String] = [], status: Int32,
    _ expected: [String], file: StaticString = #filePath, line: UInt = #line
  ) {
    let before = vaultBytes
    let result = importFile(bytes, as: format, arguments)
    XCTAssertEqual(result.status, status, result.stderrText, file: file, line: line)
    XCTAssertEqual(result.errorLines, expected, file: file, line: line)
    XCTAssertEqual(result.stdout, [], file: file, line: line)
    XCTAssertEqual(vaultBytes, before, "nothing is written", file: file, line: line)
  }

  // MARK: - jsonl

  func testJSONLinesGivesEachEntryItsExactBytes() {
    let source =
      [0xEF, 0xBB, 0xBF]
      + lines(
        #"{"name": "mail/work", "content": "hunter2\nusername: ada\n"}"#,
        "   ",
        #"{"name": "bank", "password": "s3cret", "fields": {"user name": "ada", "url": "https://b.example", "pin": "12\n34"}, "notes": "call first\nthen write"}"#,
        #"{"name": "bin/key", "content_b64": "AP/+gA0KwyjtoIA="}"# + "\r",
        #"{"name": "caf\u00e9", "content": "\u00e9t\u00e9"}"#, "")
    let result = importFile(source)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.errorLines, ["Imported 4 entries and 0 journal entries."])
    XCTAssertEqual(names(), "bank\nbin/key\ncafé\nmail/work\n")
    XCTAssertEqual(get("mail/work"), Array("hunter2\nusername: ada\n".utf8))
    XCTAssertEqual(
      get("bank"),
      Array(
        "s3cret\nuser-name: ada\nurl: https://b.example\npin: |-\n  12\n  34\ncall first\nthen write\n"
          .utf8))
    XCTAssertEqual(get("bank", "--field", "url"), Array("https://b.example".utf8))
    XCTAssertEqual(get("bank", "--field", "pin"), Array("12\n34".utf8), "a block reads back")
    XCTAssertEqual(
      get("bin/key"), [0x00, 0xFF, 0xFE, 0x80, 0x0D, 0x0A, 0xC3, 0x28, 0xED, 0xA0, 0x80],
      "bytes that are not UTF-8 come through content_b64 byte for byte")
    XCTAssertEqual(get("café"), Array("été".utf8))
    let history = box.vault(["history", "bank"], env: session)
    XCTAssertEqual(
      history.stdoutText, "1  2026-01-01T00:00:00Z  85 bytes  import  bank  current\n")
  }

  func testCRLFLinesAndEmptyPasswords() {
    let source = lines(
      #"{"name": "a", "content": "one"}"#,
      #"{"name": "b", "password": "", "fields": {"user": "bo"}}"#,
      #"{"name": "c", "password": "", "notes": "only notes"}"#, ""
    )
    .split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
    .joined(separator: [0x0D, 0x0A]).map { $0 }
    let result = importFile(source)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(
      get("a"), Array("one".utf8), "a CR ending a line is the line's, not the content's")
    XCTAssertEqual(get("b"), Array("\nuser: bo\n".utf8), "an empty password is an empty first line")
    XCTAssertEqual(box.vault(["get", "b", "--field", "password"], env: session).stdout, [])
    XCTAssertEqual(get("b", "--field", "user"), Array("bo".utf8))
    XCTAssertEqual(get("c"), Array("\nonly notes\n".utf8))
    let bare = importFile(lines(#"{"name": "d", "password": ""}"#))
    XCTAssertEqual(bare.status, 0, bare.stderrText)
    XCTAssertEqual(get("d"), [0x0A], "an entry with nothing but an empty password is one newline")
  }

  func testDryRunChecksEverythingAndWritesNothing() {
    importFile(lines(#"{"name": "kept", "content": "old"}"#))
    let before = vaultBytes
    let source = lines(
      #"{"name": "kept", "content": "new"}"#, #"{"name": "fresh", "content": "x"}"#)
    let refused = importFile(source, ["--dry-run"])
    XCTAssertEqual(refused.status, 4)
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: line 1: an entry named 'kept' exists",
        "vault: hint: use --force to replace it",
      ])
    let dry = importFile(source, ["--dry-run", "--force"])
    XCTAssertEqual(dry.status, 0, dry.stderrText)
    XCTAssertEqual(
      dry.errorLines,
      [
        "Would import 2 entries (1 replacing an existing one) and 0 journal entries; nothing was written."
      ])
    XCTAssertEqual(vaultBytes, before, "the vault file's bytes are unchanged")
    XCTAssertEqual(names(), "kept\n")
    XCTAssertEqual(get("kept"), Array("old".utf8))
  }

  func testExistingNamesNeedForceWhichKeepsTheirHistory() {
    importFile(lines(#"{"name": "site", "content": "first"}"#))
    assertRefused(
      lines(#"{"name": "new", "content": "n"}"#, #"{"name": "site", "content": "second"}"#),
      status: 4,
      [
        "vault: error: line 2: an entry named 'site' exists",
        "vault: hint: use --force to replace it",
      ])
    XCTAssertEqual(names(), "site\n", "the new entry before the refused one is not written")
    let forced = box.vault(
      ["import", "--from", "jsonl", "--force", "export"],
      env: session.merging(["VAULT_TEST_WALLCLOCK": "1767312000"]) { $1 })
    XCTAssertEqual(forced.status, 0, forced.stderrText)
    XCTAssertEqual(
      forced.errorLines, ["Imported 2 entries (1 replacing an existing one) and 0 journal entries."]
    )
    XCTAssertEqual(get("site"), Array("second".utf8))
    XCTAssertEqual(
      box.vault(["history", "site"], env: session).stdoutText,
      """
      2  2026-01-02T00:00:00Z  6 bytes  import  site  current
      1  2026-01-01T00:00:00Z  5 bytes  import  site

      """)
    XCTAssertEqual(get("site", "--revision", "1"), Array("first".utf8))
  }

  func testARemovedEntrysNameIsTakenAgainWithoutForce() {
    importFile(lines(#"{"name": "gone", "content": "v1"}"#))
    XCTAssertEqual(box.vault(["rm", "gone"], env: session).status, 0)
    let again = importFile(lines(#"{"name": "gone", "content": "v2"}"#))
    XCTAssertEqual(again.status, 0, again.stderrText)
    XCTAssertEqual(get("gone"), Array("v2".utf8))
  }

  static let renameHint =
    "vault: hint: --rename-duplicates imports each later one as 'NAME (2)', 'NAME (3)', ..."

  func testDuplicateNamesNameBothLines() {
    assertRefused(
      lines(
        #"{"name": "a", "content": "1"}"#, #"{"name": "x", "content": "2"}"#, "",
        #"{"name": "x", "content": "3"}"#),
      status: 5, ["vault: error: line 4: the name 'x' is already given at line 2", Self.renameHint])
    assertRefused(
      lines(#"{"name": "caf\u00e9", "content": "1"}"#, #"{"name": "cafe\u0301", "content": "2"}"#),
      status: 5,
      ["vault: error: line 2: the name 'café' is already given at line 1", Self.renameHint])
  }

  func testEveryFaultNamesItsLineAndWritesNothing() {
    let good = #"{"name": "ok", "content": "fine"}"#
    let cases: [(String, String)] = [
      (#"{"name": "a", "content": "x",}"#, "expected a member name in double quotes, found '}'"),
      (#"["name"]"#, "a line holds one JSON object, not an array"),
      (#"{"content": "x"}"#, "the member 'name' is missing"),
      (#"{"name": 7, "content": "x"}"#, "'name' is a number, not a string"),
      (
        #"{"name": "a", "contents": "x"}"#,
        "unknown member 'contents' (an entry has 'name', 'content', 'content_b64', 'password', 'fields', 'notes')"
      ),
      (
        #"{"name": "a"}"#,
        "give the entry's 'content' (or 'content_b64'), or 'password', 'fields' and 'notes'"
      ),
      (
        #"{"name": "a", "content": "x", "content_b64": "eA=="}"#,
        "give 'content' or 'content_b64', not both"
      ),
      (
        #"{"name": "a", "content": "x", "fields": {}}"#,
        "'content' is the whole entry: give it, or 'password', 'fields' and 'notes'; not both"
      ),
      (#"{"name": "a", "content": ""}"#, "the content is empty"),
      (
        #"{"name": "a", "content_b64": "eA="}"#,
        "'content_b64': the base64 text has a wrong length or padding"
      ),
      (#"{"name": "a", "password": "two\nlines"}"#, "the password holds a line break"),
      (#"{"name": "a", "fields": {"n": 1}}"#, "the field 'n' is a number, not a string"),
      (#"{"name": "a", "fields": []}"#, "'fields' is an object of strings, not an array"),
      (#"{"name": "a//b", "content": "x"}"#, "the name 'a//b' has an empty path segment"),
      (
        #"{"name": "a", "content": "\ud800"}"#,
        #"a string holds a lone surrogate (\uD800), which is no character"#
      ),
    ]
    for (bad, message) in cases {
      assertRefused(
        lines(good, bad, good.replacingOccurrences(of: "ok", with: "ok2")), status: 5,
        [
          "vault: error: line 2: " + message
        ])
    }
    assertRefused(
      Array(good.utf8) + [0x0A] + Array(#"{"name": "a", "content": ""#.utf8) + [
        0xC3, 0x28, 0x22, 0x7D,
      ],
      status: 5, ["vault: error: line 2: a string is not valid UTF-8 (at byte 0xC3)"])
    XCTAssertEqual(names(), "")
  }

  func testStandardInputTheUsageAndTheSourceBound() throws {
    let piped = box.vault(
      ["import", "--from", "jsonl", "-"], stdin: lines(#"{"name": "p", "content": "piped"}"#),
      env: session)
    XCTAssertEqual(piped.status, 0, piped.stderrText)
    XCTAssertEqual(get("p"), Array("piped".utf8))
    let pinOnStdin = box.vault(["import", "--from", "jsonl", "--pin-fd", "0", "-"], stdin: [])
    XCTAssertEqual(pinOnStdin.status, 5)
    XCTAssertEqual(
      pinOnStdin.errorLines,
      [
        "vault: error: --pin-fd 0 is standard input, which carries the source; give the PIN on"
          + " another descriptor, such as --pin-fd 3 3<pin-file"
      ])
    let noFormat = box.vault(["import", "export"], env: session)
    XCTAssertEqual(noFormat.status, 64)
    XCTAssertEqual(
      noFormat.errorLines.first,
      "vault: error: --from FORMAT is needed (\(ImportFormatNames.list))")
    let unknown = box.vault(["import", "--from", "jsonll", "export"], env: session)
    XCTAssertEqual(unknown.status, 64)
    XCTAssertEqual(
      unknown.errorLines.prefix(2),
      [
        "vault: error: invalid value 'jsonll' for --from (\(ImportFormatNames.list))",
        "vault: hint: did you mean 'jsonl'?",
      ])
    let missing = box.vault(["import", "--from", "jsonl", "nowhere"], env: session)
    XCTAssertEqual(missing.status, 1)
    XCTAssertEqual(
      missing.errorLines, ["vault: error: cannot open nowhere: No such file or directory"])
    let folder = box.vault(["import", "--from", "jsonl", "."], env: session)
    XCTAssertEqual(folder.status, 5)
    XCTAssertEqual(folder.errorLines, ["vault: error: . is a folder; this format reads a file"])
    // A sparse file just over the bound is refused by its size, before it is read.
    let big = box.home + "/big.jsonl"
    XCTAssertTrue(FileManager.default.createFile(atPath: big, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
    try handle.truncate(atOffset: UInt64(256 * 1024 * 1024 + 1))
    try handle.close()
    let tooLarge = box.vault(["import", "--from", "jsonl", "big.jsonl"], env: session)
    XCTAssertEqual(tooLarge.status, 5)
    XCTAssertEqual(
      tooLarge.errorLines,
      [
        "vault: error: big.jsonl is larger than 256 MiB, the most vault import reads from a"
          + " plaintext source; split it and import the parts (an export made with --to vault is"
          + " read in pieces, at any size)"
      ])
  }

  func testWithThePINTheKeyIsAskedForOnlyAfterTheSourceIsRead() {
    box.vault(["lock"], env: session)
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: box.home + "/bad", contents: Data(lines(#"{"name": 1}"#))))
    // No PIN is given: a bad source is refused before any prompt.
    let bad = box.vault(["import", "--from", "jsonl", "bad"])
    XCTAssertEqual(bad.status, 5)
    XCTAssertEqual(bad.errorLines, ["vault: error: line 1: 'name' is a number, not a string"])
    XCTAssertTrue(
      FileManager.default.createFile(
        atPath: box.home + "/good", contents: Data(lines(#"{"name": "g", "content": "1"}"#))))
    let good = box.vaultPIN(["import", "--from", "jsonl", "good"])
    XCTAssertEqual(good.status, 0, good.stderrText)
    XCTAssertEqual(good.errorLines, ["Imported 1 entry and 0 journal entries."])
  }
}

extension ImportCLITests {
  static let fixtures = GeneratorTestSupport.packageRoot + "/Tests/Fixtures/import/"

  func fixture(_ name: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.fixtures + name)))) ?? []
  }

  // MARK: - bitwarden-json

  func testTheBitwardenSampleBecomesEntriesWithFieldsAndACode() {
    let result = importFile(fixture("bitwarden-export.json"), as: "bitwarden-json")
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.errorLines, ["Imported 6 entries and 0 journal entries."])
    XCTAssertEqual(
      names(),
      "Deploy key\nFinance/Banking/Bank letters\nFinance/Banking/Visa\nMe\nSocial/Mastodon\n"
        + "Wi-Fi at home\n")
    XCTAssertEqual(get("Social/Mastodon", "--field", "password"), Array("c0rrect-h0rse".utf8))
    XCTAssertEqual(
      get("Social/Mastodon", "--field", "url-2"), Array("https://mastodon.example".utf8))
    XCTAssertEqual(get("Social/Mastodon", "--field", "2FA-enabled"), Array("true".utf8))
    XCTAssertEqual(get("Finance/Banking/Visa", "--field", "number"), Array("4111111111111111".utf8))
    XCTAssertEqual(get("Wi-Fi at home"), [0x0A])
    let code = box.vault(["otp", "Social/Mastodon"], env: session)
    XCTAssertEqual(code.status, 0, code.stderrText)
    XCTAssertEqual(code.stdout.count, 6, "the TOTP became the otp field: \(code.stdoutText)")
  }

  /// Bitwarden's master-password re-prompt comes in as a guard, as a guarded entry exports
  /// with it: a session does not read it, the PIN does.
  func testABitwardenRepromptComesInGuarded() {
    let json =
      #"{"encrypted":false,"folders":[],"items":[{"type":1,"name":"bank","reprompt":1,"login":{"password":"s3cret"}},{"type":1,"name":"web","reprompt":0,"login":{"password":"pw"}}]}"#
    XCTAssertEqual(importFile(Array(json.utf8), as: "bitwarden-json").status, 0)
    XCTAssertEqual(box.vaultPIN(["get", "bank"]).stdoutText, "s3cret\n")
    XCTAssertNotEqual(box.vault(["get", "bank"], env: session).status, 0)
    XCTAssertEqual(get("web"), Array("pw\n".utf8))
  }

  func testABitwardenFaultNamesItsRecordAndWritesNothing() {
    var text = String(decoding: fixture("bitwarden-export.json"), as: UTF8.self)
    text = text.replacingOccurrences(of: #""name": "Visa""#, with: #""name": "Bank letters""#)
    assertRefused(
      Array(text.utf8), as: "bitwarden-json", status: 5,
      [
        "vault: error: record 4: the name 'Finance/Banking/Bank letters' is already given at record 3",
        Self.renameHint,
      ])
    assertRefused(
      Array(#"{"encrypted": false, "items": [{"type": 1, "name": "a"},"#.utf8) + [0x0A]
        + Array("]}".utf8),
      as: "bitwarden-json", status: 5, ["vault: error: line 2: expected a value, found ']'"])
  }

  // MARK: - jrnl-json

  func testTheJrnlSampleGoesIntoTheJournalWithItsDatesAndTags() {
    session["TZ"] = "Europe/Lisbon"
    let result = importFile(fixture("jrnl-export.json"), as: "jrnl-json")
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.errorLines, ["Imported 0 entries and 4 journal entries."])
    let list = box.vault(["journal", "list"], env: session)
    XCTAssertEqual(list.status, 0, list.stderrText)
    XCTAssertEqual(
      // The id is the first word: 8 hex digits, or 9 when 8 would read as a date.
      list.stdoutText.split(separator: "\n").map {
        String($0.drop { $0 != " " }.dropFirst(2))
      },
      [
        "2024-03-01 08:15:00+00:00  Started the @garden.",
        "2024-03-02 21:40:00+00:00  Dinner with @anna and @ben.",
        "2024-03-03 18:30:00+00:00  Long day at work.",
        "2024-03-04 07:05:00+00:00  Starred entry about the @garden.",
      ])
    XCTAssertEqual(
      box.vault(["journal", "tags"], env: session).stdoutText,
      "2  @garden\n1  @anna\n1  @ben\n1  @work\n")
    XCTAssertEqual(
      box.vault(["journal", "show", "2024-03-03"], env: session).stdoutText.split(separator: "\n")
        .dropFirst().joined(separator: "\n"),
      "Long day at work.\nThe build broke twice, fixed by evening.\nNote to self: @work backups"
        + " before Friday. Café tomorrow — naïve résumé 😀")
    let check = box.vaultPIN(["check"])
    XCTAssertEqual(check.status, 0, check.stderrText)
    XCTAssertEqual(check.stdoutText, "ok: header, 0 entries (0 chunks), 4 journal entries\n")
    XCTAssertEqual(check.stderr, [], "no writer sequence number is missing")

    // The same export again adds nothing: each entry's time and text are in the journal. One
    // entry edited since comes in again, beside its edited version.
    let edited = Array(
      #"{"entries": [{"title": "Started the @garden.", "body": "Planted tomatoes and basil.", "date": "2024-03-01", "time": "08:15"}, {"title": "Started the @garden!", "body": "", "date": "2024-03-01", "time": "08:15"}]}"#
        .utf8)
    XCTAssertEqual(
      importFile(fixture("jrnl-export.json"), as: "jrnl-json", ["--dry-run"]).errorLines,
      [
        "Would import 0 entries and 0 journal entries (4 more are in the journal already, with the"
          + " same time and text, and would be left out); nothing was written."
      ])
    XCTAssertEqual(
      importFile(fixture("jrnl-export.json"), as: "jrnl-json").errorLines,
      [
        "Imported 0 entries and 0 journal entries (4 more are in the journal already, with the"
          + " same time and text, and were left out)."
      ])
    XCTAssertEqual(
      importFile(edited, as: "jrnl-json").errorLines,
      [
        "Imported 0 entries and 1 journal entry (1 more is in the journal already, with the same"
          + " time and text, and was left out)."
      ])
    XCTAssertEqual(
      box.vault(["journal", "list"], env: session).stdoutText.split(separator: "\n").count, 5)
    let again = box.vaultPIN(["check"])
    XCTAssertEqual(again.stdoutText, "ok: header, 0 entries (0 chunks), 5 journal entries\n")
    XCTAssertEqual(again.stderr, [], "the journal entries left out took no sequence number")
  }

  func testAJrnlFaultNamesItsRecordAndWritesNothing() {
    assertRefused(
      Array(
        #"{"entries": [{"title": "a", "body": "", "date": "2024-01-01", "time": "09:00"}, {"title": "b", "date": "2024-01-01", "time": "9:00"}]}"#
          .utf8), as: "jrnl-json", status: 5,
      ["vault: error: record 2: the date and time '2024-01-01 9:00' are not YYYY-MM-DD and HH:MM"])
    XCTAssertEqual(box.vault(["journal", "list"], env: session).stdoutText, "")
  }

  // MARK: - the progress line

  func testTheProgressLineIsDrawnOnATerminalAndCleared() throws {
    let source = (0..<2000).map { #"{"name": "n/\#($0)", "content": "c"}"# }.joined(separator: "\n")
    XCTAssertTrue(
      FileManager.default.createFile(atPath: box.home + "/many", contents: Data(source.utf8)))
    let result = Subprocess.run(
      "/usr/bin/env",
      [
        "python3", "-c", TerminalTests.driver, Sandbox.binDirectory + "/vault", "import", "--from",
        "jsonl", box.home + "/many",
      ],
      environment: box.environment.merging(session) { $1 }, stdin: Array("\n".utf8))
    XCTAssertEqual(result.status, 0, result.stderrText)
    let run = try JSONDecoder().decode(TerminalTests.Run.self, from: Data(result.stdout))
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(run.output.contains("\r\u{1B}[2Kimporting "), run.output)
    XCTAssertTrue(run.output.contains("importing 2,000/2,000 (100%)  "), run.output)
    XCTAssertTrue(run.output.contains("/s"), run.output)
    XCTAssertTrue(
      run.output.hasSuffix("\r\u{1B}[2KImported 2000 entries and 0 journal entries.\r\n"),
      "the line is cleared before the report: \(run.output.debugDescription)")
    XCTAssertEqual(names().split(separator: "\n").count, 2000)
  }

  func testTheProgressLineShowsRateAndTimeLeft() {
    XCTAssertEqual(
      ImportProgress.line("importing", done: 25_000, total: 100_000, elapsed: 2.5),
      "importing 25,000/100,000 (25%)  10,000/s  ETA 0:08")
    XCTAssertEqual(
      ImportProgress.line("reading", done: 1_234, total: nil, elapsed: 1), "reading 1,234  1,234/s")
    XCTAssertEqual(ImportProgress.clock(3725), "1:02:05")
    XCTAssertEqual(
      ImportProgress.line("importing", done: 10, total: 100, elapsed: 1.5),
      "importing 10/100 (10%)  7/s", "no time left in the first two seconds of a step")
    XCTAssertEqual(
      ImportProgress.line("importing", done: 25_000, total: 100_000, elapsed: 2.5, width: 20),
      "importing 25,000/100", "cut to a narrow terminal, which would wrap it")
  }

  func testTheExportDrawsItsProgressLineToo() throws {
    let source = (0..<500).map { #"{"name": "n/\#($0)", "content": "c"}"# }.joined(separator: "\n")
    XCTAssertEqual(importFile(Array(source.utf8)).status, 0)
    let result = Subprocess.run(
      "/usr/bin/env",
      [
        "python3", "-c", TerminalTests.driver, Sandbox.binDirectory + "/vault", "export", "--to",
        "jsonl", "--plaintext", "--output", box.home + "/out.jsonl",
      ],
      environment: box.environment.merging(session) { $1 }, stdin: Array("\n".utf8))
    XCTAssertEqual(result.status, 0, result.stderrText)
    let run = try JSONDecoder().decode(TerminalTests.Run.self, from: Data(result.stdout))
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertTrue(run.output.contains("\r\u{1B}[2Kexporting 500/500 (100%)  "), run.output)
    XCTAssertTrue(
      run.output.hasSuffix(
        "\r\u{1B}[2Kexported 500 entries and 0 journal entries to \(box.home)/out.jsonl\r\n"),
      run.output.debugDescription)
  }
}

/// The format names as `--from` lists them.
enum ImportFormatNames {
  static var list: String { ImportFormat.choiceList }
}
