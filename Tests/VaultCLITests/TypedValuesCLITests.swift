import Foundation
import VaultCore
import XCTest

@testable import VaultCLI
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// Option values checked by the parser from their kind (exit 64 with "did you mean"), `--help` and
/// `--version` that never run a command, and the one exit-code table.
final class TypedValuesCLITests: XCTestCase {
  func testVersionAfterACommandNeverRunsIt() {
    let box = Sandbox()
    let session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "keep"], stdin: Array("v".utf8), env: session).status, 0)
    for arguments in [["rm", "keep", "--version"], ["mv", "--version"], ["rm", "--version"]] {
      let result = box.vault(arguments, env: session)
      XCTAssertEqual(result.status, 0, arguments.joined(separator: " "))
      XCTAssertEqual(result.stdoutText, "vault \(VaultCommands.program.version)\n")
      XCTAssertEqual(result.stderr, [])
    }
    let help = box.vault(["rm", "keep", "--help"], env: session)
    XCTAssertEqual(help.status, 0)
    XCTAssertEqual(help.stdoutText, Help.text(VaultCommands.program, path: ["rm"]))
    XCTAssertEqual(box.vault(["get", "keep"], env: session).stdoutText, "v")
    XCTAssertEqual(
      box.biosim(["hardware", "none", "--version"]).stdoutText,
      "biosim \(BiosimCommands.program.version)\n")
    XCTAssertEqual(box.sensor()["type"] as? String, "touch-id")
  }

  func testAMistypedChoiceIsAUsageErrorWithASuggestion() {
    let box = Sandbox()
    for (arguments, lines) in [
      (
        ["unlock", "--shell", "zhs"],
        [
          "vault: error: invalid value 'zhs' for --shell (bash, zsh or fish)",
          "vault: hint: did you mean 'zsh'?",
          "Usage: vault unlock [--timeout DURATION] [--shell-session] [--shell SHELL] [--raw] [--force]",
        ]
      ),
      (
        ["init", "--kdf", "moderat"],
        [
          "vault: error: invalid value 'moderat' for --kdf (interactive, moderate or sensitive)",
          "vault: hint: did you mean 'moderate'?",
          "Usage: vault init [--kdf PROFILE] [--no-biometry]",
        ]
      ),
      (
        ["unlock", "--timeout", "9h"],
        [
          "vault: error: --timeout must be from 1 s to 8 h, not '9h'",
          "Usage: vault unlock [--timeout DURATION] [--shell-session] [--shell SHELL] [--raw] [--force]",
        ]
      ),
      (
        ["unlock", "--timeout", "soon"],
        [
          "vault: error: invalid duration 'soon' for --timeout (such as 90s, 15m or 1h)",
          "Usage: vault unlock [--timeout DURATION] [--shell-session] [--shell SHELL] [--raw] [--force]",
        ]
      ),
    ] {
      let result = box.vault(arguments, pin: ["246800"])
      XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
      XCTAssertEqual(result.errorLines, lines)
    }
    // Nothing was created: the value was refused before anything ran.
    XCTAssertFalse(FileManager.default.fileExists(atPath: box.vaultPath))
  }

  func testSensorValuesAreChoicesToo() {
    let box = Sandbox()
    for (arguments, lines) in [
      (
        ["hardware", "face"],
        [
          "biosim: error: invalid value 'face' for TYPE (none, touch-id, face-id or optic-id)",
          "biosim: hint: did you mean 'face-id'?", "Usage: biosim hardware [--external] TYPE",
        ]
      ),
      (
        ["next", "matc"],
        [
          "biosim: error: invalid value 'matc' for OUTCOME (match, no-match, retry, cancel,"
            + " fallback, system-cancel, app-cancel or timeout)",
          "biosim: hint: did you mean 'match'?",
          "Usage: biosim next [--count N] [--clear] [OUTCOME]",
        ]
      ),
      (
        ["next", "match", "--count", "101"],
        [
          "biosim: error: --count needs a whole number from 1 to 100, not '101'",
          "Usage: biosim next [--count N] [--clear] [OUTCOME]",
        ]
      ),
    ] {
      let result = box.biosim(arguments)
      XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
      XCTAssertEqual(result.errorLines, lines)
    }
    XCTAssertEqual(box.sensor()["queue"] as? [String], [])
  }

  func testTheTestKDFNeedsTheTestSwitch() {
    let box = Sandbox()
    let refused = box.vault(
      ["init", "--kdf", "test", "--no-biometry"], pin: ["246810"],
      env: [KDFProfile.testSwitch: "0"])
    XCTAssertEqual(refused.status, 64)
    XCTAssertEqual(
      refused.errorLines,
      [
        "vault: error: invalid value 'test' for --kdf (interactive, moderate or sensitive)",
        "Usage: vault init [--kdf PROFILE] [--no-biometry]",
      ])
    XCTAssertFalse(FileManager.default.fileExists(atPath: box.vaultPath))
    box.initPINOnly()
    XCTAssertTrue(box.vault(["status"]).stdoutText.contains("TEST ONLY: no brute-force protection"))
  }

  func testTheTestKDFIsAcceptedButNeverOffered() {
    XCTAssertEqual(KDFProfile.visibleChoices, ["interactive", "moderate", "sensitive"])
    XCTAssertEqual(try KDFProfile(argument: "test", label: "--kdf"), .test)
    XCTAssertFalse(BashCompletion.script(for: VaultCommands.program).contains(" test "))
  }

  /// One table: every code once, and the README lists each code the table has.
  func testTheExitCodeTableIsTheOnlySource() throws {
    let codes = ExitCode.allCases.map(\.rawValue)
    XCTAssertEqual(
      codes,
      [0, 1, 3, 4, 5, 6, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 64, 126, 127, 130, 141])
    XCTAssertEqual(ExitStatus.table.map(\.code), codes)
    let readme = try String(
      contentsOfFile: GeneratorTestSupport.packageRoot + "/README.md", encoding: .utf8)
    let words = Set(readme.split(whereSeparator: \.isWhitespace).map(String.init))
    for code in codes {
      XCTAssertTrue(words.contains("\(code)"), "the README's exit codes do not list \(code)")
    }
  }
}

/// What the new-user review found in the command line.
final class CommandLineReviewTests: XCTestCase {
  func testHelpOrVersionAfterAValueOptionNeverRunsTheCommand() {
    let box = Sandbox()
    for arguments in [["enroll", "--label", "--help"], ["enroll", "--label", "-h"]] {
      let result = box.biosim(arguments)
      XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
      XCTAssertEqual(result.errorLines.first, "biosim: error: option '--label' needs a value LABEL")
    }
    XCTAssertEqual((box.sensor()["enrolled"] as? [Any])?.count, 0)
    let initialized = box.vault(["init", "--vault", "--help", "--kdf", "test"], pin: ["246810"])
    XCTAssertEqual(initialized.status, 64)
    XCTAssertFalse(FileManager.default.fileExists(atPath: box.home + "/--help"))
  }

  func testUsageMistakesOfBiosimAreUsageErrors() {
    let box = Sandbox()
    for (arguments, message) in [
      (["unenroll"], "say which template: --label LABEL or --all"),
      (["unenroll", "--label", "a", "--all"], "give --label or --all, not both"),
      (
        ["enroll", "--label", ""],
        "invalid value for --label: use 1 to 64 bytes, no control characters, no leading or"
          + " trailing spaces"
      ),
    ] {
      let result = box.biosim(arguments)
      XCTAssertEqual(result.status, 64, arguments.joined(separator: " "))
      XCTAssertEqual(result.errorLines.first, "biosim: error: \(message)")
    }
  }

  func testMessagesStayOnOneLineWhateverWasTyped() {
    let box = Sandbox()
    let result = box.vault(["unlock", "--shell", "x\ny\u{1b}[31m"], pin: ["246810"])
    XCTAssertEqual(result.status, 64)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: invalid value 'x?y?[31m' for --shell (bash, zsh or fish)",
        "Usage: vault unlock [--timeout DURATION] [--shell-session] [--shell SHELL] [--raw] [--force]",
      ])
  }

  func testSuggestionsForCaseAndAliases() {
    let box = Sandbox()
    XCTAssertEqual(
      box.vault(["unlock", "--shell", "BASH"], pin: ["246810"]).errorLines[1],
      "vault: hint: did you mean 'bash'?")
    XCTAssertEqual(box.vault(["remov", "x"]).errorLines[1], "vault: hint: did you mean 'rm'?")
  }

  func testHardwareOfTheSameTypeWipesNothing() {
    let box = Sandbox()
    box.biosim(["enroll"])
    XCTAssertEqual(
      box.biosim(["hardware", "touch-id"]).errorLines, ["The sensor is now Touch ID (simulated)."])
    XCTAssertEqual((box.sensor()["enrolled"] as? [Any])?.count, 1)
  }
}

/// A session lasts only as long as the enrollment it was issued under.
final class SessionBindingTests: XCTestCase {
  func testAnEnrollmentChangeEndsTheSessionAtItsNextUse() {
    for change in [["enroll", "--label", "other"], ["os-upgrade"], ["unenroll", "--all"]] {
      let box = Sandbox()
      box.initBiometric()
      let token = box.unlock()
      XCTAssertEqual(
        box.vault(["add", "x"], stdin: Array("v".utf8), env: ["VAULT_SESSION": token]).status, 0)
      XCTAssertEqual(box.vault(["get", "x"], env: ["VAULT_SESSION": token]).stdoutText, "v")
      box.biosim(change)
      let read = box.vault(["get", "x"], env: ["VAULT_SESSION": token])
      XCTAssertEqual(read.status, 15, change.joined(separator: " ") + ": " + read.stderrText)
      XCTAssertEqual(read.stdout, [])
      XCTAssertEqual(box.vault(["list"], env: ["VAULT_SESSION": token]).status, 10)
      let biometry = box.statusJSON()["biometry"] as? [String: Any]
      XCTAssertEqual(biometry?["state"] as? String, "disabled", change.joined(separator: " "))
    }
  }

  func testARefusedGuardedReadOpensNoDuplicateWindow() {
    let box = Sandbox()
    let session = box.pinOnlySession()
    XCTAssertEqual(
      box.vault(["add", "--guard", "g"], stdin: Array("v".utf8), env: session).status, 0)
    XCTAssertEqual(box.vault(["get", "g"], env: session).status, 10)
    let read = box.vault(["get", "g"], pin: [Sandbox.pin], env: session)
    XCTAssertEqual(read.status, 0, read.stderrText)
    XCTAssertEqual(read.stdoutText, "v")
  }
}

/// New PINs have at least six characters, and setting one says what guessing it would cost.
final class PINStrengthTests: XCTestCase {
  func testANewPINNeedsSixCharactersAndItsCostIsSaid() {
    let box = Sandbox()
    let short = box.vault(["init", "--kdf", "test", "--no-biometry"], pin: ["12345"])
    XCTAssertEqual(short.status, 5)
    XCTAssertEqual(
      short.errorLines,
      ["vault: error: a new PIN needs at least 6 characters"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: box.vaultPath))
    let made = box.vault(["init", "--kdf", "test", "--no-biometry"], pin: ["123456"])
    XCTAssertEqual(made.status, 0, made.stderrText)
    let cost = made.errorLines.first { $0.hasPrefix("A search of all ") }
    XCTAssertTrue(
      cost?.hasPrefix("A search of all 1000000 PINs of this length and kind would cost about")
        ?? false, made.stderrText)
    let status = box.vault(["status"]).stdoutText
    XCTAssertTrue(status.contains("PIN guess cost:   "), status)
    XCTAssertFalse(status.contains("warning:"), status)
    let passwd = box.vault(["passwd"], pin: ["123456", "abc"])
    XCTAssertEqual(passwd.status, 5)
  }

  func testTheSearchSpaceCountsTheAlphabetsUsed() throws {
    func space(_ text: String) throws -> Double {
      try PIN(utf8: SecureBytes(copying: Array(text.utf8))).searchSpace
    }
    XCTAssertEqual(try space("123456"), 1e6)
    XCTAssertEqual(try space("abcdef"), pow(26, 6))
    XCTAssertEqual(try space("abc123"), pow(36, 6))
    XCTAssertEqual(try space("Ab1!xy"), pow(95, 6))
    XCTAssertEqual(GuessCost.duration(0.5), "0.50 s")
    XCTAssertEqual(GuessCost.duration(5e5), "5.8 core-days")
  }
}
