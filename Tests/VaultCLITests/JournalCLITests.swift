import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault journal` through the built binary in Europe/Berlin: writing with no session, no PIN
/// and no sensor; reading only after unlocking; date filters at day boundaries and across both
/// DST changes of 2026, on the injected wall clock.
final class JournalCLITests: XCTestCase {
  var box: Sandbox!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }

  override func setUp() {
    box = Sandbox(extra: ["TZ": "Europe/Berlin"])
  }

  /// Writes `text` as a journal entry at `seconds`, with no PIN and no session.
  @discardableResult
  func write(_ text: String, at seconds: Int, file: StaticString = #filePath, line: UInt = #line)
    -> Subprocess.Result
  {
    let result = box.vault(
      ["journal"], stdin: Array(text.utf8), env: ["VAULT_TEST_WALLCLOCK": "\(seconds)"])
    XCTAssertEqual(result.status, 0, result.stderrText, file: file, line: line)
    return result
  }

  /// `journal list` with the PIN, at `now`.
  func list(_ arguments: [String] = [], now: Int) -> Subprocess.Result {
    box.vaultPIN(["journal", "list"] + arguments, env: ["VAULT_TEST_WALLCLOCK": "\(now)"])
  }

  /// The short IDs in list order.
  func ids(now: Int) -> [String] {
    list(now: now).stdoutText.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
  }

  func testWrittenWithoutPINOrSessionThenReadableOnlyAfterUnlock() {
    box.initBiometric()
    // No session, no --pin-fd, no terminal and no sensor answer queued: writing needs none.
    let text = "Walked to the river at dawn.\nTold no one.\n"
    let written = write(text, at: 1_800_000_000)
    XCTAssertEqual(written.stdout, [])

    let locked = box.vault(["journal", "list"])
    XCTAssertEqual(locked.status, 10)
    XCTAssertEqual(locked.stdout, [])
    XCTAssertEqual(
      locked.errorLines,
      [
        "vault: error: locked: no valid session and no terminal to ask on",
        "vault: hint: unlock first with: vault unlock",
      ])
    XCTAssertEqual(box.vault(["journal", "show", "today"]).status, 10)
    XCTAssertEqual(box.vault(["grep", "river"]).status, 10)

    let session = ["VAULT_SESSION": box.unlock()]
    let listed = box.vault(["journal", "list"], env: session)
    XCTAssertEqual(listed.status, 0, listed.stderrText)
    let id = String(listed.stdoutText.prefix { $0 != " " })
    XCTAssertEqual(
      listed.stdoutText, "\(id)  2027-01-15 09:00:00+01:00  Walked to the river at dawn.\n")
    XCTAssertEqual(
      written.errorLines, ["Wrote journal entry \(id) at 2027-01-15T09:00:00+01:00."])
    let shown = box.vault(["journal", "show", id.uppercased()], env: session)
    XCTAssertEqual(shown.stdoutText, text)
    XCTAssertEqual(shown.stderr, [])
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "", "list shows entries only")
    let json = box.vault(["journal", "list", "--json"], env: session).stdoutText
    let full = json.split(separator: "\"")[7]
    XCTAssertEqual(
      json,
      #"[{"id":"\#(id)","entry_id":"\#(full)","written":"2027-01-15T09:00:00+01:00","#
        + #""first_line":"Walked to the river at dawn.","format_1":false}]"# + "\n")
  }

  func testDayBoundariesAcrossTheSpringChange() {
    box.initPINOnly()
    // 2026-03-29 has 23 hours in Berlin: 02:00 CET is 03:00 CEST.
    let writes = [
      ("a", 1_774_738_799), ("b", 1_774_738_800), ("c", 1_774_745_999), ("d", 1_774_746_000),
      ("e", 1_774_821_599), ("f", 1_774_821_600),
    ]
    for (text, seconds) in writes { write(text + "\n", at: seconds) }
    let now = 1_774_823_400  // 2026-03-30 00:30 CEST; 24 hours earlier was still 03-28
    let all = ids(now: now)
    XCTAssertEqual(all.count, 6)
    let id = Dictionary(uniqueKeysWithValues: zip(["a", "b", "c", "d", "e", "f"], all))
    func row(_ key: String, _ stamp: String) -> String { "\(id[key] ?? "")  \(stamp)  \(key)\n" }
    let march29 =
      row("b", "2026-03-29 00:00:00+01:00") + row("c", "2026-03-29 01:59:59+01:00")
      + row("d", "2026-03-29 03:00:00+02:00") + row("e", "2026-03-29 23:59:59+02:00")
    XCTAssertEqual(
      list(now: now).stdoutText,
      row("a", "2026-03-28 23:59:59+01:00") + march29 + row("f", "2026-03-30 00:00:00+02:00"))
    for day in ["2026-03-29", "yesterday", "1d"] {
      XCTAssertEqual(list(["--since", day, "--until", day], now: now).stdoutText, march29, day)
    }
    XCTAssertEqual(
      list(["--since", "today"], now: now).stdoutText, row("f", "2026-03-30 00:00:00+02:00"))
    XCTAssertEqual(
      list(["--until", "2d"], now: now).stdoutText, row("a", "2026-03-28 23:59:59+01:00"))
    XCTAssertEqual(
      list(["-n", "2"], now: now).stdoutText,
      row("e", "2026-03-29 23:59:59+02:00") + row("f", "2026-03-30 00:00:00+02:00"))
    let shown = box.vaultPIN(
      ["journal", "show", "yesterday"], env: ["VAULT_TEST_WALLCLOCK": "\(now)"])
    XCTAssertEqual(
      shown.stdoutText,
      "--- \(id["b"] ?? "") 2026-03-29T00:00:00+01:00\nb\n--- \(id["c"] ?? "") 2026-03-29T01:59:59+01:00\nc\n"
        + "--- \(id["d"] ?? "") 2026-03-29T03:00:00+02:00\nd\n--- \(id["e"] ?? "") 2026-03-29T23:59:59+02:00\ne\n"
    )
  }

  func testTheRepeatedHourOfTheAutumnChange() {
    box.initPINOnly()
    // 2026-10-25 has 25 hours in Berlin; 02:30 happens twice. The later one is written first.
    write("late\n", at: 1_792_891_800)  // 02:30 CET
    write("early\n", at: 1_792_888_200)  // 02:30 CEST, an hour before
    write("eve\n", at: 1_792_879_199)  // 2026-10-24 23:59:59 CEST
    write("night\n", at: 1_792_967_400)  // 2026-10-25 23:30 CET
    let now = 1_792_967_460  // 23:31 CET; 24 hours earlier was still 10-25
    let text = list(now: now).stdoutText
    let id = text.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
    XCTAssertEqual(id.count, 4)
    XCTAssertEqual(
      text,
      "\(id[0])  2026-10-24 23:59:59+02:00  eve\n\(id[1])  2026-10-25 02:30:00+02:00  early\n"
        + "\(id[2])  2026-10-25 02:30:00+01:00  late\n\(id[3])  2026-10-25 23:30:00+01:00  night\n")
    XCTAssertEqual(
      list(["--since", "yesterday", "--until", "yesterday"], now: now).stdoutText,
      "\(id[0])  2026-10-24 23:59:59+02:00  eve\n")
    XCTAssertEqual(
      list(["--since", "today"], now: now).stdoutText,
      "\(id[1])  2026-10-25 02:30:00+02:00  early\n\(id[2])  2026-10-25 02:30:00+01:00  late\n"
        + "\(id[3])  2026-10-25 23:30:00+01:00  night\n")
    let none = box.vaultPIN(["journal", "show", "2d"], env: ["VAULT_TEST_WALLCLOCK": "\(now)"])
    XCTAssertEqual(none.status, 3)
    XCTAssertEqual(
      none.errorLines,
      ["vault: error: no journal entry on 2026-10-23", "vault: hint: see 'vault journal list'"])
  }

  func testInvalidDatesAndIDsAreRefusedBeforeAnyPrompt() {
    box.initPINOnly()
    let forms = "YYYY-MM-DD, today, yesterday or Nd (N days ago)"
    let bound = "N is at most 100000"
    for (arguments, message) in [
      (["show", "9999999d"], "invalid date '9999999d' (use \(forms); \(bound))"),
      (["show", "2026-02-30"], "invalid date '2026-02-30' (use \(forms); \(bound))"),
      (
        ["edit", "today"],
        "'today' is not a journal entry ID (1 to 32 hex digits; see 'vault journal list')"
      ),
      (["show", "last-week"], "'last-week' is neither a journal entry ID nor a date (\(forms))"),
    ] {
      let result = box.vault(["journal"] + arguments)
      XCTAssertEqual(result.status, 5, arguments.joined(separator: " "))
      XCTAssertEqual(result.errorLines, ["vault: error: \(message)"])
    }
    // A bad option value is a usage error.
    let usage =
      "Usage: vault journal list [--since DATE] [--until DATE] [--count N] [--tag TAG]"
      + " [--json]"
    for (arguments, message) in [
      (["list", "--since", "2026-02-30"], "invalid date '2026-02-30' (use \(forms); \(bound))"),
      (["list", "--until", "tomorrow"], "invalid date 'tomorrow' (use \(forms); \(bound))"),
      (["list", "-n", "0"], "--count needs a whole number of at least 1, not '0'"),
    ] {
      let result = box.vault(["journal"] + arguments)
      XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
      XCTAssertEqual(result.errorLines, ["vault: error: \(message)", usage])
    }
    let empty = box.vault(["journal"], stdin: [])
    XCTAssertEqual(empty.status, 5)
    XCTAssertEqual(empty.errorLines, ["vault: error: standard input is empty; nothing was written"])
    let unknown = box.vault(["journal", "lsit"])
    XCTAssertEqual(unknown.status, 64)
    XCTAssertEqual(
      unknown.errorLines.prefix(3),
      [
        "vault: error: unknown command 'lsit'", "vault: hint: did you mean 'list'?",
        "Usage: vault journal [<command>] [--allow-disk-temp]",
      ])
  }

  func testARowCopiedOntoAnotherRowExits17() {
    box.initPINOnly()
    write("mine\n", at: 1_800_000_000)
    box.tamper {
      let box = try $0.blob("select box from pending")
      try $0.execute(
        "insert into pending values (?, ?)", [.blob(Array(repeating: 1, count: 16)), .blob(box)])
    }
    // Listed, never mixed in: the copy is marked, the entry shown once, and check refuses it.
    let result = list(now: 1_800_000_000)
    XCTAssertEqual(result.status, 0, result.stderrText)
    let lines = result.stdoutText.split(separator: "\n")
    XCTAssertEqual(lines.count, 2, result.stdoutText)
    XCTAssertTrue(lines.first?.hasSuffix("  2027-01-15 09:00:00+01:00  mine") ?? false)
    XCTAssertEqual(
      lines.last, "01010101  (not verified: a journal entry was copied from another entry)")
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: warning: 1 pending journal entry is not verified: listed without its text;"
          + " 'vault check' refuses it"
      ])
    let check = box.vault(["check"], pin: [Sandbox.pin])
    XCTAssertEqual(check.status, 17)
    XCTAssertEqual(
      check.errorLines,
      [
        "vault: error: integrity failure: pending journal entry 01010101 is refused: a journal"
          + " entry was copied from another entry"
      ])
  }

  func testAJournalKeySwappedIntoTheFileIsRefused() {
    box.initPINOnly()
    box.editHeader {
      $0["journal_public_key"] = Data((0..<32).map { UInt8($0) }).base64EncodedString()
    }
    let result = box.vault(["journal"], stdin: Array("to the attacker?\n".utf8))
    XCTAssertEqual(result.status, 17)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: integrity failure: the vault's journal key differs from the one this"
          + " device last authenticated; nothing was written"
      ])
    let count = box.tamper {
      try $0.integer("select (select count(*) from pending) + (select count(*) from records)")
    }
    XCTAssertEqual(count, 0)
  }

  func testOnATerminalTheEditorWritesAndAnEmptyBufferWritesNothing() throws {
    box.initPINOnly()
    let bin = box.home + "/bin"
    mkdir(bin, 0o700)
    let writer = bin + "/write.sh"
    let quitter = bin + "/quit.sh"
    try "#!/bin/sh\nprintf 'Written in the editor\\n' > \"$1\"\n".write(
      toFile: writer, atomically: true, encoding: .utf8)
    try "#!/bin/sh\nexit 0\n".write(toFile: quitter, atomically: true, encoding: .utf8)
    chmod(writer, 0o700)
    chmod(quitter, 0o700)
    func drive(_ editor: String) throws -> String {
      var env = box.environment
      env["EDITOR"] = editor
      let result = Subprocess.run(
        "/usr/bin/env",
        ["python3", "-c", TerminalTests.driver, Sandbox.binDirectory + "/vault", "journal"],
        environment: env, stdin: Array("expect .\n".utf8), directory: box.home)
      XCTAssertEqual(result.status, 0, result.stderrText)
      let run = try JSONDecoder().decode(TerminalTests.Run.self, from: Data(result.stdout))
      XCTAssertEqual(run.status, 0, run.output)
      return run.output
    }
    XCTAssertEqual(try drive(quitter), "The entry is empty; nothing was written.\r\n")
    XCTAssertEqual(list(now: 1_800_000_000).stdoutText, "")
    XCTAssertTrue(try drive(writer).hasPrefix("Wrote journal entry "))
    let listed = list(now: 1_800_000_000).stdoutText
    XCTAssertTrue(listed.hasSuffix("  Written in the editor\n"), listed)
  }
}
