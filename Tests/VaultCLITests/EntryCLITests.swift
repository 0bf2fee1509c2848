import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// Entry commands through the built binary, as scripts use them.
final class EntryCLITests: XCTestCase {
  var box: Sandbox!

  // XCTest keeps every test case alive until the run ends: release the folder now.
  override func tearDown() { box = nil }
  var session: [String: String] = [:]

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
  }

  @discardableResult
  func add(_ arguments: [String], _ content: [UInt8]) -> Subprocess.Result {
    box.vault(["add"] + arguments, stdin: content, env: session)
  }

  func get(_ name: String) -> Subprocess.Result {
    box.vault(["get", "--", name], env: session)
  }

  func list() -> [String] {
    box.vault(["list"], env: session).stdoutText.split(separator: "\n").map(String.init)
  }

  func testEveryByteValueRoundTrips() {
    let all = (0...255).map { UInt8($0) }
    XCTAssertEqual(add(["bytes"], all).status, 0)
    let result = get("bytes")
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(result.stdout, all)
    XCTAssertEqual(result.stderr, [])
  }

  func testContentIsStoredExactly() {
    let cases: [(String, String)] = [
      ("no-newline", "secret"), ("newline", "secret\n"), ("crlf", "a\r\nb\r\n"),
      ("nul", "a\u{0}b"), ("spaces", "  padded  "),
    ]
    for (name, content) in cases {
      XCTAssertEqual(add([name], Array(content.utf8)).status, 0)
      XCTAssertEqual(get(name).stdout, Array(content.utf8), name)
    }
    let invalidUTF8: [UInt8] = [0xff, 0xfe, 0xc3]
    add(["raw"], invalidUTF8)
    XCTAssertEqual(get("raw").stdout, invalidUTF8)
  }

  func testEmptyInputIsRefusedAndNothingIsLost() {
    let empty = add(["x"], [])
    XCTAssertEqual(empty.status, 5)
    XCTAssertEqual(empty.errorLines, ["vault: error: standard input is empty; nothing was stored"])
    XCTAssertEqual(list(), [])
    add(["x"], Array("keep".utf8))
    XCTAssertEqual(add(["--force", "x"], []).status, 5)
    XCTAssertEqual(get("x").stdoutText, "keep")
  }

  func testExistingNamesNeedForce() {
    add(["x"], Array("one".utf8))
    let again = add(["x"], Array("two".utf8))
    XCTAssertEqual(again.status, 4)
    XCTAssertEqual(
      again.errorLines,
      ["vault: error: an entry named 'x' exists", "vault: hint: use --force to replace it"])
    XCTAssertEqual(get("x").stdoutText, "one")
    XCTAssertEqual(add(["-f", "x"], Array("two".utf8)).status, 0)
    XCTAssertEqual(get("x").stdoutText, "two")
  }

  func testNamesWithSpacesAccentsDashesAndFolders() {
    XCTAssertEqual(add(["two words"], [1]).status, 0)
    XCTAssertEqual(add(["caf\u{65}\u{301}"], [2]).status, 0)
    XCTAssertEqual(add(["caf\u{e9}"], [3]).status, 4, "the composed form is the same entry")
    XCTAssertEqual(get("caf\u{e9}").stdout, [2])
    XCTAssertEqual(add(["--", "-x"], [4]).status, 0)
    XCTAssertEqual(get("-x").stdout, [4])
    XCTAssertEqual(add(["mail/work/imap"], [5]).status, 0)
    XCTAssertEqual(list(), ["-x", "caf\u{e9}", "mail/work/imap", "two words"])
    XCTAssertEqual(
      box.vault(["list", "mail/"], env: session).stdoutText, "mail/work/imap\n")
    let dash = box.vault(["get", "-x"], env: session)
    XCTAssertEqual(dash.status, 64)
    XCTAssertEqual(dash.errorLines.first, "vault: error: unknown option '-x'")
  }

  func testBadNamesAreRefusedWithExit5() {
    for (name, message) in [
      ("", "the name is empty"), ("../etc", "the name '../etc' has a '..' segment"),
      ("a/./b", "the name 'a/./b' has a '.' segment"),
      ("a//b", "the name 'a//b' has an empty path segment"),
      ("/abs", "the name '/abs' has an empty path segment"),
      ("tab\there", "the name contains a control character"),
      (String(repeating: "n", count: 1025), "the name is longer than 1024 bytes"),
    ] {
      let result = add(["--", name], [1])
      XCTAssertEqual(result.status, 5, name)
      XCTAssertEqual(result.errorLines, ["vault: error: \(message)"], name)
    }
    XCTAssertEqual(list(), [])
  }

  func testRemoveMoveAndMissingEntries() {
    add(["a"], [1])
    add(["b"], [2])
    XCTAssertEqual(box.vault(["mv", "a", "b"], env: session).status, 4)
    XCTAssertEqual(box.vault(["mv", "a", "c/d"], env: session).status, 0)
    XCTAssertEqual(list(), ["b", "c/d"])
    XCTAssertEqual(box.vault(["rm", "b"], env: session).status, 0)
    let missing = get("b")
    XCTAssertEqual(missing.status, 3)
    XCTAssertEqual(missing.stdout, [])
    XCTAssertEqual(
      missing.errorLines,
      [
        "vault: error: the entry 'b' was removed",
        "vault: hint: bring it back with: vault restore b",
      ])
    XCTAssertEqual(box.vault(["rm", "b"], env: session).status, 3)
    XCTAssertEqual(
      get("never").errorLines,
      ["vault: error: no entry named 'never'", "vault: hint: see 'vault list'"])
  }

  func testListJSON() throws {
    add(["b"], [1])
    add(["a\"q"], [1])
    let out = box.vault(["list", "--json"], env: session).stdout
    let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out)) as? [[String: Any]])
    XCTAssertEqual(rows.map { $0["name"] as? String }, ["a\"q", "b"])
    XCTAssertEqual(Set(rows[0].keys), ["name", "created", "updated", "guarded"])
    XCTAssertTrue((rows[0]["created"] as? String)?.hasSuffix("Z") ?? false)
  }

  func testWrongPINGivesExit11AndAnEmptyStdout() {
    add(["x"], [1])
    let result = box.vault(["get", "x"], pin: ["111100"])
    XCTAssertEqual(result.status, 11)
    XCTAssertEqual(result.stdout, [])
    XCTAssertEqual(result.errorLines, ["vault: error: wrong PIN (4 attempts left before a delay)"])
  }

  func testNoTerminalNoPINFDAndNoSessionExits10WithoutReadingStdin() {
    let result = box.vault(["add", "x"], stdin: Array("\(Sandbox.pin)\n".utf8))
    XCTAssertEqual(result.status, 10)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: locked: no valid session and no terminal to ask on",
        "vault: hint: unlock first with: vault unlock",
      ])
  }

  func testAMissingVaultExits6() {
    let result = box.vault(["list", "--vault", box.home + "/nothing.db"])
    XCTAssertEqual(result.status, 6)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: no vault at \(box.home)/nothing.db",
        "vault: hint: create one with 'vault init', or join one synced elsewhere with 'vault"
          + " sync clone REMOTE'",
      ])
    let env = box.vault(["status"], env: ["VAULT_PATH": box.home + "/env.db"])
    XCTAssertEqual(env.status, 6)
    // New-user review: a new machine's first 'vault sync' and 'vault config' say the same, not
    // that sync is not set up (exit 21).
    for arguments in [["sync"], ["config", "sync.auto", "on"]] {
      let sync = box.vault(arguments + ["--vault", box.home + "/nothing.db"])
      XCTAssertEqual(sync.status, 6, sync.stderrText)
      XCTAssertEqual(sync.errorLines.first, "vault: error: no vault at \(box.home)/nothing.db")
    }
  }

  func testListIntoAClosedPipeIsQuiet() {
    for index in 0..<3 { add(["n\(index)"], [1]) }
    let result = box.shell("vault list | head -1", env: session)
    XCTAssertEqual(result.stdoutText, "n0\n")
    XCTAssertEqual(result.stderrText, "")
    // Deterministic EPIPE: the reader is gone before vault writes.
    let closed = box.shell(
      "exec 3>&1; (sleep 0.2; vault list; echo \"status=$?\" >&3) | true", env: session)
    XCTAssertEqual(closed.stdoutText, "status=141\n")
    XCTAssertEqual(closed.stderrText, "")
  }

  func testTamperedFilesExit17() throws {
    add(["x"], Array("secret".utf8))
    let copy = box.home + "/copy.db"
    try FileManager.default.copyItem(atPath: box.vaultPath, toPath: copy)
    box.tamper {
      try $0.replaceBlob("select box from chunks", "update chunks set box = ?") { $0[30] ^= 1 }
    }
    let flipped = get("x")
    XCTAssertEqual(flipped.status, 17)
    XCTAssertEqual(flipped.stdout, [])
    XCTAssertEqual(
      flipped.errorLines,
      ["vault: error: integrity failure: the content of 'x' failed authentication"])
    box.tamper(copy) {
      let body = String(decoding: try $0.headerBody(), as: UTF8.self)
      let changed = body.replacing(#""policy":"pin""#, with: #""policy":"pin+biometry""#)
      try $0.setHeaderBody(Array(changed.utf8))
    }
    let edited = box.vault(["get", "x", "--vault", copy], pin: [Sandbox.pin])
    XCTAssertEqual(edited.status, 17)
    XCTAssertEqual(
      edited.errorLines,
      [
        "vault: error: integrity failure: the vault header failed authentication (the file was edited)"
      ])
  }

  func testAnEditedKDFIsAnIntegrityFailureNotAWrongPIN() {
    box.editHeader {
      $0["kdf"] = ["profile": "interactive", "opslimit": 2, "memlimit": 67_108_864]
    }
    let result = box.vault(["list"], pin: [Sandbox.pin])
    XCTAssertEqual(result.status, 17)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: error: integrity failure: the vault header's KDF parameters or keyslots were"
          + " edited (they do not match this device's record)"
      ])
    XCTAssertEqual((box.statusJSON()["pin"] as? [String: Any])?["consecutive_failures"] as? Int, 0)
  }

  func testPasswdAndRecoverOnAnotherMachine() {
    add(["x"], Array("secret".utf8))
    let passwd = box.vault(["passwd"], pin: [Sandbox.pin, "1357900"])
    XCTAssertEqual(passwd.status, 0, passwd.stderrText)
    XCTAssertEqual(box.vault(["get", "x"], pin: [Sandbox.pin]).status, 11)
    XCTAssertEqual(box.vault(["get", "x"], pin: ["1357900"]).stdoutText, "secret")
    XCTAssertEqual(box.vault(["get", "x"], env: session).status, 10, "passwd revokes sessions")

    let fresh = Sandbox()
    let created = fresh.vault(["init", "--kdf", "test", "--no-biometry"], pin: ["111100"])
    XCTAssertEqual(created.stdout, [], "the recovery code never goes to standard output")
    XCTAssertEqual(created.errorLines.count, 5)
    let code = created.errorLines[2]
    XCTAssertEqual(code.count, 44)
    let other = Sandbox()
    other.environment["VAULT_PATH"] = fresh.vaultPath
    let elsewhere = other.vault(["list"], pin: ["111100"])
    XCTAssertEqual(elsewhere.status, 11, "another device secret")
    XCTAssertEqual(
      elsewhere.errorLines,
      [
        "vault: error: the PIN of this vault is bound to another device (a copied vault, or the"
          + " device state was reset); no attempt was counted",
        "vault: hint: set a PIN for this device with 'vault recover'",
      ])
    XCTAssertEqual(other.vault(["recover"], pin: ["WRONG-CODE", "222200"]).status, 5)
    let recovered = other.vault(["recover"], pin: [code.lowercased(), "222200"])
    XCTAssertEqual(recovered.status, 0, recovered.stderrText)
    XCTAssertEqual(other.vault(["list"], pin: ["222200"]).status, 0)
  }

  func testStatusWithoutUnlocking() {
    let text = box.vault(["status"]).stdoutText
    XCTAssertTrue(text.hasPrefix("vault:            \(box.vaultPath)\nformat:           2\n"), text)
    XCTAssertTrue(
      text.contains(
        "kdf:              Argon2id test (1 pass, 8 KiB, TEST ONLY: no brute-force protection)\n")
    )
    XCTAssertTrue(text.contains("PIN:              no delay (0 consecutive wrong)\n"))
    XCTAssertTrue(text.contains("session:          none\n"))
  }

  func testVersionAndUsageErrors() {
    XCTAssertEqual(box.vault(["--version"]).stdoutText, "vault 0.12.0\n")
    let typo = box.vault(["add", "--forse", "x"])
    XCTAssertEqual(typo.status, 64)
    XCTAssertEqual(
      typo.errorLines,
      [
        "vault: error: unknown option '--forse'", "vault: hint: did you mean '--force'?",
        "Usage: vault add [--force] [--multiline] [--guard] NAME",
      ])
    XCTAssertEqual(
      box.vault(["lsit"]).errorLines.prefix(2),
      ["vault: error: unknown command 'lsit'", "vault: hint: did you mean 'list'?"])
    XCTAssertEqual(box.vault(["get"]).errorLines.first, "vault: error: missing argument NAME")
    XCTAssertEqual(
      box.vault(["init", "--kdf", "fast"], pin: ["123400"]).errorLines,
      [
        "vault: error: invalid value 'fast' for --kdf (interactive, moderate or sensitive)",
        "Usage: vault init [--kdf PROFILE] [--no-biometry]",
      ])
  }
}
