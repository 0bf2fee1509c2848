import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultTransfer

final class GuardedBase64Tests: XCTestCase {
  func decode(_ text: String) throws -> [UInt8] {
    try GuardedBase64.decode(SecureBytes(copying: Array(text.utf8))).unprotectedBytes
  }

  func testRFC4648VectorsWithAndWithoutPaddingAndLineBreaks() throws {
    // RFC 4648, section 10.
    let vectors = [
      "": "", "Zg==": "f", "Zm8=": "fo", "Zm9v": "foo", "Zm9vYg==": "foob",
      "Zm9vYmE=": "fooba", "Zm9vYmFy": "foobar",
    ]
    for (encoded, plain) in vectors {
      XCTAssertEqual(try decode(encoded), Array(plain.utf8), encoded)
      XCTAssertEqual(
        try decode(encoded.replacingOccurrences(of: "=", with: "")), Array(plain.utf8), encoded)
    }
    XCTAssertEqual(try decode("Zm9v\r\nYmFy\n"), Array("foobar".utf8))
    XCTAssertEqual(try decode("+/8="), [0xFB, 0xFF])
  }

  func testRefusals() {
    let alphabet = TransferError(.base64(.outsideAlphabet))
    let length = TransferError(.base64(.wrongLength))
    for (text, error) in [
      ("Zm9v YmFy", alphabet), ("Zm-v", alphabet), ("Zg==Zg==", alphabet), ("Z", length),
      ("Zm9vY", length), ("Zg===", length), ("Zm9v=", length), ("Zg=", length),
    ] {
      XCTAssertThrowsError(try decode(text), text) {
        XCTAssertEqual($0 as? TransferError, error, text)
      }
    }
  }
}
