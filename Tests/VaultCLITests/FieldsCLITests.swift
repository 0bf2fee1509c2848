import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `vault get --field/--line/--fields/--json`, `vault set` and `vault unset` through the built
/// binary, on the fields convention (`vault(1)` FIELDS).
final class FieldsCLITests: XCTestCase {
  var box: Sandbox!
  // XCTest keeps every test case alive until the run ends: release the folder (and its agent).
  override func tearDown() { box = nil }
  var session: [String: String] = [:]
  let usage =
    "Usage: vault get [--field KEY] [--line N] [--fields] [--json] [--revision R] [--clip]"
    + " [--clip-time SECONDS] [--all] NAME"

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
  }

  @discardableResult
  func add(_ name: String, _ content: [UInt8]) -> Subprocess.Result {
    let result = box.vault(["add", name], stdin: content, env: session)
    XCTAssertEqual(result.status, 0, result.stderrText)
    return result
  }

  func get(_ arguments: [String]) -> Subprocess.Result {
    box.vault(["get"] + arguments, env: session)
  }

  func testFieldsLinesAndKeysAreExactBytes() {
    add(
      "site",
      Array(
        "hunter2\nusername: alice\nurl: https://example.com:8443/a?b=c:d\n\nFirst note.\n"
          .utf8))
    XCTAssertEqual(get(["site", "--field", "username"]).stdoutText, "alice")
    XCTAssertEqual(
      get(["site", "--field", "url"]).stdoutText, "https://example.com:8443/a?b=c:d",
      "a value keeps every ':' after the first")
    XCTAssertEqual(get(["site", "--field", "password"]).stdoutText, "hunter2")
    XCTAssertEqual(get(["site", "--field", "URL"]).stdoutText, "https://example.com:8443/a?b=c:d")
    XCTAssertEqual(get(["site", "--line", "1"]).stdoutText, "hunter2")
    XCTAssertEqual(get(["site", "--line", "5"]).stdoutText, "First note.")
    XCTAssertEqual(get(["site", "--line", "4"]).stdout, [])
    XCTAssertEqual(get(["site", "--fields"]).stdoutText, "password\nusername\nurl\n")
    XCTAssertEqual(
      get(["site", "--json"]).stdoutText,
      #"{"password":"hunter2","fields":{"username":"alice","url":"https://example.com:8443/a?b=c:d"},"notes":"First note."}"#
        + "\n")
    XCTAssertEqual(
      get(["site"]).stdoutText,
      "hunter2\nusername: alice\nurl: https://example.com:8443/a?b=c:d\n\nFirst note.\n",
      "without a selection, get stays byte-exact")

    let missing = get(["site", "--field", "email"])
    XCTAssertEqual(missing.status, 3)
    XCTAssertEqual(missing.stdout, [])
    XCTAssertEqual(
      missing.errorLines,
      [
        "vault: error: 'site' has no field 'email'",
        "vault: hint: its fields: password, username, url",
      ])
    let noLine = get(["site", "--line", "6"])
    XCTAssertEqual(noLine.status, 3)
    XCTAssertEqual(
      noLine.errorLines, ["vault: error: 'site' has no line 6", "vault: hint: it has 5 lines"])
  }

  func testCRLFEntriesAndEmptyNotes() {
    add("win", Array("p@ss\r\nuser: bob\r\nnote: a: b\r\n".utf8))
    XCTAssertEqual(get(["win", "--field", "password"]).stdoutText, "p@ss")
    XCTAssertEqual(get(["win", "--field", "user"]).stdoutText, "bob")
    XCTAssertEqual(get(["win", "--field", "note"]).stdoutText, "a: b")
    XCTAssertEqual(get(["win", "--line", "2"]).stdoutText, "user: bob")
    XCTAssertEqual(
      get(["win", "--json"]).stdoutText,
      #"{"password":"p@ss","fields":{"user":"bob","note":"a: b"},"notes":""}"# + "\n")
    XCTAssertEqual(
      box.vault(["set", "win", "url"], stdin: Array("https://x\r\n".utf8), env: session).status, 0)
    XCTAssertEqual(
      get(["win"]).stdoutText, "p@ss\r\nuser: bob\r\nnote: a: b\r\nurl: https://x\r\n",
      "a new line ends as the entry's lines do")

    add("one", Array("only-a-password".utf8))
    XCTAssertEqual(
      get(["one", "--json"]).stdoutText,
      #"{"password":"only-a-password","fields":{},"notes":""}"# + "\n")
    XCTAssertEqual(get(["one", "--fields"]).stdoutText, "password\n")
  }

  func testContentsThatAreNotTextHaveNoFields() {
    let message = [
      "vault: error: the content is not UTF-8 text (invalid UTF-8 or a NUL byte), so it has no"
        + " lines or fields", "vault: hint: read it whole with 'vault get'",
    ]
    for (name, bytes) in [("latin1", [0x70, 0xE9, 0x0A, 0x75]), ("nul", [0x70, 0x00, 0x71])]
      as [(String, [UInt8])]
    {
      add(name, bytes)
      for arguments in [["--field", "password"], ["--line", "1"], ["--fields"], ["--json"]] {
        let result = get([name] + arguments)
        XCTAssertEqual(result.status, 5, "\(name) \(arguments)")
        XCTAssertEqual(result.errorLines, message)
        XCTAssertEqual(result.stdout, [])
      }
      let set = box.vault(["set", name, "user"], stdin: Array("x".utf8), env: session)
      XCTAssertEqual(set.status, 5)
      XCTAssertEqual(set.errorLines, message)
      XCTAssertEqual(get([name]).stdout, bytes, "nothing stored is changed")
    }
  }

  func testSetAndUnsetKeepEveryOtherByte() {
    add("site", Array("old-pw\nUser:  alice\nnotes: x\ntrailing words\n".utf8))
    func set(_ key: String, _ value: String) -> Subprocess.Result {
      box.vault(["set", "site", key], stdin: Array(value.utf8), env: session)
    }
    let replaced = set("user", "bob\n")
    XCTAssertEqual(replaced.status, 0, replaced.stderrText)
    XCTAssertEqual(replaced.errorLines, ["Set field 'user' of 'site'."])
    XCTAssertEqual(
      get(["site"]).stdoutText, "old-pw\nUser:  bob\nnotes: x\ntrailing words\n",
      "the key keeps its spelling and spacing; one final newline of the input is dropped")
    XCTAssertEqual(set("url", "https://a.example:1/x").status, 0)
    XCTAssertEqual(set("password", "new-pw").status, 0)
    XCTAssertEqual(
      get(["site"]).stdoutText,
      "new-pw\nUser:  bob\nnotes: x\nurl: https://a.example:1/x\ntrailing words\n")
    let removed = box.vault(["unset", "site", "notes"], env: session)
    XCTAssertEqual(removed.status, 0, removed.stderrText)
    XCTAssertEqual(removed.errorLines, ["Removed field 'notes' of 'site'."])
    XCTAssertEqual(
      get(["site"]).stdoutText, "new-pw\nUser:  bob\nurl: https://a.example:1/x\ntrailing words\n")
    XCTAssertEqual(
      box.vault(["history", "site"], env: session).stdoutText.split(separator: "\n").map {
        $0.split(separator: " ", omittingEmptySubsequences: true)[4]
      }, ["unset", "set", "set", "set", "add"], "each change is one revision")

    for (key, value, status, line) in [
      (
        "user", "two\nlines", Int32(5),
        "vault: error: a field's value is one line of UTF-8 text: no line break, NUL byte or"
          + " invalid UTF-8"
      ),
      (
        "user", "\n", 5,
        "vault: error: the value is empty; nothing was stored (remove a field with 'vault"
          + " unset')"
      ),
      (
        "user", "", 5,
        "vault: error: standard input is empty; nothing was stored (remove a field with 'vault"
          + " unset')"
      ),
      (
        "user", "  padded", 5,
        "vault: error: a field's value cannot start with a space or a tab: the convention reads"
          + " past them"
      ),
      // From the attack review: `user: |` made indented notes after it the field's value.
      (
        "user", "|", 5,
        "vault: error: a field's value cannot be '|' or '|-' alone: the convention reads that as"
          + " the start of a block of indented lines; write the field with 'vault edit'"
      ),
      (
        "note", "|-\n", 5,
        "vault: error: a field's value cannot be '|' or '|-' alone: the convention reads that as"
          + " the start of a block of indented lines; write the field with 'vault edit'"
      ),
    ] {
      let result = set(key, value)
      XCTAssertEqual(result.status, status, value)
      XCTAssertEqual(result.errorLines, [line])
    }
    let badKey = box.vault(["set", "site", "two words"], stdin: [0x61], env: session)
    XCTAssertEqual(badKey.status, 64)
    XCTAssertEqual(
      badKey.errorLines.first,
      "vault: error: invalid value for KEY: a field key has 1 to 64 bytes, no spaces, control"
        + " characters or ':'")
    let unsetMissing = box.vault(["unset", "site", "email"], env: session)
    XCTAssertEqual(unsetMissing.status, 3)
    XCTAssertEqual(
      unsetMissing.errorLines,
      ["vault: error: 'site' has no field 'email'", "vault: hint: its fields: password, User, url"])
    let unsetPassword = box.vault(["unset", "site", "password"], env: session)
    XCTAssertEqual(unsetPassword.status, 5)
    XCTAssertEqual(
      unsetPassword.errorLines,
      [
        "vault: error: the password is the first line and cannot be removed; replace it with"
          + " 'vault set NAME password'"
      ])
    let noEntry = box.vault(["set", "nothing", "user"], stdin: [0x61], env: session)
    XCTAssertEqual(noEntry.status, 3)
    XCTAssertEqual(
      get(["site"]).stdoutText, "new-pw\nUser:  bob\nurl: https://a.example:1/x\ntrailing words\n",
      "refused changes leave the entry as it was")
  }

  func testSettingTheSameValueWritesNothingAndAnEmptyFieldGetsItsSpace() {
    add("e", Array("pw\nuser:\nuser: old\n".utf8))
    let set = box.vault(["set", "e", "user"], stdin: Array("ada".utf8), env: session)
    XCTAssertEqual(set.errorLines, ["Set field 'user' of 'e'."])
    XCTAssertEqual(get(["e"]).stdoutText, "pw\nuser: ada\nuser: old\n")
    XCTAssertEqual(get(["e", "--field", "user"]).stdoutText, "ada")
    let again = box.vault(["set", "e", "user"], stdin: Array("ada\n".utf8), env: session)
    XCTAssertEqual(again.status, 0)
    XCTAssertEqual(
      again.errorLines,
      ["Unchanged: field 'user' of 'e' already has that value; nothing was written."])
    XCTAssertEqual(
      box.vault(["history", "e"], env: session).stdoutText.split(separator: "\n").count, 2)
  }

  func testSelectionsCannotBeCombined() {
    add("site", Array("pw\nuser: a\n".utf8))
    for (arguments, message) in [
      (["--field", "user", "--line", "1"], "--field and --line cannot be combined"),
      (["--fields", "--json"], "--fields and --json cannot be combined"),
      (["--all"], "--all needs --clip (without it the whole entry is printed)"),
      (
        ["--field", "a b"],
        "invalid value for --field: a field key has 1 to 64 bytes, no spaces, control characters"
          + " or ':'"
      ),
      (["--line", "0"], "--line needs a whole number of at least 1, not '0'"),
    ] {
      let result = get(["site"] + arguments)
      XCTAssertEqual(result.status, 64, "\(arguments)")
      XCTAssertEqual(result.errorLines, ["vault: error: \(message)", usage])
    }
  }
}

extension TerminalTests {
  /// On a terminal a newline follows a value that lacks one; a value that has one gets none.
  func testATerminalGetsANewlineAfterTheValue() throws {
    let box = Sandbox()
    box.environment.merge(box.pinOnlySession()) { $1 }
    for (name, content) in [("pw", "hunter2"), ("lines", "a\nuser: b\n")] {
      XCTAssertEqual(box.vault(["add", name], stdin: Array(content.utf8)).status, 0)
    }
    XCTAssertEqual(try drive(box, ["get", "pw"], script: []).output, "hunter2\r\n")
    XCTAssertEqual(try drive(box, ["get", "lines"], script: []).output, "a\r\nuser: b\r\n")
    XCTAssertEqual(try drive(box, ["get", "lines", "--field", "user"], script: []).output, "b\r\n")
    XCTAssertEqual(box.vault(["get", "pw"]).stdoutText, "hunter2", "a pipe gets exactly the bytes")
  }
}

extension TerminalTests {
  /// On a terminal a name cannot disguise itself with a bidirectional override, a zero-width
  /// space or a line separator; a pipe still gets the name exactly as stored.
  func testNamesAreShownSafelyOnATerminalAndExactlyToAPipe() throws {
    let box = Sandbox()
    box.environment.merge(box.pinOnlySession()) { $1 }
    let name = "bank/\u{202E}gpj.exe\u{200B}\u{2028}x\u{3164}y"
    XCTAssertEqual(box.vault(["add", name], stdin: Array("pw".utf8)).status, 0)
    XCTAssertEqual(try drive(box, ["list"], script: []).output, "bank/?gpj.exe??x?y\r\n")
    XCTAssertEqual(try drive(box, ["find", "gpj"], script: []).output, "bank/?gpj.exe??x?y\r\n")
    XCTAssertEqual(box.vault(["list"]).stdoutText, name + "\n")
    XCTAssertTrue(
      box.vault(["list", "--json"]).stdoutText.hasPrefix(
        #"[{"name":"bank/\u202egpj.exe\u200b\u2028x\u3164y","#),
      "JSON escapes them: the same string to a reader, nothing hidden on a terminal")
    XCTAssertEqual(box.vault(["add", "e\u{200D}mo\u{FE0F}"], stdin: [0x61]).status, 0)
    XCTAssertEqual(
      try drive(box, ["list", "e"], script: []).output, "e\u{200D}mo\u{FE0F}\r\n",
      "the joiner and variation selectors of emoji are shown")
    // In JSON they are escaped, as are private-use and noncharacter code points: a name that
    // looks like another on a terminal (`e` + ZWJ + `mo`) cannot in JSON.
    XCTAssertEqual(box.vault(["add", "p/\u{E000}\u{FFFE}\u{FFFD}"], stdin: [0x61]).status, 0)
    XCTAssertEqual(
      box.vault(["list", "--json", "e"]).stdoutText.split(separator: ",").first,
      #"[{"name":"e\u200dmo\ufe0f""#)
    XCTAssertEqual(
      box.vault(["list", "--json", "p/"]).stdoutText.split(separator: ",").first,
      #"[{"name":"p/\ue000\ufffe\ufffd""#)
    XCTAssertEqual(
      box.vault(["get", "bank/x"]).errorLines.first, "vault: error: no entry named 'bank/x'")
  }
}

extension TerminalTests {
  /// `vault grep` on a terminal: stored text never reaches it as escapes or bidi controls.
  func testGrepShowsStoredTextSafelyOnATerminal() throws {
    let box = Sandbox()
    box.environment.merge(box.pinOnlySession()) { $1 }
    XCTAssertEqual(
      box.vault(["add", "c/\u{202E}x"], stdin: Array("pw\nnote \u{1B}]0;T\u{07} red\n".utf8))
        .status, 0)
    XCTAssertEqual(
      try drive(box, ["grep", "note"], script: []).output, "c/?x:2:note ?]0;T? red\r\n")
    XCTAssertEqual(
      box.vault(["grep", "note"]).stdoutText, "c/\u{202E}x:2:note \u{1B}]0;T\u{07} red\n",
      "a pipe gets the line as stored")
  }
}
