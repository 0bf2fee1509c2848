import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// Known-answer tests for every libsodium call we wrap.
///
/// Expected values come from independent implementations (pycryptodome, argon2-cffi, CPython's
/// hashlib), not from libsodium itself.
final class KnownAnswerTests: XCTestCase {
  // draft-irtf-cfrg-xchacha-03, appendix A.3.1.
  func testXChaCha20Poly1305MatchesTheDraftVector() throws {
    let plaintext = Array(
      "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
        .utf8)
    let k = key(Array(0x80...0x9f))
    let nonce = try XCTUnwrap(Nonce(Array(0x40...0x57)))
    let ad = hex("50515253c0c1c2c3c4c5c6c7")
    let sealed = plaintext.withUnsafeBytes {
      AEAD.seal($0, key: k, nonce: nonce, associatedData: ad)
    }
    XCTAssertEqual(
      sealed,
      hex(
        "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa6440bf3a82f"
          + "4eda7e39ae64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e3f3fac2bc36948"
          + "8f76b2383565d3fff921f9664c97637da9768812f615c68b13b52ec0875924c1c7987947deafd8780acf49"
      ))
    let opened = try AEAD.open(
      ciphertext: sealed, key: k, nonce: nonce, associatedData: ad, what: "vector")
    XCTAssertEqual(opened.unprotectedBytes, plaintext)
  }

  func testAEADRejectsOtherAssociatedDataAndFlippedBytes() throws {
    let k = SymmetricKey.random()
    let box = AEAD.seal(Array("secret".utf8), key: k, associatedData: [1, 2, 3])
    XCTAssertEqual(box.count, 24 + 6 + 16)
    XCTAssertThrowsError(try AEAD.open(box, key: k, associatedData: [1, 2, 4], what: "x")) {
      XCTAssertEqual($0 as? CryptoError, .authenticationFailed(object: "x"))
    }
    var flipped = box
    flipped[30] ^= 1
    XCTAssertThrowsError(try AEAD.open(flipped, key: k, associatedData: [1, 2, 3], what: "x"))
    XCTAssertThrowsError(
      try AEAD.open(Array(box.prefix(39)), key: k, associatedData: [], what: "x")
    ) {
      XCTAssertEqual($0 as? CryptoError, .truncated(object: "x"))
    }
  }

  func testSubkeysMatchBLAKE2bWithSaltAndPersonal() {
    let master = key(Array(0...31))
    let expected: [(Subkey, String)] = [
      (.entries, "fdbb3700379851cbd220757b4ef4ad2720ec50072204dab693f64ae487ca1674"),
      (.nameIndex, "3ba32eedf3a5968f70603d26cd03a5833f9b271d182bdae9e3f6c5ffa4e2c607"),
      (.header, "751d4151ba376faca502d09adb84e80ddadb695b7948f176d3ac8ceed6987399"),
      (.biometry, "7c8a7f98da545f75819816ddb138b8ff636693079761b0e4f0c64e95b6451f35"),
      (.journal, "ec21b8962f699de71899b26ec2a64d789edf861d49ea7a54944d69da6d0b81bd"),
      (.records, "4a516f24ba98dccf0670d8a1250afef9461dd3ec812dc90a1d930aefd0cc3c39"),
      (.rows, "a004bb041f46158237196df159ab0e7fb896cfd91ca105a7d5476238efb986ba"),
      (.state, "9a6de6964316ac74efec0fc6c438dca9dc1a849fe112a033b58dbd9dc488fa00"),
      (.rotation, "20b606cc2c183e4a82212fefb3644b7d8d1cd7165bd70b447021486d33991de0"),
      (.streams, "27577cfeb56bc6e63d5e340dcfb3212d29c324c9b4b14fce8661158666e0468b"),
      (.sync, "81be86b9c51c4cd06216ce2d372356798adab01d4d13b78e61fac598caedd587"),
      (.syncIndex, "01e80ffdd3be5e5e793bd5c65e3f99f4bb4b6edebe9bab48c098feae9025b6c2"),
    ]
    XCTAssertEqual(expected.count, Subkey.allCases.count)
    for (subkey, value) in expected {
      XCTAssertEqual(master.derive(subkey).bytes.unprotectedBytes, hex(value), "\(subkey)")
    }
  }

  func testKeyedBLAKE2b() {
    let out = GenericHash.keyed(
      key: SecureBytes(copying: Array(0...31)),
      parts: [Array("vault.name.v1".utf8), Array("café".utf8)])
    XCTAssertEqual(out, hex("8317f37493dfc480227028bdf2d1851c06051127bdd3a68db3fbdb7b466f1955"))
  }

  func testArgon2idMatchesTheReferenceImplementation() throws {
    let parameters = KDFParameters(profile: "custom", opsLimit: 2, memLimit: 65536)
    let out = try Argon2id.derive(
      secret: secure("correct horse"), salt: try XCTUnwrap(Salt(Array(0...15))),
      parameters: parameters)
    XCTAssertEqual(
      out.unprotectedBytes,
      hex("9c87c06898bc18516669b54a8b95d36e622946494d7a55c26f391a0406068c19"))
  }

  func testSealedBoxRoundTripAndWrongKey() throws {
    let pair = SealedBox.keyPair()
    let message = Array("dear diary".utf8)
    let box = message.withUnsafeBytes { SealedBox.seal($0, to: pair.publicKey) }
    XCTAssertEqual(box.count, message.count + 48)
    let opened = try SealedBox.open(
      box, publicKey: pair.publicKey, secretKey: pair.secretKey, what: "the note")
    XCTAssertEqual(opened.unprotectedBytes, message)
    let other = SealedBox.keyPair()
    XCTAssertThrowsError(
      try SealedBox.open(
        box, publicKey: other.publicKey, secretKey: other.secretKey, what: "the note")
    ) { XCTAssertEqual($0 as? CryptoError, .authenticationFailed(object: "the note")) }
    XCTAssertThrowsError(
      try SealedBox.open(
        Array(box.prefix(47)), publicKey: pair.publicKey, secretKey: pair.secretKey,
        what: "the note")
    ) { XCTAssertEqual($0 as? CryptoError, .truncated(object: "the note")) }
  }

  func testSecureBytesRedactsAndComparesInConstantTime() {
    let a = secure("1234")
    XCTAssertEqual(a.description, "<redacted>")
    XCTAssertEqual("\(SymmetricKey.random())", "<redacted>")
    XCTAssertTrue(a == secure("1234"))
    XCTAssertFalse(a == secure("1235"))
    XCTAssertFalse(a == secure("12345"))
    XCTAssertTrue(constantTimeEqual([1, 2], [1, 2]))
    XCTAssertFalse(constantTimeEqual([1, 2], [1, 3]))
  }
}
