import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// `vault grep` exit codes and output, and `vault generate` lengths and alphabets, through the
/// built binary.
final class GrepGenerateCLITests: XCTestCase {
  var box: Sandbox!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }
  var session: [String: String] = [:]

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
  }

  func add(_ name: String, _ content: [UInt8]) {
    XCTAssertEqual(box.vault(["add", name], stdin: content, env: session).status, 0)
  }

  func grep(_ arguments: [String]) -> Subprocess.Result {
    box.vault(["grep"] + arguments, env: session)
  }

  func testGrepOutputAndExitCodes() {
    add("mail/work", Array("user: ann\npassword: hunter2\n".utf8))
    add("bin", [0, 104, 117, 110, 116, 101, 114])  // NUL, then "hunter"
    add("latin", [0x68, 0x75, 0x6E, 0x74, 0xE9, 0xFF])  // invalid UTF-8
    add("notes", Array("Nothing here\nHUNTER moon\n".utf8))
    let journal = box.vault(
      ["journal"], stdin: Array("Saw a hunter in the woods.\n".utf8),
      env: ["VAULT_TEST_WALLCLOCK": "1800000000"])
    XCTAssertEqual(journal.status, 0)
    let id = String(box.vault(["journal", "list"], env: session).stdoutText.prefix { $0 != " " })

    let plain = grep(["hunter"])
    XCTAssertEqual(plain.status, 0)
    XCTAssertEqual(
      plain.stdoutText,
      "bin: binary match\nmail/work:2:password: hunter2\n\(id):1:Saw a hunter in the woods.\n")
    XCTAssertEqual(plain.stderr, [])

    XCTAssertEqual(
      grep(["-i", "HUNTER"]).stdoutText,
      "bin: binary match\nmail/work:2:password: hunter2\nnotes:2:HUNTER moon\n"
        + "\(id):1:Saw a hunter in the woods.\n")
    XCTAssertEqual(grep(["hunt(er)?2$"]).stdoutText, "mail/work:2:password: hunter2\n")
    XCTAssertEqual(grep(["a.n"]).stdoutText, "mail/work:1:user: ann\n")
    let fixed = grep(["-F", "a.n"])
    XCTAssertEqual(fixed.status, 1)
    XCTAssertEqual(fixed.stdout, [])
    XCTAssertEqual(grep(["-F", "(er)"]).status, 1)
    XCTAssertEqual(grep(["-iF", "hunter2"]).stdoutText, "mail/work:2:password: hunter2\n")
    XCTAssertEqual(grep(["work"]).stdoutText, "mail/work:0:mail/work\n", "names are searched")
    XCTAssertEqual(grep(["^hunt"]).stdoutText, "bin: binary match\nlatin: binary match\n")

    let none = grep(["zebra"])
    XCTAssertEqual(none.status, 1)
    XCTAssertEqual(none.stdout, [])
    XCTAssertEqual(none.stderr, [])

    let bad = grep(["("])
    XCTAssertEqual(bad.status, 5)
    XCTAssertEqual(bad.errorLines, [#"vault: error: invalid pattern '(': Unmatched ( or \("#])
    XCTAssertEqual(box.vault(["grep", "hunter"]).status, 10, "no session, no terminal")
  }

  func testGrepSkipsTheContentOfGuardedEntriesInASession() {
    let bio = Sandbox()
    bio.initBiometric()
    bio.biosim(["next", "match"])
    XCTAssertEqual(
      bio.vaultPIN(["add", "--guard", "vault/key"], stdin: Array("hunter\n".utf8)).status, 0)
    let token = bio.unlock()
    let result = bio.vault(["grep", "hunter"], env: ["VAULT_SESSION": token])
    XCTAssertEqual(result.status, 1)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: note: the content of 1 guarded entry was not searched; guarded entries need"
          + " 'vault get' or a search without a session"
      ])
    XCTAssertEqual(
      bio.vault(["grep", "key"], env: ["VAULT_SESSION": token]).stdoutText,
      "vault/key:0:vault/key\n")
  }

  func testGeneratedPasswordsHaveTheAskedLengthAndAlphabet() {
    let letters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    let symbols = Set("!#$%&()*+,-./:;<=>?@[]^_{|}~")
    for (arguments, length, alphabet) in [
      ([String](), 24, letters.union(symbols)), (["--length", "8"], 8, letters.union(symbols)),
      (["--length", "100", "--no-symbols"], 100, letters),
      (["--length=1024"], 1024, letters.union(symbols)),
    ] {
      for round in 0..<5 {
        let name = "pw/\(length)-\(arguments.count)-\(round)"
        let made = box.vault(["generate", "--print", name] + arguments, env: session)
        XCTAssertEqual(made.status, 0, made.stderrText)
        XCTAssertEqual(made.errorLines.count, 1)
        XCTAssertTrue(
          made.stderrText.hasPrefix(
            "Stored a new \(length)-character password (from \(alphabet.count) characters) as"
              + " '\(name)'; entropy "), made.stderrText)
        let password = made.stdoutText
        XCTAssertNotEqual(made.stdoutText.last, "\n", "a pipe gets exactly the secret")
        XCTAssertEqual(password.count, length, name)
        XCTAssertTrue(Set(password).isSubset(of: alphabet), password)
        XCTAssertTrue(password.contains { $0.isLowercase } && password.contains { $0.isUppercase })
        XCTAssertTrue(password.contains { $0.isNumber })
        XCTAssertEqual(!Set(password).isDisjoint(with: symbols), alphabet.count > letters.count)
        XCTAssertEqual(box.vault(["get", name], env: session).stdoutText, password)
      }
    }

    let quiet = box.vault(["generate", "quiet"], env: session)
    XCTAssertEqual(quiet.stdout, [])
    XCTAssertEqual(
      quiet.errorLines,
      [
        "Stored a new 24-character password (from 90 characters) as 'quiet'; entropy 155 bits.",
        "Show it with: vault get quiet",
      ])
    XCTAssertEqual(box.vault(["get", "quiet"], env: session).stdout.count, 24)

    let phrase = box.vault(["generate", "--words", "5", "--print", "phrase"], env: session)
    XCTAssertEqual(phrase.status, 0, phrase.stderrText)
    let words = phrase.stdoutText.split(separator: "-", omittingEmptySubsequences: false)
    XCTAssertEqual(words.count, 5)
    XCTAssertTrue(words.allSatisfy { WordList.words.contains(String($0)) }, phrase.stdoutText)
  }

  func testGenerateRefusalsAndForce() {
    XCTAssertEqual(box.vault(["generate", "x"], env: session).status, 0)
    let old = box.vault(["get", "x"], env: session).stdout
    let exists = box.vault(["generate", "x"], env: session)
    XCTAssertEqual(exists.status, 4)
    XCTAssertEqual(
      exists.errorLines,
      ["vault: error: an entry named 'x' exists", "vault: hint: use --force to replace it"])
    XCTAssertEqual(box.vault(["generate", "-f", "x"], env: session).status, 0)
    XCTAssertNotEqual(box.vault(["get", "x"], env: session).stdout, old)
    let usage =
      "Usage: vault generate [--length N] [--no-symbols] [--charset CLASSES] [--no-ambiguous]"
      + " [--words N] [--separator S] [--force] [--in-place] [--print] [--clip]"
      + " [--clip-time SECONDS] NAME"
    for (arguments, message) in [
      (["--length", "7"], "--length needs a whole number from 8 to 1024, not '7'"),
      (["--length", "ten"], "--length needs a whole number from 8 to 1024, not 'ten'"),
      (["--words", "2"], "--words needs a whole number from 3 to 64, not '2'"),
    ] {
      let result = box.vault(["generate", "y"] + arguments)
      XCTAssertEqual(result.status, 64, message)
      XCTAssertEqual(result.errorLines, ["vault: error: \(message)", usage])
    }
    let both = box.vault(["generate", "y", "--words", "4", "--length", "20"])
    XCTAssertEqual(both.status, 64)
    XCTAssertEqual(
      both.errorLines,
      [
        "vault: error: --words makes a passphrase; it cannot be combined with --length", usage,
      ])
  }

  func testTheWordListIsLargeSortedAndPlain() {
    let words = WordList.words
    XCTAssertGreaterThanOrEqual(words.count, 2048)
    XCTAssertEqual(words, words.sorted())
    XCTAssertEqual(Set(words).count, words.count)
    XCTAssertTrue(words.allSatisfy { (3...6).contains($0.count) && $0.allSatisfy(\.isLowercase) })
    XCTAssertTrue(words.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) })
  }

  func testCharsetsAmbiguityAndEntropy() {
    let lower = Set("abcdefghijklmnopqrstuvwxyz")
    let digits = Set("0123456789")
    for (arguments, alphabet, stderr) in [
      (
        ["--charset", "lower,digits", "--no-ambiguous", "--length", "12"],
        lower.union(digits).subtracting("0O1lI"),
        "Stored a new 12-character password (from 33 characters) as 'c'; entropy 60 bits."
      ),
      (
        ["--charset", "upper,chars:-_.", "--length", "20"],
        Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ-_."),
        "Stored a new 20-character password (from 29 characters) as 'c'; entropy 96 bits."
      ),
      (
        ["--charset", "chars:ab", "--length", "8"], Set("ab"),
        "Stored a new 8-character password (from 2 characters) as 'c'; entropy 8 bits."
      ),
    ] {
      for round in 0..<4 {
        let made = box.vault(["generate", "--print", "-f", "c"] + arguments, env: session)
        XCTAssertEqual(made.status, 0, made.stderrText)
        XCTAssertEqual(made.errorLines, [stderr])
        let password = made.stdoutText
        XCTAssertTrue(Set(password).isSubset(of: alphabet), "\(password) \(round)")
        if arguments[1] == "lower,digits" {
          XCTAssertTrue(
            password.contains { digits.contains($0) } && password.contains(where: \.isLowercase))
        }
        if arguments[1] == "upper,chars:-_." {
          XCTAssertTrue(
            password.contains { "-_.".contains($0) } && password.contains(where: \.isUppercase))
        }
      }
    }
    let phrase = box.vault(
      ["generate", "--print", "--words", "5", "--separator", " ", "p"], env: session)
    XCTAssertEqual(
      phrase.errorLines,
      ["Stored a new 5-word passphrase (from 2635 words) as 'p'; entropy 56 bits."])
    let words = phrase.stdoutText.split(separator: " ", omittingEmptySubsequences: false)
    XCTAssertEqual(words.count, 5)
    XCTAssertTrue(words.allSatisfy { WordList.words.contains(String($0)) })
    let joined = box.vault(
      ["generate", "--print", "--words", "3", "--separator", "", "q"], env: session)
    XCTAssertTrue(joined.stdoutText.allSatisfy(\.isLowercase), joined.stdoutText)

    for (arguments, message) in [
      (
        ["--charset", "lower,emoji"],
        "invalid value for --charset: unknown character class 'emoji' (use lower, upper, digits,"
          + " symbols, then chars:CHARACTERS for a set of your own)"
      ),
      (
        ["--charset", "chars:"],
        "invalid value for --charset: 'chars:' is followed by no characters"
      ),
      (
        ["--charset", "chars:a b"],
        "invalid value for --charset: a literal character set has printable ASCII characters only"
          + " ('!' to '~', no space)"
      ),
      (
        ["--charset", "chars:aaa"],
        "invalid value for --charset: the character set has fewer than 2 characters"
      ),
      (["--separator", "-"], "--separator needs --words"),
      (
        ["--words", "4", "--charset", "lower"],
        "--words makes a passphrase; it cannot be combined with --charset"
      ),
      (
        ["--charset", "lower", "--no-symbols"],
        "--no-symbols and --charset cannot be combined (leave symbols out of CLASSES)"
      ),
      (
        ["--in-place", "--force"],
        "--in-place replaces the first line of an existing entry; --force is not needed"
      ),
      (["--clip-time", "5"], "--clip-time needs --clip"),
    ] {
      let result = box.vault(["generate", "z"] + arguments, env: session)
      XCTAssertEqual(result.status, 64, "\(arguments)")
      XCTAssertEqual(result.errorLines.first, "vault: error: \(message)")
    }
  }

  func testInPlaceReplacesOnlyThePassword() {
    let old = "old-password\r\nuser: alice\r\nurl: https://x.example/\r\nnote\r\n"
    XCTAssertEqual(box.vault(["add", "site"], stdin: Array(old.utf8), env: session).status, 0)
    let made = box.vault(["generate", "--in-place", "--print", "site"], env: session)
    XCTAssertEqual(made.status, 0, made.stderrText)
    XCTAssertEqual(
      made.errorLines,
      [
        "Stored a new 24-character password (from 90 characters) as 'site' (first line"
          + " replaced); entropy 155 bits."
      ])
    let password = made.stdoutText
    XCTAssertEqual(password.count, 24)
    XCTAssertEqual(
      box.vault(["get", "site"], env: session).stdoutText,
      password + "\r\nuser: alice\r\nurl: https://x.example/\r\nnote\r\n")
    XCTAssertEqual(box.vault(["get", "site", "-r", "1"], env: session).stdoutText, old)
    let history = box.vault(["history", "site"], env: session).stdoutText
    XCTAssertTrue(history.hasPrefix("2  "), history)
    XCTAssertTrue(history.contains("generate"), history)

    let missing = box.vault(["generate", "--in-place", "nothing"], env: session)
    XCTAssertEqual(missing.status, 3)
    XCTAssertEqual(box.vault(["add", "bin"], stdin: [0xFF, 0x00], env: session).status, 0)
    let binary = box.vault(["generate", "--in-place", "bin"], env: session)
    XCTAssertEqual(binary.status, 5)
    XCTAssertEqual(box.vault(["get", "bin"], env: session).stdout, [0xFF, 0x00])
  }
}
