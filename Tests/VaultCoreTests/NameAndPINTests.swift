import XCTest

@testable import VaultCore

final class NameAndPINTests: XCTestCase {
  func testNamesAreNFCNormalized() throws {
    XCTAssertEqual(try EntryName("caf\u{65}\u{301}").value, "caf\u{e9}")
    XCTAssertEqual(try EntryName("caf\u{e9}"), try EntryName("caf\u{65}\u{301}"))
    XCTAssertEqual(try EntryName("mail/work box").value, "mail/work box")
    XCTAssertEqual(try EntryName("-x").value, "-x")
  }

  /// ASCII skips Foundation's normalization; anything else goes through it.
  func testCanonicalCompositionOfASCIIAndOfOtherText() {
    XCTAssertEqual(
      Array("site-000042/login".canonicallyComposed.utf8), Array("site-000042/login".utf8))
    XCTAssertEqual(Array("\u{212B}".canonicallyComposed.utf8), [0xC3, 0x85])
    XCTAssertEqual(Array("a/e\u{301}".canonicallyComposed.utf8), [0x61, 0x2F, 0xC3, 0xA9])
    XCTAssertEqual(Array("".canonicallyComposed.utf8), [])
  }

  func testBadNamesAreRefusedWithTheReason() {
    let cases: [(String, String)] = [
      ("", "the name is empty"),
      ("a//b", "the name 'a//b' has an empty path segment"),
      ("/a", "the name '/a' has an empty path segment"),
      ("a/", "the name 'a/' has an empty path segment"),
      ("a/../b", "the name 'a/../b' has a '..' segment"),
      ("./a", "the name './a' has a '.' segment"),
      ("a\nb", "the name contains a control character"),
      ("a\u{7f}", "the name contains a control character"),
      (String(repeating: "é", count: 513), "the name is longer than 1024 bytes"),
    ]
    for (name, message) in cases {
      XCTAssertThrowsError(try EntryName(name), name) {
        XCTAssertEqual($0 as? VaultError, .invalidInput(message))
      }
    }
    XCTAssertNoThrow(try EntryName(String(repeating: "é", count: 512)))
  }

  func testPINsAreNormalizedAndBounded() throws {
    XCTAssertEqual(try pin("1234").bytes.unprotectedBytes, Array("1234".utf8))
    XCTAssertEqual(
      try pin("caf\u{65}\u{301}x").bytes.unprotectedBytes, Array("caf\u{e9}x".utf8))
    XCTAssertThrowsError(try pin("123")) {
      XCTAssertEqual($0 as? VaultError, .invalidInput("the PIN must have at least 4 characters"))
    }
    XCTAssertThrowsError(try pin("12\t34")) {
      XCTAssertEqual($0 as? VaultError, .invalidInput("the PIN contains a control character"))
    }
    XCTAssertThrowsError(try PIN(utf8: SecureBytes(copying: [0x31, 0x32, 0x33, 0xff]))) {
      XCTAssertEqual($0 as? VaultError, .invalidInput("the PIN is not valid UTF-8"))
    }
  }

  func testParentFolderOfEveryShapeOfPath() {
    let cases: [(String, String)] = [
      ("a", "."), ("-", "."), ("x.db", "."), ("./y", "."), ("/a", "/"), ("a/b", "a"),
      ("/x/y/z.db", "/x/y"), ("a/b/", "a"), ("/", "/"),
    ]
    for (path, folder) in cases {
      XCTAssertEqual(PrivateFiles.parentFolder(of: path), folder, path)
    }
  }
}
