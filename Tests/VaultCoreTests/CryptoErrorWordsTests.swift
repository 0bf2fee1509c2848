import VaultCore
import VaultCrypto
import VaultFormat
import XCTest

/// The words each refusal of VaultCrypto has in the vault's reports: moved here, case by case,
/// from the crypto tests that asserted sentences before the primitives had an error of their own.
final class CryptoErrorWordsTests: XCTestCase {
  func testEachCryptoRefusalKeepsItsFailureClassAndWords() {
    let cases: [(CryptoError, VaultError)] = [
      (.truncated(object: "x"), .integrityText("x is truncated")),
      (.authenticationFailed(object: "x"), .integrityText("x failed authentication")),
      (
        .authenticationFailed(object: "the journal key"),
        .integrityText("the journal key failed authentication")
      ),
      (.noStreamHeader(object: "the export"), .integrityText("the export has no stream header")),
      (
        .malformedStreamHeader(object: "the export"),
        .integrityText("the export has a malformed stream header")
      ),
      (
        .wrongPieceLength(object: "message 2 of the export"),
        .integrityText("message 2 of the export has a piece of the wrong length")
      ),
      (
        .wrongLength(material: .nonce, expected: 24, found: 23),
        .integrityText("a nonce is 24 bytes, not 23")
      ),
      (
        .wrongLength(material: .salt, expected: 16, found: 15),
        .malformedHeaderText("a salt is 16 bytes, not 15")
      ),
      (
        .wrongLength(material: .signingSeed, expected: 32, found: 31),
        .integrityText("a signing key seed is 31 bytes, not 32")
      ),
      (
        .wrongLength(material: .signingKey, expected: 64, found: 63),
        .integrityText("a signing key is 63 bytes, not 64")
      ),
      (.signingKeyMismatch, .integrityText("a signing key's public half does not match its seed")),
      (
        .kdfOutOfBounds(parameter: "opslimit", value: 99),
        .malformedHeaderText("Argon2id opslimit 99 is out of bounds")
      ),
      (
        .kdfProfileMismatch(profile: "moderate"),
        .malformedHeaderText("Argon2id profile 'moderate' does not match its values")
      ),
      (.kdfOutOfMemory(mebibytes: 256), .storageText("Argon2id could not allocate 256 MiB")),
      (.outOfMemory(bytes: 10), .storageText("out of memory for 10 bytes")),
    ]
    for (crypto, vault) in cases {
      XCTAssertEqual(VaultError(crypto), vault)
      XCTAssertEqual(VaultError(crypto as any Error), vault)
    }
    XCTAssertNil(VaultError(CocoaLikeError()))
  }

  private struct CocoaLikeError: Error {}
}
