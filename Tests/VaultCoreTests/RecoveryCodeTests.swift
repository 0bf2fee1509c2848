import XCTest

@testable import VaultCore

final class RecoveryCodeTests: XCTestCase {
  func testGeneratedCodesUseTheAlphabetAndAreGrouped() {
    let code = RecoveryCode.generate()
    XCTAssertEqual(code.count, 32)
    XCTAssertTrue(code.unprotectedBytes.allSatisfy { RecoveryCode.alphabet.contains($0) })
    let shown = RecoveryCode.display(code)
    XCTAssertEqual(shown.count, 32 + 7)
    XCTAssertEqual(shown.split(separator: "-").map(\.count), Array(repeating: 4, count: 8))
    XCTAssertFalse(shown.contains { "ILOU".contains($0) })
    XCTAssertFalse(RecoveryCode.generate() == code)
  }

  func testTypedCodesAreCanonicalized() throws {
    let typed = secure("abcd-efgh jkmn-pqrs-tvwx-yz01-2345-oil9")
    XCTAssertEqual(
      String(decoding: try RecoveryCode.parse(typed).unprotectedBytes, as: UTF8.self),
      "ABCDEFGHJKMNPQRSTVWXYZ0123450119")
  }

  func testMalformedCodesAreRefused() {
    for bad in ["ABCD", "ABCDEFGHJKMNPQRSTVWXYZ0123456789X", "ABCDEFGHJKMNPQRSTVWXYZ012345678U"] {
      XCTAssertThrowsError(try RecoveryCode.parse(secure(bad))) {
        XCTAssertEqual(
          $0 as? VaultError,
          .invalidInput(
            "a recovery code is 32 symbols of 0-9 and A-Z (I and L read as 1, O as 0, no U)"))
      }
    }
  }
}
