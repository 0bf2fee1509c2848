import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// The fields convention (`vault(1)` FIELDS) on exact bytes.
final class EntryFieldsTests: XCTestCase {
  private func fields(_ text: String) throws -> EntryFields {
    try EntryFields(SecureBytes(copying: Array(text.utf8)))
  }

  private func string(_ bytes: SecureBytes?) -> String? {
    bytes.map { String(decoding: $0.unprotectedBytes, as: UTF8.self) }
  }

  func testPasswordFieldsAndNotes() throws {
    let entry = try fields(
      "hunter2\nusername: alice\nurl: https://example.com:8443/a?b=c\n\nnotes here\nlast: x\n")
    XCTAssertEqual(string(entry.password), "hunter2")
    XCTAssertEqual(entry.keys, ["password", "username", "url", "last"])
    XCTAssertEqual(string(entry.value("url")), "https://example.com:8443/a?b=c")
    XCTAssertEqual(string(entry.value("USERNAME")), "alice")
    XCTAssertNil(entry.value("email"))
    XCTAssertEqual(string(entry.notes), "notes here")
    XCTAssertEqual(entry.lineCount, 6)
    XCTAssertEqual(string(entry.line(4)), "")
    XCTAssertNil(entry.line(7))
    XCTAssertNil(entry.line(0))
  }

  func testWhatIsNoField() throws {
    let entry = try fields(
      "user: first line is the password\nhttps://example.com\notpauth://totp/x?secret=A\n"
        + "two words: no\nkey:novalue\npassword: not a field\nempty:\n\tindented: no\n")
    XCTAssertEqual(string(entry.password), "user: first line is the password")
    XCTAssertEqual(entry.keys, ["password", "empty"])
    XCTAssertEqual(string(entry.value("empty")), "")
    XCTAssertEqual(
      string(entry.notes),
      "https://example.com\notpauth://totp/x?secret=A\ntwo words: no\nkey:novalue\n"
        + "password: not a field\n\tindented: no")
  }

  func testCRLFAndDuplicateKeys() throws {
    let entry = try fields("pw\r\nuser: a\r\nuser: b\r\nnote\r\n")
    XCTAssertEqual(string(entry.password), "pw")
    XCTAssertEqual(string(entry.value("user")), "a")
    XCTAssertEqual(entry.keys, ["password", "user"])
    XCTAssertEqual(string(entry.notes), "note")
    XCTAssertEqual(
      string(try entry.setting("url", to: SecureBytes(copying: Array("u".utf8)))),
      "pw\r\nuser: a\r\nuser: b\r\nurl: u\r\nnote\r\n")
    XCTAssertEqual(
      string(try entry.setting("user", to: SecureBytes(copying: Array("c".utf8)))),
      "pw\r\nuser: c\r\nuser: b\r\nnote\r\n", "a later line of the key is kept as it is")
    XCTAssertEqual(string(try entry.unsetting("user")), "pw\r\nnote\r\n")
  }

  func testJSON() throws {
    let entry = try fields("p\"w\\\nuser: a\tb\nnote 1\n\nnote 2\n")
    XCTAssertEqual(
      string(entry.json),
      #"{"password":"p\"w\\","fields":{"user":"a\tb"},"notes":"note 1\n\nnote 2"}"#)
    XCTAssertEqual(
      string(try fields("only\n").json), #"{"password":"only","fields":{},"notes":""}"#)
  }

  func testSettingKeepsEverythingElse() throws {
    let value = SecureBytes(copying: Array("new".utf8))
    XCTAssertEqual(string(try fields("pw").setting("user", to: value)), "pw\nuser: new")
    XCTAssertEqual(string(try fields("pw\n").setting("user", to: value)), "pw\nuser: new\n")
    XCTAssertEqual(
      string(try fields("pw\nnote\n").setting("user", to: value)), "pw\nuser: new\nnote\n")
    XCTAssertEqual(
      string(try fields("pw\na: 1\nnote\nb:  2\nmore").setting("c", to: value)),
      "pw\na: 1\nnote\nb:  2\nc: new\nmore")
    XCTAssertEqual(
      string(try fields("pw\nUser:  old\nnote").setting("user", to: value)),
      "pw\nUser:  new\nnote")
    XCTAssertEqual(
      string(try fields("old\nuser: a\n").setting("password", to: value)), "new\nuser: a\n")
    XCTAssertEqual(string(try fields("old").setting("PASSWORD", to: value)), "new")
    XCTAssertEqual(
      string(try fields("pw\nuser:\nnote").setting("user", to: value)), "pw\nuser: new\nnote",
      "an empty field gets the space its value needs")
    XCTAssertEqual(
      string(try fields("pw\r\nuser:\r\n").setting("user", to: value)), "pw\r\nuser: new\r\n")
    XCTAssertEqual(
      string(try fields("pw\nuser:\tx\n").setting("user", to: value)), "pw\nuser:\tnew\n")
  }

  func testUnsetting() throws {
    XCTAssertEqual(string(try fields("pw\nuser: a").unsetting("user")), "pw")
    XCTAssertEqual(string(try fields("pw\nuser: a\n").unsetting("user")), "pw\n")
    XCTAssertEqual(string(try fields("pw\nuser: a\nnote").unsetting("user")), "pw\nnote")
    XCTAssertNil(try fields("pw\nnote").unsetting("user"))
    XCTAssertThrowsError(try fields("pw\n").unsetting("password"))
  }

  /// `KEY: |` and `KEY: |-` with lines indented by two spaces after them are one field (YAML's
  /// literal block); set and unset take the whole block; without indented lines `|` is a value.
  func testBlocks() throws {
    let entry = try fields(
      "pw\nkey: |\n  line 1\n\n  line 3\nnote\ncert: |-\n  -----BEGIN\n    deeper\nafter: x\n")
    XCTAssertEqual(entry.keys, ["password", "key", "cert", "after"])
    XCTAssertEqual(string(entry.value("key")), "line 1\n")
    XCTAssertEqual(string(entry.value("cert")), "-----BEGIN\n  deeper")
    XCTAssertEqual(string(entry.notes), "  line 3\nnote", "blank lines at either end are no notes")
    XCTAssertEqual(
      string(entry.json),
      #"{"password":"pw","fields":{"key":"line 1\n","cert":"-----BEGIN\n  deeper","after":"x"},"#
        + #""notes":"  line 3\nnote"}"#)
    XCTAssertEqual(string(try fields("pw\nbar: |\nnote\n").value("bar")), "|")
    XCTAssertEqual(string(try fields("pw\nbar: |-\n").value("bar")), "|-")
    XCTAssertEqual(string(try fields("pw\nbar: |x\n  y\n").value("bar")), "|x")
    XCTAssertEqual(string(try fields("pw\r\nk: |\r\n  a\r\n  b\r\n").value("k")), "a\nb\n")
    XCTAssertEqual(string(try fields("pw\nk: |-\n  a\r\n  b").value("k")), "a\r\nb")
    let value = SecureBytes(copying: Array("one".utf8))
    XCTAssertEqual(
      string(try entry.setting("cert", to: value)),
      "pw\nkey: |\n  line 1\n\n  line 3\nnote\ncert: one\nafter: x\n")
    XCTAssertEqual(
      string(try fields("pw\nk: |-\n  a\n  b").setting("k", to: value)), "pw\nk: one")
    XCTAssertEqual(
      string(try fields("pw\nk: |-\n  a\n  b\n").setting("new", to: value)),
      "pw\nk: |-\n  a\n  b\nnew: one\n")
    XCTAssertEqual(
      string(try entry.unsetting("key")),
      "pw\n\n  line 3\nnote\ncert: |-\n  -----BEGIN\n    deeper\nafter: x\n")
    XCTAssertEqual(string(try fields("pw\nk: |-\n  a\n  b").unsetting("k")), "pw")
  }

  /// Setting many keys in one pass gives the bytes of setting them one after another.
  func testSettingManyIsSettingEachInTurn() throws {
    let contents = [
      "", "pw", "pw\n", "pw\nuser: a\nnote\n", "pw\r\nuser: a\r\nnote", "pw\nk: |-\n  a\n  b\nz: 1",
      "pw\nUser:\nurl: x\nnotes\nmore notes\n", "\nonly notes\n",
    ]
    let pairLists: [[(String, String)]] = [
      [("user", "new")], [("password", "p2")], [("a", "1"), ("b", "2"), ("c", "3")],
      [("url", "u"), ("new", "n"), ("USER", "U"), ("password", "p"), ("new", "n2")],
      [("k", "one"), ("z", "two"), ("k", "three")], [("x", ""), ("y", "v")],
    ]
    for content in contents {
      for pairs in pairLists {
        var oneByOne = SecureBytes(copying: Array(content.utf8))
        for (key, value) in pairs {
          oneByOne = try EntryFields(oneByOne).setting(
            key, to: SecureBytes(copying: Array(value.utf8)))
        }
        let batch = try fields(content).setting(
          pairs.map { ($0.0, SecureBytes(copying: Array($0.1.utf8))) })
        XCTAssertEqual(string(batch), string(oneByOne), "\(content.debugDescription) \(pairs)")
      }
    }
    XCTAssertThrowsError(
      try fields("pw\n").setting([
        ("a", SecureBytes(copying: [0x61])), ("b c", SecureBytes(count: 0)),
      ]))
  }

  func testRefusals() throws {
    XCTAssertThrowsError(try EntryFields(SecureBytes(copying: [0x70, 0xFF, 0x0A])))
    XCTAssertThrowsError(try EntryFields(SecureBytes(copying: [0x70, 0x00, 0x0A])))
    let entry = try fields("pw\n")
    for bad in ["", "two words", "a:b", String(repeating: "k", count: 65), "tab\tkey"] {
      XCTAssertThrowsError(try EntryFields.validate(key: bad), bad)
    }
    XCTAssertEqual(
      string(try entry.setting("password", to: SecureBytes(copying: Array("  pw".utf8)))),
      "  pw\n", "a password may start with spaces")
    XCTAssertThrowsError(
      try fields("Tr0ub4dor\r").setting("user", to: SecureBytes(copying: [0x61])),
      "a lone CR at the end would become part of a CRLF")
    XCTAssertEqual(
      string(try fields("pw\r").setting("password", to: SecureBytes(copying: [0x61]))), "a",
      "without a line feed the CR is the password's, replaced with it")
    XCTAssertEqual(
      string(try fields("pw\nnote\r").setting("user", to: SecureBytes(copying: [0x61]))),
      "pw\nuser: a\nnote\r", "a new field after the password leaves the last line as it is")
    for bad: [UInt8] in [[0x61, 0x0A, 0x62], [0x61, 0x0D], [0xC3], [0x00], [0x20, 0x61], [0x09]] {
      XCTAssertThrowsError(try entry.setting("k", to: SecureBytes(copying: bad)))
    }
  }

  func testOneTimeCodeURI() throws {
    XCTAssertEqual(
      string(try fields("pw\notp: otpauth://totp/a?secret=X\n").oneTimeCodeURI),
      "otpauth://totp/a?secret=X")
    XCTAssertEqual(
      string(try fields("otpauth://hotp/a?secret=Y&counter=1\n").oneTimeCodeURI),
      "otpauth://hotp/a?secret=Y&counter=1")
    XCTAssertEqual(
      string(try fields("pw\nnote\nOTPAUTH://totp/b?secret=Z\r\n").oneTimeCodeURI),
      "OTPAUTH://totp/b?secret=Z")
    XCTAssertNil(try fields("pw\notp: 123\n").oneTimeCodeURI)
  }
}
