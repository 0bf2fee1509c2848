import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

final class RecoveryCodeTests: XCTestCase {
  static let malformed = VaultError.invalidInput(.recoveryCode(.malformed))
  static let typo = VaultError.invalidInput(.recoveryCode(.typo))

  func text(_ bytes: SecureBytes) -> String {
    String(decoding: bytes.unprotectedBytes, as: UTF8.self)
  }

  func testGeneratedCodesUseTheAlphabetAndAreShownInNineGroups() throws {
    let code = RecoveryCode.generate()
    XCTAssertEqual(code.count, 32)
    XCTAssertTrue(code.unprotectedBytes.allSatisfy { RecoveryCode.alphabet.contains($0) })
    let shown = RecoveryCode.display(code)
    XCTAssertEqual(shown.count, 36 + 8)
    XCTAssertEqual(shown.split(separator: "-").map(\.count), Array(repeating: 4, count: 9))
    XCTAssertFalse(shown.contains { "ILOU".contains($0) })
    XCTAssertTrue(
      shown.hasSuffix("-" + String(decoding: RecoveryCode.checkGroup(code), as: UTF8.self)))
    // What is shown is read back as the code.
    XCTAssertTrue(try RecoveryCode.parse(secure(shown)) == code)
    XCTAssertFalse(RecoveryCode.generate() == code)
  }

  /// vault(5) TEST VECTORS (computed with Python's hashlib).
  func testCheckGroupVectors() throws {
    let page = FormatVectorTests.page.replacingOccurrences(of: "\n", with: " ")
    for (code, check) in [
      ("0123456789ABCDEFGHJKMNPQRSTVWXYZ", "ME3R"), ("ZYXWVTSRQPNMKJHGFEDCBA9876543210", "5NF4"),
    ] {
      XCTAssertEqual(String(decoding: RecoveryCode.checkGroup(secure(code)), as: UTF8.self), check)
      XCTAssertTrue(page.contains("\"\(code)\" has the check group \"\(check)\""), code)
    }
    XCTAssertEqual(
      RecoveryCode.display(secure("0123456789ABCDEFGHJKMNPQRSTVWXYZ")),
      "0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ-ME3R")
    XCTAssertTrue(page.contains("is shown as \"0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ-ME3R\""))
  }

  func testTypedCodesAreCanonicalizedWithOrWithoutTheirCheckGroup() throws {
    let typed = secure("abcd-efgh jkmn-pqrs-tvwx-yz01-2345-oil9")
    let canonical = "ABCDEFGHJKMNPQRSTVWXYZ0123450119"
    XCTAssertEqual(text(try RecoveryCode.parse(typed)), canonical)
    let check = String(decoding: RecoveryCode.checkGroup(secure(canonical)), as: UTF8.self)
    XCTAssertEqual(
      text(
        try RecoveryCode.parse(
          secure("abcd-efgh jkmn-pqrs-tvwx-yz01-2345-oil9-" + check.lowercased()))),
      canonical)
  }

  func testATypoOrATranspositionIsATypoNotAWrongCode() throws {
    let shown = Array("0123-4567-89AB-CDEF-GHJK-MNPQ-RSTV-WXYZ-ME3R".utf8)
    var changed = shown
    changed[6] = UInt8(ascii: "7")  // 0123-4577-…
    var swapped = shown
    swapped.swapAt(10, 11)  // …-89BA-…
    var badCheck = shown
    badCheck[shown.count - 1] = UInt8(ascii: "S")
    for bad in [changed, swapped, badCheck] {
      XCTAssertThrowsError(try RecoveryCode.parse(SecureBytes(copying: bad))) {
        XCTAssertEqual(VaultError($0), Self.typo, String(decoding: bad, as: UTF8.self))
      }
    }
  }

  func testMalformedCodesAreRefused() {
    for bad in [
      "ABCD", "ABCDEFGHJKMNPQRSTVWXYZ0123456789X", "ABCDEFGHJKMNPQRSTVWXYZ012345678U",
      "ABCDEFGHJKMNPQRSTVWXYZ0123456789ME3", "ABCDEFGHJKMNPQRSTVWXYZ0123456789ME3RR",
    ] {
      XCTAssertThrowsError(try RecoveryCode.parse(secure(bad))) {
        XCTAssertEqual(VaultError($0), Self.malformed, bad)
      }
    }
  }
}
