import Foundation
import VaultFormat
import VaultTestSupport
import XCTest

/// `vault import` of the real samples (pass 1.7.4, Debian's gopass, keepassxc-cli 2.7.4) and
/// those written from 1Password's documentation and vault's own CSV, through the built binary.
final class ImportFormatsCLITests: XCTestCase {
  var box: Sandbox!
  var session: [String: String] = [:]

  /// `Tests/VaultTransferTests/Samples`.
  static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("VaultTransferTests/Samples").path

  override func setUp() {
    box = Sandbox()
    session = box.pinOnlySession()
  }

  override func tearDown() {
    _ = box.shell("gpgconf --homedir \"$HOME/gnupg\" --kill gpg-agent 2>/dev/null", env: session)
    box = nil
  }

  /// The session, and a private copy of the samples' test GnuPG home as GNUPGHOME.
  func withGnuPG() -> [String: String] {
    let copied = box.shell(
      "cp -r \"$SAMPLES/gnupg\" \"$HOME/gnupg\" && chmod 700 \"$HOME/gnupg\"",
      env: ["SAMPLES": Self.samples])
    XCTAssertEqual(copied.status, 0, copied.stderrText)
    return session.merging(["GNUPGHOME": box.home + "/gnupg"]) { $1 }
  }

  func testAPassStoreComesInByteForByte() {
    let env = withGnuPG()
    let result = box.vault(["import", "--from", "pass", Self.samples + "/pass"], env: env)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(result.stderrText, "Imported 8 entries and 0 journal entries.\n")
    XCTAssertEqual(
      box.vault(["list"], env: session).stdoutText,
      "a/b/c/deep\nbin/blob\ncrlf/windows\nempty-password\nmail/work\nnotes/multi line\n"
        + "unicode/café ☕\nweb/example.org\n")
    XCTAssertEqual(
      box.vault(["get", "bin/blob"], env: session).stdout,
      [0xFF, 0xFE, 0x00, 0x01] + Array("binary".utf8) + [0x80])
    XCTAssertEqual(
      box.vault(["get", "crlf/windows"], env: session).stdout, Array("pw\r\nuser: win\r\n".utf8))
    XCTAssertEqual(
      box.vault(["get", "mail/work", "--field", "username"], env: session).stdoutText, "ada")
    XCTAssertEqual(box.vault(["get", "empty-password", "--line", "1"], env: session).stdout, [])
    XCTAssertEqual(box.vault(["otp", "web/example.org"], env: session).status, 0)
  }

  /// Without gpg on PATH a password store cannot be read: 127, as a missing program is, before
  /// any prompt, and nothing is written.
  func testAPassStoreWithoutGPGExits127() {
    let env = withGnuPG().merging(["PATH": "/nonexistent"]) { $1 }
    let result = box.vault(["import", "--from", "pass", Self.samples + "/pass"], env: env)
    XCTAssertEqual(result.status, 127, result.stderrText)
    XCTAssertEqual(
      result.stderrText, "vault: error: 'gpg' was not found on PATH; nothing was read\n")
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "")
  }

  func testAGopassStoreAndWhatIsNotAFolder() {
    let env = withGnuPG()
    let result = box.vault(["import", "--from", "gopass", Self.samples + "/gopass"], env: env)
    XCTAssertEqual(result.status, 0, result.stderrText)
    XCTAssertEqual(
      box.vault(["list"], env: session).stdoutText,
      "bin/key\nservers/db\nsingle\nteam x/résumé\n")
    XCTAssertEqual(
      box.vault(["get", "servers/db", "--field", "host"], env: session).stdoutText,
      "db.example.org:5432")
    let file = box.vault(
      ["import", "--from", "pass", Self.samples + "/keepass/export.csv"], env: env)
    XCTAssertEqual(file.status, 5)
    XCTAssertEqual(
      file.stderrText,
      "vault: error: \(Self.samples)/keepass/export.csv is not a folder; pass and gopass read a"
        + " password-store folder such as ~/.password-store\n")
  }

  /// Each export sample holds a duplicate name, as KeePass and 1Password allow: the import
  /// names both places and writes nothing.
  func testDuplicatesInTheExportSamplesAreRefusedWithBothPlaces() {
    for (format, file, message) in [
      (
        "keepass-xml", "keepass/export.xml",
        "line 203: the name 'Email/Same title' is already given at line 160"
      ),
      (
        "keepass-csv", "keepass/export.csv",
        "line 5: the name 'Email/Same title' is already given at line 4"
      ),
      (
        "1password-csv", "1password/export.csv",
        "line 8: the name 'Forum' is already given at line 2"
      ),
      ("csv", "csv/entries.csv", "line 15: the name 'mail/work' is already given at line 2"),
    ] {
      let result = box.vault(["import", "--from", format, Self.samples + "/" + file], env: session)
      XCTAssertEqual(result.status, 5, format)
      XCTAssertEqual(
        result.stderrText,
        "vault: error: \(message)\nvault: hint: --rename-duplicates imports each later one as"
          + " 'NAME (2)', 'NAME (3)', ...\n", format)
    }
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "")
  }

  /// From the new-user review: a sample with one title twice can come in.
  ///
  /// Every sample of a tool that allows one title twice failed its first import.
  /// `--rename-duplicates` names each later one `NAME (2)`, `NAME (3)`, ...
  /// (skipping names the source gives), says which, and a dry run says the same.
  func testRenameDuplicatesNamesLaterItemsAndSaysSo() throws {
    let dry = box.vault(
      [
        "import", "--from", "keepass-xml", "--rename-duplicates", "--dry-run",
        Self.samples + "/keepass/export.xml",
      ], env: session)
    XCTAssertEqual(dry.status, 0, dry.stderrText)
    XCTAssertEqual(
      dry.stderrText,
      "line 203: 'Email/Same title' is an earlier item's name too; would be imported as"
        + " 'Email/Same title (2)'\nWould import 7 entries and 0 journal entries; nothing was"
        + " written.\n")
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "")
    let xml = box.vault(
      [
        "import", "--from", "keepass-xml", "--rename-duplicates",
        Self.samples + "/keepass/export.xml",
      ], env: session)
    XCTAssertEqual(xml.status, 0, xml.stderrText)
    XCTAssertEqual(
      xml.stderrText,
      "line 203: 'Email/Same title' is an earlier item's name too; imported as"
        + " 'Email/Same title (2)'\nImported 7 entries and 0 journal entries.\n")
    XCTAssertEqual(
      box.vault(["get", "Email/Same title (2)"], env: session).stdoutText,
      "second\nusername: other\n")
    // Three of one name, and a name the source gives itself, in jsonl: that name stays the
    // item's own (the second review found it renamed, and a false message about it).
    let lines = [
      #"{"name":"a","content":"1\n"}"#, #"{"name":"a","content":"2\n"}"#,
      #"{"name":"a (2)","content":"3\n"}"#, #"{"name":"a","content":"4\n"}"#,
    ]
    let jsonl = box.vault(
      ["import", "--from", "jsonl", "--rename-duplicates", "-"],
      stdin: Array((lines.joined(separator: "\n") + "\n").utf8), env: session)
    XCTAssertEqual(jsonl.status, 0, jsonl.stderrText)
    XCTAssertEqual(
      jsonl.stderrText,
      "line 2: 'a' is an earlier item's name too; imported as 'a (3)'\n"
        + "line 4: 'a' is an earlier item's name too; imported as 'a (4)'\n"
        + "Imported 4 entries and 0 journal entries.\n")
    for (name, content) in [("a", "1\n"), ("a (3)", "2\n"), ("a (2)", "3\n"), ("a (4)", "4\n")] {
      XCTAssertEqual(box.vault(["get", name], env: session).stdoutText, content, name)
    }
  }

  /// From the new-user review: KeePassXC's CSV is not read as 1Password's.
  ///
  /// It has every column 1Password's requires, and read as 1Password's it lost its folders and kept its recycle bin. It is refused, naming the
  /// right format; nothing is written.
  func testAKeePassXCCSVIsNotReadAsA1PasswordCSV() {
    let result = box.vault(
      ["import", "--from", "1password-csv", Self.samples + "/keepass/export.csv"], env: session)
    XCTAssertEqual(result.status, 5, result.stderrText)
    XCTAssertEqual(
      result.stderrText,
      "vault: error: line 1: the header has a 'Group' column, which 1Password's CSV has not: is"
        + " this a KeePassXC CSV export? (import it with --from keepass-csv)\n")
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "")
  }

  /// The KeePassXC samples with their one duplicate title changed (by `sed`, as a user would):
  /// groups become folders below the root, the Recycle Bin stays out.
  func testTheKeePassXCSamplesComeInOnceTheirNamesAreDistinct() {
    let changed = box.shell(
      """
      sed '229s/Same title/Other title/' "$SAMPLES/keepass/export.xml" > k.xml
      sed '5s/"Same title","other"/"Other title","other"/' "$SAMPLES/keepass/export.csv" > k.csv
      """, env: ["SAMPLES": Self.samples])
    XCTAssertEqual(changed.status, 0, changed.stderrText)
    let xml = box.vault(["import", "--from", "keepass-xml", box.home + "/k.xml"], env: session)
    XCTAssertEqual(xml.status, 0, xml.stderrText)
    XCTAssertEqual(xml.stderrText, "Imported 7 entries and 0 journal entries.\n")
    XCTAssertEqual(
      box.vault(["list"], env: session).stdoutText,
      "Bank/Card\nEmail/Other title\nEmail/Personal\nEmail/Same title\nEmail/Work/Mail, main\n"
        + "Top level\nÜnïcode/Café ☕\n")
    XCTAssertEqual(
      box.vault(["get", "Email/Other title"], env: session).stdoutText, "second\nusername: other\n")
    let csv = box.vault(
      ["import", "--from", "keepass-csv", "--force", box.home + "/k.csv"], env: session)
    XCTAssertEqual(csv.status, 0, csv.stderrText)
    XCTAssertEqual(
      csv.stderrText, "Imported 7 entries (7 replacing existing ones) and 0 journal entries.\n")
    // The version the csv replaced is kept: revision 1 (from the xml) under revision 2.
    let history = box.vault(["history", "Top level"], env: session).stdoutText
      .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    XCTAssertEqual(history.map { $0.first }, ["2", "1"])
    XCTAssertEqual(
      history.map { $0.dropFirst(2).prefix(3).joined(separator: " ") },
      [
        "11 bytes import", "11 bytes import",
      ])
  }
}

extension ImportFormatsCLITests {
  /// An item with only a title (a KeePass entry with an attachment alone, a 1Password Wi-Fi
  /// placeholder) keeps its name as one empty line, as a Bitwarden login without a password does.
  func testAnItemWithOnlyATitleKeepsItsName() {
    let made = box.shell(
      """
      printf '"Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"\\n"Root","ok","","pw","","","","0","",""\\n"Root","placeholder","","","","","","0","",""\\n' > kp.csv
      printf 'Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,Notes\\nWi-Fi,,,,,false,false,,\\n' > op.csv
      """)
    XCTAssertEqual(made.status, 0)
    XCTAssertEqual(
      box.vault(["import", "--from", "keepass-csv", box.home + "/kp.csv"], env: session).status, 0)
    XCTAssertEqual(
      box.vault(["import", "--from", "1password-csv", box.home + "/op.csv"], env: session).status,
      0)
    XCTAssertEqual(box.vault(["get", "placeholder"], env: session).stdout, [0x0A])
    XCTAssertEqual(box.vault(["get", "Wi-Fi"], env: session).stdout, [0x0A])
    XCTAssertEqual(box.vault(["get", "ok"], env: session).stdout, Array("pw\n".utf8))
  }

  /// A file name with an escape sequence, in an error shown on a terminal, is masked like every
  /// stored name (it would set the window title and clear the screen).
  func testAFileNameInAnErrorActsNotOnTheTerminal() {
    let env = withGnuPG()
    let result = box.shell(
      """
      mkdir store && echo test@vault.invalid > store/.gpg-id
      : > plain
      gpg --batch -q --trust-model always -e -r test@vault.invalid -o "$(printf 'store/x\\033]0;pwned\\007y.gpg')" plain
      script -q -c 'vault import --from pass --dry-run store' /dev/null
      """, env: env)
    XCTAssertFalse(result.stdout.contains(0x1B), result.stdoutText)
    XCTAssertTrue(result.stdoutText.hasPrefix("vault: error: file x"), result.stdoutText)
    XCTAssertTrue(result.stdoutText.contains("y.gpg: "), result.stdoutText)
  }
}

extension LargeContentCLITests {
  func testExportOutputDashIsRefused() {
    let result = box.vault(
      ["export", "--to", "jsonl", "--plaintext", "--output", "-"], env: session)
    XCTAssertEqual(result.status, 64)
    XCTAssertTrue(
      result.stderrText.hasPrefix("vault: error: --output - would make a file named '-'\n"),
      result.stderrText)
    XCTAssertFalse(FileManager.default.fileExists(atPath: box.home + "/-"))
  }
}

extension ImportFormatsCLITests {
  /// From the new-user review: an output never replaces the device state.
  ///
  /// `export --output …/device.json --force` replaced the device state, and the vault no
  /// longer opened. Export and inject refuse every file of vault's own
  /// (exit 5), under any name, and leave it as it was.
  func testAnOutputIsNeverTheDeviceStateItsLockOrASessionFile() throws {
    XCTAssertEqual(
      box.vault(["add", "mail"], stdin: Array("hunter2\n".utf8), env: session).status, 0)
    let state = box.home + "/state/vault"
    let device = try Data(contentsOf: URL(fileURLWithPath: state + "/device.json"))
    XCTAssertEqual(link(state + "/device.json", box.home + "/other-name.json"), 0)
    XCTAssertEqual(
      symlink(
        URL(fileURLWithPath: box.vaultPath).deletingLastPathComponent().path, box.home + "/linked"),
      0)
    let cases: [(String, String)] = [
      (state + "/device.json", "is vault's device state"),
      (box.home + "/other-name.json", "is vault's device state"),
      (state + "/device.lock", "is vault's device lock"),
      (state + "/new.jsonl", "is in vault's device-state folder"),
      (box.home + "/run/vault/agent.lock", "is in vault's session folder"),
      // From the second attack review: SQLite's side files by name, before they exist, directly
      // and through a linked folder (SQLite would replay or delete them at the next open).
      (box.vaultPath + "-journal", "is the vault's journal"),
      (box.vaultPath + "-wal", "is the vault's journal"),
      (box.home + "/linked/vault.db-shm", "is the vault's journal"),
      (box.home + "/run/vault", "is vault's session folder"),
      (box.vaultPath + ".format1", "is the copy a format upgrade keeps of the vault"),
    ]
    for (path, what) in cases {
      for command in [
        ["export", "--to", "jsonl", "--plaintext", "--force", "--output", path],
        ["inject", "--force", "--output", path],
        ["backup", path],
      ] {
        let result = box.vault(command, stdin: Array("x\n".utf8), env: session)
        XCTAssertEqual(result.status, 5, "\(command) \(result.stderrText)")
        XCTAssertEqual(
          result.stderrText,
          "vault: error: \(path) \(what), which the output would replace or damage; nothing"
            + " was written\n", "\(command)")
      }
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: state + "/device.json")), device)
    XCTAssertFalse(FileManager.default.fileExists(atPath: state + "/new.jsonl"))
    for side in ["-journal", "-wal", "-shm"] {
      XCTAssertFalse(FileManager.default.fileExists(atPath: box.vaultPath + side), side)
    }
    // From the attack review: a missing folder was refused only after the PIN (exit 1); now
    // before any prompt, without a session too (no PIN is given here).
    for command in [
      ["export", "--to", "vault", "--output", "/nonexistent/dir/x"],
      ["inject", "--output", "/nonexistent/dir/x"],
    ] {
      let result = box.vault(command, stdin: Array("x\n".utf8))
      XCTAssertEqual(result.status, 5, "\(command) \(result.stderrText)")
      XCTAssertEqual(
        result.stderrText,
        "vault: error: /nonexistent/dir/x cannot be made: /nonexistent/dir is not a folder this"
          + " user can write in; nothing was written\n", "\(command)")
    }
    XCTAssertEqual(box.vault(["get", "mail"], env: session).stdoutText, "hunter2\n")
    // The session folder's own name, when it does not exist (a file there would stop every
    // later unlock).
    try FileManager.default.removeItem(atPath: box.home + "/run/vault")
    let folder = box.vault(
      ["inject", "--output", box.home + "/run/vault"], stdin: Array("x\n".utf8))
    XCTAssertEqual(folder.status, 5, folder.stderrText)
    XCTAssertEqual(
      folder.stderrText,
      "vault: error: \(box.home)/run/vault is vault's session folder, which the output would"
        + " replace or damage; nothing was written\n")
  }

  /// From the attack on import and export.
  func testExportRefusesTheVaultFileANamedFIFOAndUTF16XMLIsRefused() {
    XCTAssertEqual(
      box.vault(["add", "mail"], stdin: Array("hunter2\n".utf8), env: session).status, 0)
    let own = box.vault(
      ["export", "--to", "jsonl", "--plaintext", "--force", "--output", box.vaultPath], env: session
    )
    XCTAssertEqual(own.status, 5)
    XCTAssertEqual(
      own.stderrText,
      "vault: error: \(box.vaultPath) is the vault file itself, which the output would replace"
        + " or damage; nothing was written\n")
    XCTAssertEqual(box.vault(["get", "mail"], env: session).stdoutText, "hunter2\n")
    let fifo = box.shell(
      """
      mkfifo named
      (cat named > stolen &)
      vault export --to jsonl --plaintext > named; echo "export $?"
      sleep 0.2; wc -c < stolen
      vault export --to jsonl --plaintext | wc -c
      """, env: session)
    // {"name":"mail","content":"hunter2\\n"} and its newline: 38 bytes.
    XCTAssertEqual(fifo.stdoutText, "export 64\n0\n38\n", fifo.stderrText)
    let xml = box.shell(
      """
      python3 -c 'import sys; sys.stdout.buffer.write(("<?xml version=\\"1.0\\" encoding=\\"UTF-16\\"?><!DOCTYPE x [<!ENTITY m \\"M\\">]><KeePassFile/>").encode("utf-16"))' > u16.xml
      vault import --from keepass-xml u16.xml
      """, env: session)
    XCTAssertEqual(xml.status, 5)
    XCTAssertEqual(
      xml.stderrText,
      "vault: error: the document is not UTF-8 (it holds a NUL byte, as UTF-16 does); KeePass XML"
        + " exports are UTF-8\n")
  }
}

extension ImportFormatsCLITests {
  /// A store file that decrypts to more than 16 MiB (a few hundred bytes of compressed zeros) is
  /// refused as soon as gpg's output passes the bound, naming the file.
  func testAStoreFileThatDecryptsTooLargeIsRefused() {
    let env = withGnuPG()
    let result = box.shell(
      """
      mkdir bomb && echo test@vault.invalid > bomb/.gpg-id
      head -c 20971520 /dev/zero | gpg --batch -q --trust-model always -r test@vault.invalid -z 9 -e -o bomb/z.gpg
      wc -c < bomb/z.gpg | awk '{ print ($1 < 100000) }'
      vault import --from pass bomb; echo "import $?"
      """, env: env)
    XCTAssertEqual(
      result.stdoutText, "1\nimport 5\n", result.stderrText)
    XCTAssertTrue(
      result.stderrText.hasSuffix(
        "z.gpg: its plaintext is larger than 16777216 bytes, more than vault holds in memory;"
          + " nothing was written\n"), result.stderrText)
  }
}
