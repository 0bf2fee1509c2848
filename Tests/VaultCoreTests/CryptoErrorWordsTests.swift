import VaultCore
import VaultCrypto
import VaultFormat
import XCTest

/// The failure class and facts each refusal of VaultCrypto has in the vault's reports (their
/// words are asserted by the command line's tests in Tests/VaultCLITests/Words).
final class CryptoErrorWordsTests: XCTestCase {
  func testEachCryptoRefusalKeepsItsFailureClassAndFacts() {
    let cases: [(CryptoError, VaultError)] = [
      (.truncated(object: "x"), .integrity(.sealed(object: "x", .truncated))),
      (.authenticationFailed(object: "x"), .integrity(.sealed(object: "x", .failedAuthentication))),
      (
        .authenticationFailed(object: "the journal key"),
        .integrity(.sealed(object: "the journal key", .failedAuthentication))
      ),
      (
        .noStreamHeader(object: "the export"),
        .integrity(.sealed(object: "the export", .noStreamHeader))
      ),
      (
        .malformedStreamHeader(object: "the export"),
        .integrity(.sealed(object: "the export", .malformedStreamHeader))
      ),
      (
        .wrongPieceLength(object: "message 2 of the export"),
        .integrity(.sealed(object: "message 2 of the export", .wrongPieceLength))
      ),
      (
        .wrongLength(material: .nonce, expected: 24, found: 23),
        .integrity(.wrongLength(.nonce, expected: 24, found: 23))
      ),
      (
        .wrongLength(material: .salt, expected: 16, found: 15),
        .malformedHeader(.kdf(.saltLength(expected: 16, found: 15)))
      ),
      (
        .wrongLength(material: .signingSeed, expected: 32, found: 31),
        .integrity(.wrongLength(.signingSeed, expected: 32, found: 31))
      ),
      (
        .wrongLength(material: .signingKey, expected: 64, found: 63),
        .integrity(.wrongLength(.signingKey, expected: 64, found: 63))
      ),
      (.signingKeyMismatch, .integrity(.signingKeyMismatch)),
      (
        .kdfOutOfBounds(parameter: "opslimit", value: 99),
        .malformedHeader(.kdf(.outOfBounds(parameter: "opslimit", value: 99)))
      ),
      (
        .kdfProfileMismatch(profile: "moderate"),
        .malformedHeader(.kdf(.profileMismatch(profile: "moderate")))
      ),
      (.kdfOutOfMemory(mebibytes: 256), .storage(.kdfOutOfMemory(mebibytes: 256))),
      (.outOfMemory(bytes: 10), .storage(.outOfMemory(bytes: 10))),
    ]
    for (crypto, vault) in cases {
      XCTAssertEqual(VaultError(crypto), vault)
      XCTAssertEqual(VaultError(crypto as any Error), vault)
    }
    XCTAssertNil(VaultError(CocoaLikeError()))
  }

  private struct CocoaLikeError: Error {}
}
