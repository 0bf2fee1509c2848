import Foundation
import VaultCore
import VaultTransfer
import XCTest

@testable import VaultCLI
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// `vault export` through the built binary: refusals before any prompt, private output files,
/// the passphrase on a terminal, and exports read back byte for byte.
final class ExportCLITests: XCTestCase {
  static let passphrase = "correct horse battery staple"
  static let work = Array("hunter2\nusername: ada\n".utf8)
  static let blob: [UInt8] = [0xFF, 0x00, 0x0D, 0x0A, 0x41]

  var box: Sandbox!

  /// A PIN-only vault with three entries and a journal entry.
  override func setUp() {
    box = Sandbox()
    box.initPINOnly()
    for (name, content) in [("mail/work", Self.work), ("bin/blob", Self.blob), ("plain", [0x78])] {
      XCTAssertEqual(box.vaultPIN(["add", name], stdin: content).status, 0)
    }
    XCTAssertEqual(box.vault(["journal"], stdin: Array("Walked.\n".utf8)).status, 0)
  }

  override func tearDown() { box = nil }

  func path(_ name: String) -> String { box.home + "/" + name }

  func mode(_ name: String) -> mode_t? {
    var info = stat()
    guard stat(path(name), &info) == 0 else { return nil }
    return info.st_mode & 0o7777
  }

  func testAPlaintextFormatIsRefusedWithoutPlaintextBeforeAnyPrompt() {
    for format in ["jsonl", "csv", "bitwarden-json", "keepass-xml"] {
      let result = box.vault(["export", "--to", format, "--output", "out"])
      XCTAssertEqual(result.status, 64, format)
      XCTAssertEqual(
        result.errorLines.prefix(2),
        [
          "vault: error: --to \(format) writes every secret in the clear; give --plaintext to mean"
            + " it",
          "vault: hint: --to vault writes an encrypted export, protected by a passphrase",
        ])
      XCTAssertTrue(result.stdout.isEmpty)
      XCTAssertNil(mode("out"), format)
    }
    XCTAssertEqual(box.vault(["export", "--to", "vault", "--plaintext"]).status, 64)
    XCTAssertEqual(box.vault(["export", "--to", "csv", "--plaintext", "--force"]).status, 64)
    XCTAssertEqual(box.vault(["export", "--to", "csv", "--plaintext", "--kdf", "test"]).status, 64)
    let noTest = box.vault(
      ["export", "--to", "vault", "--kdf", "test", "--output", "e"],
      env: [KDFProfile.testSwitch: "0"])
    XCTAssertEqual(noTest.status, 64)
    XCTAssertEqual(
      box.vault(["export"]).errorLines.first,
      "vault: error: --to FORMAT is needed (vault, bitwarden-json, keepass-xml, jsonl or csv), or --verify PATH"
    )
  }

  func testCSVGoesToANewFileOfMode0600ByteForByte() {
    let result = box.vaultPIN(["export", "--to", "csv", "--plaintext", "--output", "out.csv"])
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertTrue(result.stdout.isEmpty)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: note: the journal (1 entry) was not exported: only --to vault carries it",
        "exported 3 entries and 0 journal entries to out.csv",
      ])
    XCTAssertEqual(mode("out.csv"), 0o600)
    let expected =
      "name,content_b64\r\nbin/blob,\(Data(Self.blob).base64EncodedString())\r\n"
      + "mail/work,\(Data(Self.work).base64EncodedString())\r\nplain,eA==\r\n"
    XCTAssertEqual(FileManager.default.contents(atPath: path("out.csv")), Data(expected.utf8))
  }

  func testAnExistingFileIsReplacedOnlyWithForce() throws {
    try Data("old".utf8).write(to: URL(fileURLWithPath: path("out.jsonl")))
    chmod(path("out.jsonl"), 0o644)
    let refused = box.vaultPIN(["export", "--to", "jsonl", "--plaintext", "--output", "out.jsonl"])
    XCTAssertEqual(refused.status, 5)
    XCTAssertEqual(
      refused.errorLines, ["vault: error: out.jsonl exists; give --force to replace it"])
    XCTAssertEqual(FileManager.default.contents(atPath: path("out.jsonl")), Data("old".utf8))
    let forced = box.vaultPIN(
      ["export", "--to", "jsonl", "--plaintext", "--output", "out.jsonl", "--force", "mail/"])
    XCTAssertEqual(forced.status, 0, forced.stderrText)
    XCTAssertEqual(forced.errorLines, ["exported 1 entry and 0 journal entries to out.jsonl"])
    XCTAssertEqual(mode("out.jsonl"), 0o600)
    XCTAssertEqual(
      String(
        decoding: FileManager.default.contents(atPath: path("out.jsonl")) ?? Data(), as: UTF8.self),
      "{\"name\":\"mail/work\",\"content\":\"hunter2\\nusername: ada\\n\"}\n")
    try FileManager.default.createDirectory(atPath: path("dir"), withIntermediateDirectories: false)
    let folder = box.vaultPIN([
      "export", "--to", "jsonl", "--plaintext", "--output", "dir", "--force",
    ])
    XCTAssertEqual(
      folder.errorLines.first, "vault: error: dir is not a regular file; refusing to replace it")
  }

  func testPlaintextGoesToAPipeButNotToAFileTheShellOpened() throws {
    let piped = box.vaultPIN(["export", "--to", "jsonl", "--plaintext", "plain"])
    XCTAssertEqual(piped.status, 0, piped.stderrText)
    XCTAssertEqual(piped.stdoutText, "{\"name\":\"plain\",\"content\":\"x\"}\n")
    let redirected = box.shell(
      "echo \"$PIN\" > pin && vault export --to csv --plaintext --pin-fd 3 3<pin > out.csv")
    XCTAssertEqual(redirected.status, 64)
    XCTAssertEqual(
      redirected.errorLines.first,
      "vault: error: standard output is not a pipe; a plaintext export goes to a file only through"
        + " --output, which makes it private (mode 0600)")
    XCTAssertEqual(FileManager.default.contents(atPath: path("out.csv")), Data())
    // The encrypted format may go to any file that is not a terminal.
    let encrypted = box.shell(
      "printf '%s\\n%s\\n' '\(Self.passphrase)' \"$PIN\" > lines"
        + " && vault export --to vault --kdf test --pin-fd 3 3<lines > e.vx")
    XCTAssertEqual(encrypted.status, 0, encrypted.stderrText)
    XCTAssertEqual(
      encrypted.errorLines, ["exported 3 entries and 1 journal entry to standard output"])
    XCTAssertEqual(try read("e.vx").entries.map(\.name), ["bin/blob", "mail/work", "plain"])
  }

  func read(_ name: String, passphrase: String = passphrase) throws -> TransferBatch {
    let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path(name)))
    return try VaultExportReader.read(
      .encrypted(SecureBytes(copying: [UInt8](bytes))) {
        SecureBytes(copying: Array(passphrase.utf8))
      })
  }

  func exportVault(_ name: String, _ extra: [String] = [], env: [String: String] = [:])
    -> Subprocess.Result
  {
    box.vault(
      ["export", "--to", "vault", "--kdf", "test", "--output", name] + extra,
      pin: [Self.passphrase, Sandbox.pin], env: env)
  }

  func testAVaultExportReadsBackByteForByteAndVerifies() throws {
    XCTAssertEqual(box.vaultPIN(["add", "g/guarded", "--guard"], stdin: [0x67]).status, 0)
    let made = exportVault("e.vx")
    XCTAssertEqual(made.status, 0, made.stderrText)
    XCTAssertEqual(made.errorLines, ["exported 4 entries and 1 journal entry to e.vx"])
    XCTAssertEqual(mode("e.vx"), 0o600)
    let batch = try read("e.vx")
    XCTAssertEqual(batch.entries.map(\.name), ["bin/blob", "g/guarded", "mail/work", "plain"])
    XCTAssertEqual(batch.entries.map(\.guarded), [false, true, false, false])
    for entry in batch.entries {
      let stored = box.vaultPIN(["get", entry.name])
      XCTAssertEqual(entry.content.unprotectedBytes, stored.stdout, entry.name)
    }
    XCTAssertEqual(batch.journal.map { $0.text.unprotectedBytes }, [Array("Walked.\n".utf8)])
    let verified = box.vault(["export", "--verify", "e.vx"], pin: [Self.passphrase])
    XCTAssertEqual(verified.status, 0, verified.stderrText)
    XCTAssertEqual(
      verified.errorLines,
      [
        "e.vx: a vault export of 4 entries (1 guarded, \(Self.work.count + Self.blob.count + 2)"
          + " content bytes) and 1 journal entry, Argon2id test; every record verified"
      ])
    XCTAssertTrue(verified.stdout.isEmpty)
  }

  func testAWrongPassphraseACutFileAndAnEditedOneAreRefusedApart() throws {
    XCTAssertEqual(exportVault("e.vx").status, 0)
    let wrong = box.vault(["export", "--verify", "e.vx"], pin: ["correct horse battery stapler"])
    XCTAssertEqual(wrong.status, 11)
    XCTAssertEqual(
      wrong.errorLines,
      [
        "vault: error: wrong passphrase for the export (nothing was read)",
        "vault: hint: it is the passphrase typed twice when the export was made",
      ])
    let bytes = try XCTUnwrap(FileManager.default.contents(atPath: path("e.vx")))
    try bytes.prefix(bytes.count - 1).write(to: URL(fileURLWithPath: path("cut.vx")))
    let cut = box.vault(["export", "--verify", "cut.vx"], pin: [Self.passphrase])
    XCTAssertEqual(cut.status, 17)
    XCTAssertEqual(
      cut.errorLines,
      ["vault: error: integrity failure: message 0 of the export failed authentication"])
    try bytes.prefix(81).write(to: URL(fileURLWithPath: path("header.vx")))
    let header = box.vault(["export", "--verify", "header.vx"], pin: [Self.passphrase])
    XCTAssertEqual(header.status, 17)
    XCTAssertEqual(
      header.errorLines,
      ["vault: error: integrity failure: the export is cut short: it ends before its first message"]
    )
    try Data("name,content\n".utf8).write(to: URL(fileURLWithPath: path("other.csv")))
    let other = box.vault(["export", "--verify", "other.csv"], pin: [Self.passphrase])
    XCTAssertEqual(other.status, 5)
    XCTAssertEqual(
      other.errorLines,
      ["vault: error: this is not a vault export (it does not start with 'VAULTEXP')"])
    XCTAssertEqual(box.vault(["export", "--verify", "e.vx", "--to", "csv"]).status, 64)
  }

  /// Fields out of the order the slots take still go into the slots for a manager being left
  /// for (the user name, the URL), the others as custom fields, reshaped and named as such.
  func testFieldsOutOfOrderStillFillTheSlots() throws {
    let content = Array("pw\nzeta: 1\nusername: u\nalpha: 2\nurl: https://a\nnotes line\n".utf8)
    XCTAssertEqual(box.vaultPIN(["add", "site"], stdin: content).status, 0)
    let result = box.vaultPIN(
      ["export", "--to", "bitwarden-json", "--plaintext", "--output", "b.json", "site"])
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(
      result.errorLines,
      [
        "vault: note: 1 entry reads back from bitwarden-json in the fields convention's layout,"
          + " not byte for byte: 'site'",
        "exported 1 entry and 0 journal entries to b.json",
      ])
    let json = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("b.json"))))
        as? [String: Any])
    let item = try XCTUnwrap((json["items"] as? [[String: Any]])?.first)
    let login = try XCTUnwrap(item["login"] as? [String: Any])
    XCTAssertEqual(login["username"] as? String, "u")
    XCTAssertEqual(login["password"] as? String, "pw")
    XCTAssertEqual(
      (login["uris"] as? [[String: Any]])?.compactMap { $0["uri"] as? String }, ["https://a"])
    XCTAssertEqual(
      (item["fields"] as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["zeta", "alpha"])
    XCTAssertEqual(item["notes"] as? String, "notes line")
  }

  /// An item with only a name (one empty line, as the readers make it) goes to Bitwarden and
  /// comes back; an export cut short inside its header is an integrity failure (17), not a
  /// version (from the new-user review).
  func testANameOnlyItemLeavesAndComesBackAndAShortExportIs17() throws {
    XCTAssertEqual(box.vaultPIN(["add", "only/name"], stdin: [0x0A]).status, 0)
    let made = box.vaultPIN(
      ["export", "--to", "bitwarden-json", "--plaintext", "--output", "b.json", "only/"])
    XCTAssertEqual(made.status, 0, made.stderrText)
    let target = Sandbox()
    let session = target.pinOnlySession()
    let back = target.vault(["import", "--from", "bitwarden-json", path("b.json")], env: session)
    XCTAssertEqual(back.status, 0, back.stderrText)
    XCTAssertEqual(target.vault(["get", "only/name"], env: session).stdout, [0x0A])
    XCTAssertTrue(
      FileManager.default.createFile(atPath: path("short.vx"), contents: Data("VAULTEXP".utf8)))
    let short = box.vault(["export", "--verify", "short.vx"])
    XCTAssertEqual(short.status, 17, short.stderrText)
    XCTAssertEqual(
      short.errorLines,
      ["vault: error: integrity failure: the export is cut short inside its header"])
  }

  /// Review of 0.11.0, item 19: in a session of a PIN-only vault, the guarded entries of an
  /// export need the PIN once (their fresh check); `--skip-guarded` leaves them out, named.
  func testASessionAsksThePINOnceForGuardedEntriesOrSkipsThem() throws {
    XCTAssertEqual(box.vaultPIN(["add", "g/guarded", "--guard"], stdin: [0x67]).status, 0)
    XCTAssertEqual(box.vaultPIN(["add", "g/other", "--guard"], stdin: [0x68]).status, 0)
    let token = box.vaultPIN(["unlock", "--raw"]).stdoutText.trimmingCharacters(in: .newlines)
    let session = ["VAULT_SESSION": token]
    let unasked = box.vault(["export", "--to", "jsonl", "--plaintext", "g/"], env: session)
    XCTAssertEqual(unasked.status, 10, unasked.stderrText)
    XCTAssertEqual(unasked.stdoutText, "")
    XCTAssertEqual(
      unasked.errorLines,
      [
        "vault: error: no terminal to ask for the PIN and no --pin-fd",
        "vault: hint: run it on a terminal, or give the PIN with --pin-fd N",
      ])
    let withPIN = box.vaultPIN(["export", "--to", "jsonl", "--plaintext", "g/"], env: session)
    XCTAssertEqual(withPIN.status, 0, withPIN.stderrText)
    XCTAssertEqual(
      withPIN.stdoutText,
      "{\"name\":\"g/guarded\",\"content\":\"g\"}\n{\"name\":\"g/other\",\"content\":\"h\"}\n")
    let skipped = box.vault(
      ["export", "--to", "jsonl", "--plaintext", "--skip-guarded", "g/"], env: session)
    XCTAssertEqual(skipped.status, 5, skipped.stderrText)
    XCTAssertEqual(skipped.stdoutText, "")
    XCTAssertEqual(
      skipped.errorLines,
      [
        "vault: note: 2 guarded entries were left out (--skip-guarded): 'g/guarded', 'g/other'",
        "vault: error: exported 0 entries and 0 journal entries to standard output; 2 entries were"
          + " left out (named above)",
      ])
  }

  func testALargeEntryIsStreamedOutAndTheFormatsForLeavingNameIt() throws {
    let big = [UInt8]((0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    XCTAssertEqual(box.vaultPIN(["add", "big"], stdin: big).status, 0)
    let jsonl = box.vaultPIN(["export", "--to", "jsonl", "--plaintext", "big"])
    XCTAssertEqual(jsonl.status, 0, jsonl.stderrText)
    XCTAssertEqual(
      jsonl.stdoutText,
      "{\"name\":\"big\",\"content_b64\":\"\(Data(big).base64EncodedString())\"}\n")
    let xml = box.vaultPIN(["export", "--to", "keepass-xml", "--plaintext", "--output", "k.xml"])
    XCTAssertEqual(xml.status, 5, xml.stderrText)
    XCTAssertEqual(
      xml.errorLines,
      [
        "vault: note: 'big' was left out: it is too large for keepass-xml (1500000 bytes; export it"
          + " with --to vault, which imports back at any size)",
        "vault: note: 'bin/blob' was left out: its content is not UTF-8 text XML 1.0 can carry (a"
          + " control character, or not UTF-8)",
        "vault: note: 1 entry reads back from keepass-xml in the fields convention's layout, not"
          + " byte for byte: 'plain'",
        "vault: note: the journal (1 entry) was not exported: only --to vault carries it",
        "vault: error: exported 2 entries and 0 journal entries to k.xml; 2 entries were left out"
          + " (named above)",
      ])
    XCTAssertTrue(FileManager.default.fileExists(atPath: box.home + "/k.xml"), "still written")
    XCTAssertEqual(exportVault("e.vx").status, 0)
    let batch = try read("e.vx")
    XCTAssertEqual(batch.entries.first { $0.name == "big" }?.content.unprotectedBytes, big)
  }
}

/// `vault export` on a terminal: the passphrase asked twice with echo off, and plaintext never
/// written to it.
final class ExportTerminalTests: XCTestCase {
  func drive(_ box: Sandbox, _ arguments: [String], script: [String]) throws -> TerminalTests.Run {
    let result = Subprocess.run(
      "/usr/bin/env",
      ["python3", "-c", TerminalTests.driver, Sandbox.binDirectory + "/vault"] + arguments,
      environment: box.environment, stdin: Array((script.joined(separator: "\n") + "\n").utf8),
      directory: box.home)
    XCTAssertEqual(result.status, 0, result.stderrText)
    return try JSONDecoder().decode(TerminalTests.Run.self, from: Data(result.stdout))
  }

  func testThePassphraseIsAskedTwiceWithEchoOffThenThePIN() throws {
    let box = Sandbox()
    box.initPINOnly()
    XCTAssertEqual(box.vaultPIN(["add", "a"], stdin: [0x61]).status, 0)
    let passphrase = ExportCLITests.passphrase
    let run = try drive(
      box, ["export", "--to", "vault", "--kdf", "test", "--output", "e.vx"],
      script: [
        "expect Passphrase for the export: ", "echo", "send \(passphrase)\\n",
        "expect Repeat the passphrase: ", "echo", "send \(passphrase)\\n", "expect PIN: ",
        "send \(Sandbox.pin)\\n", "expect exported",
      ])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertEqual(run.echoes, [false, false])
    XCTAssertFalse(run.output.contains(passphrase))
    XCTAssertTrue(run.output.contains("exported 1 entry and 0 journal entries to e.vx"), run.output)
    let verified = box.vault(["export", "--verify", "e.vx"], pin: [passphrase])
    XCTAssertEqual(verified.status, 0, verified.stderrText)

    let differ = try drive(
      box, ["export", "--to", "vault", "--kdf", "test", "--output", "f.vx"],
      script: [
        "expect Passphrase for the export: ", "send \(passphrase)\\n",
        "expect Repeat the passphrase: ", "send \(passphrase)!\\n",
      ])
    XCTAssertEqual(differ.status, 5)
    XCTAssertTrue(
      differ.output.contains("vault: error: the two passphrases differ; nothing was written"))
    XCTAssertFalse(differ.output.contains("PIN: "))
    XCTAssertFalse(FileManager.default.fileExists(atPath: box.home + "/f.vx"))
  }

  /// Review of 0.11.0, item 19: the PIN that stands in for the guarded entries' check of an
  /// export in a session says what it is for.
  func testThePINForGuardedEntriesSaysWhatItIsFor() throws {
    let box = Sandbox()
    box.initPINOnly()
    XCTAssertEqual(box.vaultPIN(["add", "g", "--guard"], stdin: [0x67]).status, 0)
    box.environment["VAULT_SESSION"] = box.vaultPIN(["unlock", "--raw"]).stdoutText
      .trimmingCharacters(in: .newlines)
    let run = try drive(
      box, ["export", "--to", "jsonl", "--plaintext", "--output", "g.jsonl"],
      script: [
        "expect PIN for 1 guarded entry to export: ", "echo", "send \(Sandbox.pin)\\n",
        "expect exported",
      ])
    XCTAssertEqual(run.status, 0, run.output)
    XCTAssertEqual(run.echoes, [false])
    XCTAssertEqual(
      try String(contentsOfFile: box.home + "/g.jsonl", encoding: .utf8),
      "{\"name\":\"g\",\"content\":\"g\"}\n")
  }

  func testNothingIsWrittenToATerminalAndNoPINIsAsked() throws {
    let box = Sandbox()
    box.initPINOnly()
    for format in ["jsonl", "vault"] {
      let run = try drive(
        box, ["export", "--to", format] + (format == "vault" ? [] : ["--plaintext"]),
        script: ["expect Usage"])
      XCTAssertEqual(run.status, 64, run.output)
      XCTAssertTrue(
        run.output.contains(
          "vault: error: standard output is a terminal; vault export writes only to a file or a"
            + " pipe"), run.output)
      XCTAssertFalse(run.output.contains("PIN: "))
    }
  }
}
