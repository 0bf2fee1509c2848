import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultSecrets

/// Ed25519 through libsodium against RFC 8032's vectors (section 7.1, TEST 1 and TEST 2, which
/// OpenSSL, through pyca/cryptography, reproduces too), and the checks on stored secret keys.
final class SigningTests: XCTestCase {
  let vectors: [(seed: String, publicKey: String, message: String, signature: String)] = [
    (
      "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
      "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e06522490155"
        + "5fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    ),
    (
      "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
      "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
      "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
        + "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
    ),
  ]

  func testTheRFC8032VectorsSignAndVerify() throws {
    for vector in vectors {
      let pair = try Signing.keyPair(seed: SecureBytes(copying: hex(vector.seed)))
      XCTAssertEqual(pair.publicKey, hex(vector.publicKey))
      XCTAssertEqual(pair.secretKey.unprotectedBytes, hex(vector.seed) + hex(vector.publicKey))
      let message = hex(vector.message)
      let signature = message.withUnsafeBytes { pair.sign($0) }
      XCTAssertEqual(signature, hex(vector.signature))
      XCTAssertTrue(verify(signature, message, pair.publicKey))
      for index in signature.indices {
        var flipped = signature
        flipped[index] ^= 0x01
        XCTAssertFalse(verify(flipped, message, pair.publicKey), "signature byte \(index)")
      }
      for index in message.indices {
        var flipped = message
        flipped[index] ^= 0x01
        XCTAssertFalse(verify(signature, flipped, pair.publicKey), "message byte \(index)")
      }
      XCTAssertFalse(verify(signature, message + [0], pair.publicKey))
    }
  }

  func testWrongSizesAndOtherKeysDoNotVerify() throws {
    let pair = Signing.generate()
    let message = Array("dear diary".utf8)
    let signature = message.withUnsafeBytes { pair.sign($0) }
    XCTAssertEqual(signature.count, 64)
    XCTAssertTrue(verify(signature, message, pair.publicKey))
    XCTAssertFalse(verify(Array(signature.prefix(63)), message, pair.publicKey))
    XCTAssertFalse(verify(signature + [0], message, pair.publicKey))
    XCTAssertFalse(verify(signature, message, Array(pair.publicKey.prefix(31))))
    XCTAssertFalse(verify(signature, message, Signing.generate().publicKey))
    XCTAssertFalse(verify([], message, pair.publicKey))
  }

  func testAStoredSecretKeyGivesItsPairBackAndABadOneIsRefused() throws {
    let pair = Signing.generate()
    XCTAssertEqual(pair.publicKey.count, 32)
    XCTAssertEqual(pair.secretKey.count, 64)
    let restored = try SigningKeyPair(
      secretKey: SecureBytes(copying: pair.secretKey.unprotectedBytes))
    XCTAssertEqual(restored.publicKey, pair.publicKey)
    XCTAssertTrue(restored.secretKey == pair.secretKey)
    XCTAssertEqual("\(restored.secretKey)", "<redacted>")

    XCTAssertThrowsError(try SigningKeyPair(secretKey: pair.secretKey.prefix(63))) {
      XCTAssertEqual(
        $0 as? CryptoError, .wrongLength(material: .signingKey, expected: 64, found: 63))
    }
    let mismatched = SecureBytes(
      copying: Array(pair.secretKey.unprotectedBytes.prefix(32)) + Signing.generate().publicKey)
    XCTAssertThrowsError(try SigningKeyPair(secretKey: mismatched)) {
      XCTAssertEqual($0 as? CryptoError, .signingKeyMismatch)
    }
    XCTAssertThrowsError(try Signing.keyPair(seed: SecureBytes(count: 31))) {
      XCTAssertEqual(
        $0 as? CryptoError, .wrongLength(material: .signingSeed, expected: 32, found: 31))
    }
  }

  func verify(_ signature: [UInt8], _ message: [UInt8], _ publicKey: [UInt8]) -> Bool {
    message.withUnsafeBytes { Signing.verify(signature, message: $0, publicKey: publicKey) }
  }
}
