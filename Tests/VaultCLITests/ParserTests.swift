import VaultCore
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// `Parser.parse` in-process on both command tables, one table row per command line, in the
/// manner of swift-argument-parser's `ErrorMessageTests`: the `Invocation` it makes, or the exact
/// `UsageError` (message, hint and the command whose usage line is shown).
///
/// Rows use free-text values; the typed values' checks are in `TypedValueParserTests` below.
final class ParserTests: XCTestCase {
  /// What a command line parses to: the fields of `Invocation`.
  struct Parsed {
    var path: [String]
    var flags: Set<String> = []
    var values: [String: [String]] = [:]
    var arguments: [String] = []
  }

  /// What a refused command line throws: the fields of `UsageError`.
  struct Refused: Error {
    var message: String
    var hint: String?
    var path: [String]
  }

  /// One command line and what the parser makes of it; `line` locates a failure.
  struct Row {
    var arguments: [String]
    var expected: Result<Parsed, Refused>
    var line: UInt
  }

  /// A row for a command line that parses.
  func parses(
    _ arguments: [String], path: [String], flags: Set<String> = [],
    values: [String: [String]] = [:], arguments positional: [String] = [], line: UInt = #line
  ) -> Row {
    let parsed = Parsed(path: path, flags: flags, values: values, arguments: positional)
    return Row(arguments: arguments, expected: .success(parsed), line: line)
  }

  /// A row for a command line the parser refuses (`path`: the command whose usage is shown).
  func fails(
    _ arguments: [String], _ message: String, hint: String? = nil, path: [String] = [],
    line: UInt = #line
  ) -> Row {
    let refused = Refused(message: message, hint: hint, path: path)
    return Row(arguments: arguments, expected: .failure(refused), line: line)
  }

  /// Parses every row with `program` and compares each field, naming the command line.
  func check(_ rows: [Row], _ program: ProgramSpec) {
    for row in rows {
      let shown = ([program.root.name] + row.arguments).joined(separator: " ")
      do {
        let invocation = try Parser.parse(row.arguments, program: program)
        guard case .success(let expected) = row.expected else {
          XCTFail("\(shown): parsed as \(invocation), expected \(row.expected)", line: row.line)
          continue
        }
        XCTAssertEqual(invocation.path, expected.path, "path of: \(shown)", line: row.line)
        XCTAssertEqual(invocation.flags, expected.flags, "flags of: \(shown)", line: row.line)
        XCTAssertEqual(invocation.values, expected.values, "values of: \(shown)", line: row.line)
        XCTAssertEqual(
          invocation.arguments, expected.arguments, "arguments of: \(shown)", line: row.line)
        for (long, given) in expected.values {
          XCTAssertEqual(
            invocation.value(long), given.last, "--\(long) of: \(shown)", line: row.line)
        }
      } catch let error as UsageError {
        guard case .failure(let expected) = row.expected else {
          XCTFail("\(shown): \(error), expected \(row.expected)", line: row.line)
          continue
        }
        XCTAssertEqual(error.message, expected.message, "message of: \(shown)", line: row.line)
        XCTAssertEqual(error.hint, expected.hint, "hint of: \(shown)", line: row.line)
        XCTAssertEqual(error.path, expected.path, "usage path of: \(shown)", line: row.line)
      } catch {
        XCTFail("\(shown): \(error)", line: row.line)
      }
    }
  }

  func testVaultCommandLines() {
    check(
      [
        parses(["list", "--vault", "/v.db"], path: ["list"], values: ["vault": ["/v.db"]]),
        parses(["list", "--vault=/v.db"], path: ["list"], values: ["vault": ["/v.db"]]),
        // A path option's value is checked: an empty one is a usage error.
        fails(["list", "--vault="], "--vault needs a path, not an empty string", path: ["list"]),
        parses(["--vault", "/v.db", "list"], path: ["list"], values: ["vault": ["/v.db"]]),
        // An option's name is never taken as the value before it (`--label --help` must not
        // run a command); such a value is given with '='.
        fails(
          ["list", "--vault", "--json"], "option '--vault' needs a value PATH",
          hint: "a value that starts with '-' is given as --vault=--json", path: ["list"]),
        parses(["list", "--vault=--json"], path: ["list"], values: ["vault": ["--json"]]),
        parses(
          ["journal", "list", "-n", "3"], path: ["journal", "list"], values: ["count": ["3"]]),
        parses(["journal", "list", "-n3"], path: ["journal", "list"], values: ["count": ["3"]]),
        parses(
          ["add", "-fm", "x"], path: ["add"], flags: ["force", "multiline"], arguments: ["x"]),
        parses(
          ["grep", "-iF", "needle"], path: ["grep"], flags: ["ignore-case", "fixed-strings"],
          arguments: ["needle"]),
        parses(["add", "--", "-x"], path: ["add"], arguments: ["-x"]),
        parses(["get", "--", "--force"], path: ["get"], arguments: ["--force"]),
        parses(["add", "x", "--force"], path: ["add"], flags: ["force"], arguments: ["x"]),
        parses(["mv", "a", "-f", "b"], path: ["mv"], flags: ["force"], arguments: ["a", "b"]),
        parses(
          ["list", "--vault", "a", "--vault=b"], path: ["list"], values: ["vault": ["a", "b"]]),
        parses(["add", "-f", "--force", "x"], path: ["add"], flags: ["force"], arguments: ["x"]),
        parses(["ls"], path: ["list"]),
        parses(["remove", "x"], path: ["rm"], arguments: ["x"]),
        parses(["delete", "x"], path: ["rm"], arguments: ["x"]),
        parses(["show", "x"], path: ["get"], arguments: ["x"]),
        parses(["insert", "x"], path: ["add"], arguments: ["x"]),
        parses(["version"], path: ["version"]),
        parses(["find", "a", "b"], path: ["find"], arguments: ["a", "b"]),
        parses(
          ["journal", "list", "--tag", "a", "--tag=@b"], path: ["journal", "list"],
          values: ["tag": ["a", "@b"]]),
        parses(["bio", "status", "--json"], path: ["biometry", "status"], flags: ["json"]),
        parses(["journal"], path: ["journal"]),
        parses(["get", "--help"], path: ["get"], flags: ["help"]),
        parses(["biometry", "-h"], path: ["biometry"], flags: ["help"]),
        parses(["--version"], path: [], flags: ["version"]),
        parses(
          ["help", "biometry", "activate"], path: ["help"], arguments: ["biometry", "activate"]),
      ], VaultCommands.program)
  }

  func testVaultUsageErrors() {
    check(
      [
        fails(
          ["add", "--forse", "x"], "unknown option '--forse'", hint: "did you mean '--force'?",
          path: ["add"]),
        fails(["--force", "add", "x"], "unknown option '--force'"),
        fails(
          ["add", "-x", "name"], "unknown option '-x'",
          hint:
            "an argument that starts with '-' goes after '--' (vault never repeats it: it may be"
            + " a secret)", path: ["add"]),
        fails(
          ["add", "-fx", "name"], "unknown option '-x'",
          hint:
            "an argument that starts with '-' goes after '--' (vault never repeats it: it may be"
            + " a secret)", path: ["add"]),
        fails(["status", "-x"], "unknown option '-x'", path: ["status"]),
        fails(["lsit"], "unknown command 'lsit'", hint: "did you mean 'list'?"),
        fails(
          ["biometry", "activat"], "unknown command 'activat'", hint: "did you mean 'activate'?",
          path: ["biometry"]),
        fails(["frobnicate"], "unknown command 'frobnicate'"),
        fails(
          ["git", "push"], "vault has no 'git' command",
          hint: "vault keeps one encrypted file and has no git store; it syncs between devices"
            + " through a git remote with: vault sync init REMOTE, then vault sync"),
        parses(["get", "git"], path: ["get"], arguments: ["git"]),
        fails(["journal", "frob"], "unknown command 'frob'", path: ["journal"]),
        fails(["get"], "missing argument NAME", path: ["get"]),
        fails(["mv", "a"], "missing argument NEW", path: ["mv"]),
        fails(
          ["get", "a", "b"], "one argument too many after NAME (not shown: it may be a secret)",
          path: ["get"]),
        fails(
          ["status", "extra", "words"],
          "2 arguments too many ('status' takes none) (not shown: it may be a secret)",
          path: ["status"]),
        fails([], "missing command"),
        fails(["biometry"], "missing command", path: ["biometry"]),
        fails(["--", "list"], "missing command"),
        fails(["add", "--force=1", "x"], "option '--force' takes no value", path: ["add"]),
        fails(["list", "--json=yes"], "option '--json' takes no value", path: ["list"]),
        fails(["list", "--vault"], "option '--vault' needs a value PATH", path: ["list"]),
        fails(
          ["journal", "list", "-n"], "option '-n' needs a value N", path: ["journal", "list"]),
      ], VaultCommands.program)
  }

  func testBiosimCommandLines() {
    check(
      [
        parses(
          ["enroll", "--label", "left thumb"], path: ["enroll"], values: ["label": ["left thumb"]]),
        parses(
          ["enroll", "--label=left-thumb"], path: ["enroll"], values: ["label": ["left-thumb"]]),
        parses(["unenroll", "--all"], path: ["unenroll"], flags: ["all"]),
        parses(["next", "match"], path: ["next"], arguments: ["match"]),
        parses(["status", "--json"], path: ["status"], flags: ["json"]),
        parses(["--help"], path: [], flags: ["help"]),
      ], BiosimCommands.program)
  }

  func testBiosimUsageErrors() {
    check(
      [
        fails([], "missing command"),
        fails(["enrol"], "unknown command 'enrol'", hint: "did you mean 'enroll'?"),
        fails(
          ["status", "--jsn"], "unknown option '--jsn'", hint: "did you mean '--json'?",
          path: ["status"]),
        fails(["reset", "-f"], "unknown option '-f'", path: ["reset"]),
        fails(
          ["next", "match", "again"],
          "one argument too many after OUTCOME (not shown: it may be a secret)", path: ["next"]),
        fails(["unenroll", "--all=yes"], "option '--all' takes no value", path: ["unenroll"]),
        fails(["enroll", "--label"], "option '--label' needs a value LABEL", path: ["enroll"]),
        fails(["--vault", "x", "status"], "unknown option '--vault'"),
      ], BiosimCommands.program)
  }
}

/// Typed values in-process: each kind's check, its message and hint, and the typed read.
final class TypedValueParserTests: XCTestCase {
  func refusal(_ arguments: [String], program: ProgramSpec = VaultCommands.program) -> UsageError? {
    do {
      _ = try Parser.parse(arguments, program: program)
      return nil
    } catch {
      return error as? UsageError
    }
  }

  func testEachKindIsCheckedWithItsMessage() {
    let rows: [([String], String, String?, [String])] = [
      (
        ["unlock", "--shell", "tcsh"], "invalid value 'tcsh' for --shell (bash, zsh or fish)",
        nil, ["unlock"]
      ),
      (
        ["unlock", "--shell", "fsh"], "invalid value 'fsh' for --shell (bash, zsh or fish)",
        "did you mean 'fish'?", ["unlock"]
      ),
      (
        ["unlock", "--timeout", "0"], "invalid duration '0' for --timeout (such as 90s, 15m or 1h)",
        nil, ["unlock"]
      ),
      (
        ["unlock", "--timeout", "8h1s"],
        "invalid duration '8h1s' for --timeout (such as 90s, 15m or 1h)", nil, ["unlock"]
      ),
      (
        ["unlock", "--timeout", "28801"], "--timeout must be from 1 s to 8 h, not '28801'", nil,
        ["unlock"]
      ),
      (
        ["generate", "x", "--length", "1025"],
        "--length needs a whole number from 8 to 1024, not '1025'", nil, ["generate"]
      ),
      (
        ["journal", "list", "-n", "-3"], "--count needs a whole number of at least 1, not '-3'",
        nil,
        ["journal", "list"]
      ),
      (
        ["list", "--pin-fd", "-1"], "--pin-fd needs a file descriptor number, not '-1'", nil,
        ["list"]
      ),
      (["backup", ""], "PATH needs a path, not an empty string", nil, ["backup"]),
      (
        ["completions", "powershell"], "invalid value 'powershell' for SHELL (bash, zsh or fish)",
        nil, ["completions"]
      ),
    ]
    for (arguments, message, hint, path) in rows {
      let error = refusal(arguments)
      XCTAssertEqual(error?.message, message, arguments.joined(separator: " "))
      XCTAssertEqual(error?.hint, hint, arguments.joined(separator: " "))
      XCTAssertEqual(error?.path, path, arguments.joined(separator: " "))
    }
    XCTAssertEqual(
      refusal(["availability", "gone"], program: BiosimCommands.program)?.message,
      "invalid value 'gone' for STATE (available, unavailable, disconnected or not-paired)")
  }

  func testABadNameIsRefusedInputNotAUsageError() {
    XCTAssertThrowsError(try Parser.parse(["get", "a//b"], program: VaultCommands.program)) {
      XCTAssertEqual(VaultError($0), .invalidInput(.name(.emptySegment(name: "a//b"))))
    }
  }

  func testValuesAreReadTyped() throws {
    let unlock = try Parser.parse(
      ["unlock", "--timeout", "2m", "--shell", "zsh"], program: VaultCommands.program)
    XCTAssertEqual(try unlock.value(Keys.timeout), Seconds(value: 120))
    XCTAssertEqual(try unlock.value(Keys.shell), .zsh)
    let generate = try Parser.parse(
      ["generate", "n/a", "--words", "5"], program: VaultCommands.program)
    XCTAssertEqual(try generate.value(Keys.words), 5)
    XCTAssertEqual(try generate.argument(Keys.name), try EntryName("n/a"))
    XCTAssertEqual(try generate.value(Keys.length), nil)
    let help = try Parser.parse(
      ["unlock", "--shell", "tcsh", "--help"], program: VaultCommands.program)
    XCTAssertTrue(help.flag(Keys.help), "--help skips the value checks")
  }
}
