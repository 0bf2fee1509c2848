import VaultCore
import XCTest

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
    XCTAssertEqual(text(content), "\nkey: |\n  line 1\n  line 2\npad: |\n   lead\n")
  }

  func testKeysAreMadeValidAndUnique() {
    XCTAssertEqual(EntryContent.fieldKey("a: b\tc"), "a-b-c")
    XCTAssertEqual(EntryContent.fieldKey(""), "field")
    XCTAssertEqual(EntryContent.fieldKey("Password"), "password-field")
    XCTAssertEqual(EntryContent.unique("URL", among: ["url", "url-2"]), "URL-3")
  }

  func testAPasswordWithALineBreakAndAnEmptyEntryAreRefused() {
    XCTAssertThrowsError(try EntryContent.compose(password: secret("a\nb"), fields: [], notes: nil))
    {
      XCTAssertEqual($0 as? TransferError, TransferError("the password holds a line break"))
    }
    XCTAssertThrowsError(try EntryContent.compose(password: nil, fields: [], notes: nil)) {
      XCTAssertEqual($0 as? TransferError, TransferError("the entry is empty"))
    }
  }
}
