import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultTransfer

final class EntryContentTests: XCTestCase {
  func text(_ bytes: SecureBytes) -> String {
    bytes.withBytes { String(decoding: $0, as: UTF8.self) }
  }
  func secret(_ text: String) -> SecureBytes { SecureBytes(copying: Array(text.utf8)) }

  func testPasswordFieldsAndNotesInOrder() throws {
    let content = try EntryContent.compose(
      password: secret("hunter2"),
      fields: [("user name", secret("ada")), ("url", secret("https://example.org"))],
      notes: secret("first\nsecond"))
    XCTAssertEqual(
      text(content), "hunter2\nuser-name: ada\nurl: https://example.org\nfirst\nsecond\n")
    let fields = try EntryFields(content)
    XCTAssertEqual(fields.keys, ["password", "user-name", "url"])
    XCTAssertEqual(fields.value("user-name").map(text), "ada")
  }

  func testValuesThatWouldNotReadBackAreBlocks() throws {
    let content = try EntryContent.compose(
      password: nil, fields: [("key", secret("line 1\nline 2")), ("pad", secret(" lead"))],
      notes: nil)
    XCTAssertEqual(text(content), "\nkey: |-\n  line 1\n  line 2\npad: |-\n   lead\n")
  }

  /// Every value a block holds reads back through `EntryFields` as the same bytes, whatever its
  /// line breaks: final LF or none, empty lines, a CR before an LF, a lone LF.
  func testBlocksReadBackByteForByte() throws {
    let values = [
      "line 1\nline 2", "line 1\nline 2\n", "\n", "\n\n", "a\n\n\nb", " lead", "\ttab\n",
      "win\r\nline\r\n", "ends in CR\r", "  two spaces\n  again", "a\n\n",
    ]
    let fields = values.enumerated().map { ("k\($0.offset)", secret($0.element)) }
    let content = try EntryContent.compose(
      password: secret("pw"), fields: fields, notes: secret("notes\n  indented note"))
    let read = try EntryFields(content)
    XCTAssertEqual(read.keys, ["password"] + values.indices.map { "k\($0)" })
    for (index, value) in values.enumerated() {
      XCTAssertEqual(read.value("k\(index)").map(text), value, "value \(index)")
    }
    XCTAssertEqual(read.allFields.map { text($0.value) }, values)
    XCTAssertEqual(text(read.notes), "notes\n  indented note")
  }

  /// Notes that start indented after a block, a value that is `|` itself, and keys cut to 64
  /// bytes that then need a number all read back as given (from the new-user review: the notes
  /// became lines of the block, and a numbered long key was no key).
  func testWhatCouldBeMisreadIsWrittenSoItIsNot() throws {
    let cases: [(fields: [(String, String)], notes: String)] = [
      ([("recovery codes", "1111\n2222")], "  - rotate monthly\n  - ask Bob"),
      ([("k", "|")], "  indented note\nnext"),
      ([("k", "|-")], "  x"),
      ([("k", "a\n")], "  y\n"),
    ]
    for (given, notes) in cases {
      let content = try EntryContent.compose(
        password: secret("pw"), fields: given.map { ($0.0, secret($0.1)) }, notes: secret(notes))
      let read = try EntryFields(content)
      XCTAssertEqual(read.allFields.map { text($0.value) }, given.map(\.1), text(content))
      XCTAssertEqual(text(read.notes), notes.hasSuffix("\n") ? String(notes.dropLast()) : notes)
    }
    let long = String(repeating: "k", count: 65)
    let content = try EntryContent.compose(
      password: secret("pw"), fields: [(long + "1", secret("1")), (long + "2", secret("2"))],
      notes: nil)
    let read = try EntryFields(content)
    let key = String(repeating: "k", count: 64)
    XCTAssertEqual(read.keys, ["password", key, String(repeating: "k", count: 62) + "-2"])
    XCTAssertEqual(read.allFields.map { text($0.value) }, ["1", "2"])
  }

  func testKeysAreMadeValidAndUnique() {
    XCTAssertEqual(EntryContent.fieldKey("a: b\tc"), "a-b-c")
    XCTAssertEqual(EntryContent.fieldKey(""), "field")
    XCTAssertEqual(EntryContent.fieldKey("Password"), "password-field")
    XCTAssertEqual(EntryContent.unique("URL", among: ["url", "url-2"]), "URL-3")
    XCTAssertEqual(EntryContent.unique("mail", among: ["url"]), "mail")
    var keys = EntryContent.UniqueKeys(used: ["url-3"])
    let claimed = (0..<20_000).map { _ in keys.claim("URL") }
    XCTAssertEqual(Array(claimed.prefix(4)), ["URL", "URL-2", "URL-4", "URL-5"])
    XCTAssertEqual(claimed.last, "URL-20001")
    XCTAssertEqual(Set(claimed.map { $0.lowercased() }).count, 20_000)
  }

  func testAPasswordWithALineBreakAndAnEmptyEntryAreRefused() {
    XCTAssertThrowsError(try EntryContent.compose(password: secret("a\nb"), fields: [], notes: nil))
    {
      XCTAssertEqual($0 as? TransferError, TransferError(.item(.passwordHoldsLineBreak)))
    }
    XCTAssertThrowsError(try EntryContent.compose(password: nil, fields: [], notes: nil)) {
      XCTAssertEqual($0 as? TransferError, TransferError(.item(.empty)))
    }
  }
}
