import Foundation
import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

final class NameAndPINTests: XCTestCase {
  func testNamesAreNFCNormalized() throws {
    XCTAssertEqual(try EntryName("caf\u{65}\u{301}").value, "caf\u{e9}")
    XCTAssertEqual(try EntryName("caf\u{e9}"), try EntryName("caf\u{65}\u{301}"))
    XCTAssertEqual(try EntryName("mail/work box").value, "mail/work box")
    XCTAssertEqual(try EntryName("-x").value, "-x")
  }

  /// ASCII is returned as it is; anything else goes through the standard library's normalizer.
  func testCanonicalCompositionOfASCIIAndOfOtherText() {
    XCTAssertEqual(
      Array("site-000042/login".canonicallyComposed.utf8), Array("site-000042/login".utf8))
    XCTAssertEqual(Array("\u{212B}".canonicallyComposed.utf8), [0xC3, 0x85])
    XCTAssertEqual(Array("a/e\u{301}".canonicallyComposed.utf8), [0x61, 0x2F, 0xC3, 0xA9])
    XCTAssertEqual(Array("".canonicallyComposed.utf8), [])
  }

  /// The standard library's NFC (what vault uses, without Foundation) gives the bytes
  /// Foundation's (ICU's) gives, which releases up to 0.6.0 stored names and PINs in: singletons,
  /// reordered and blocked combining marks, Hangul syllables from jamo, compatibility characters
  /// NFC leaves alone, exclusions, emoji with modifiers, and text already in NFC.
  func testCompositionMatchesFoundationsNFC() {
    let samples = [
      "\u{212B}", "\u{2126}", "e\u{301}\u{323}", "e\u{323}\u{301}", "a\u{308}\u{304}",
      "\u{1100}\u{1161}\u{11A8}", "\u{1112}\u{1161}\u{11AB}/\u{1100}\u{1173}\u{11AF}", "\u{FB01}",
      "\u{0958}", "\u{2ADC}", "\u{1F44D}\u{1F3FD}", "\u{0344}", "o\u{31B}\u{301}",
      "\u{05D0}\u{05B7}\u{05BC}", "caf\u{e9}/na\u{ef}ve", "\u{0041}\u{030A}\u{0301}",
      "\u{0DD9}\u{0DCF}", "\u{1E0B}\u{0323}", "\u{0F73}", "\u{3099}\u{304B}\u{3099}",
    ]
    for text in samples {
      XCTAssertEqual(
        Array(text.canonicallyComposed.utf8),
        Array(text.precomposedStringWithCanonicalMapping.utf8), text.debugDescription)
    }
  }

  func testBadNamesAreRefusedWithTheReason() {
    let cases: [(String, EntryNameFault)] = [
      ("", .empty),
      ("a//b", .emptySegment(name: "a//b")),
      ("/a", .emptySegment(name: "/a")),
      ("a/", .emptySegment(name: "a/")),
      ("a/../b", .dotSegment(name: "a/../b", segment: "..")),
      ("./a", .dotSegment(name: "./a", segment: ".")),
      ("a\nb", .controlCharacter),
      ("a\u{7f}", .controlCharacter),
      (String(repeating: "é", count: 513), .tooLong(maximum: 1024)),
    ]
    for (name, fault) in cases {
      XCTAssertThrowsError(try EntryName(name), name) {
        XCTAssertEqual(VaultError($0), .invalidInput(.name(fault)))
      }
    }
    XCTAssertNoThrow(try EntryName(String(repeating: "é", count: 512)))
  }

  func testPINsAreNormalizedAndBounded() throws {
    XCTAssertEqual(try pin("1234").bytes.unprotectedBytes, Array("1234".utf8))
    XCTAssertEqual(
      try pin("caf\u{65}\u{301}x").bytes.unprotectedBytes, Array("caf\u{e9}x".utf8))
    XCTAssertThrowsError(try pin("123")) {
      XCTAssertEqual(VaultError($0), .invalidInput(.pin(.tooShort(minimum: 4))))
    }
    XCTAssertThrowsError(try pin("12\t34")) {
      XCTAssertEqual(VaultError($0), .invalidInput(.pin(.controlCharacter)))
    }
    XCTAssertThrowsError(try PIN(utf8: SecureBytes(copying: [0x31, 0x32, 0x33, 0xff]))) {
      XCTAssertEqual(VaultError($0), .invalidInput(.pin(.notUTF8)))
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
