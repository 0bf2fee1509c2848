import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// One-time codes through liboath: the RFC vectors, the `otpauth://` URI and every refusal.
final class OneTimeCodeTests: XCTestCase {
  /// The RFC 6238 Appendix B seeds: the ASCII digits "1234567890" repeated to 20, 32 and 64 bytes.
  static let seeds: [OneTimeCode.Algorithm: String] = [
    .sha1: "12345678901234567890",
    .sha256: "12345678901234567890123456789012",
    .sha512: "1234567890123456789012345678901234567890123456789012345678901234",
  ]

  private func string(_ bytes: SecureBytes) -> String {
    String(decoding: bytes.unprotectedBytes, as: UTF8.self)
  }

  private func parse(_ uri: String) throws -> OneTimeCode {
    try OneTimeCode(uri: secure(uri))
  }

  /// RFC 6238 Appendix B: 8 digits, a 30-second period from the epoch.
  func testRFC6238AppendixBVectors() throws {
    let table: [(time: Double, sha1: String, sha256: String, sha512: String)] = [
      (59, "94287082", "46119246", "90693936"),
      (1_111_111_109, "07081804", "68084774", "25091201"),
      (1_111_111_111, "14050471", "67062674", "99943326"),
      (1_234_567_890, "89005924", "91819424", "93441116"),
      (2_000_000_000, "69279037", "90698825", "38618901"),
      (20_000_000_000, "65353130", "77737706", "47863826"),
    ]
    for row in table {
      for (algorithm, expected) in [
        (OneTimeCode.Algorithm.sha1, row.sha1), (.sha256, row.sha256), (.sha512, row.sha512),
      ] {
        let code = try OneTimeCode(
          secret: secure(Self.seeds[algorithm] ?? ""), kind: .totp(period: 30),
          algorithm: algorithm, digits: 8)
        XCTAssertEqual(string(try code.code(at: row.time)), expected, "\(algorithm) at \(row.time)")
      }
    }
  }

  /// RFC 4226 Appendix D: the secret "12345678901234567890", 6 digits, counters 0 to 9.
  func testRFC4226AppendixDVectors() throws {
    let expected = [
      "755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871",
      "520489",
    ]
    let code = try OneTimeCode(secret: secure("12345678901234567890"), kind: .hotp(counter: 0))
    for (counter, value) in expected.enumerated() {
      XCTAssertEqual(string(try code.code(counter: UInt64(counter))), value, "counter \(counter)")
    }
  }

  /// The same vectors through URIs: the base32 of the seeds, in every spelling liboath reads.
  func testURIsGiveTheVectors() throws {
    let sha1 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    let sha256 = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZA===="
    let sha512 =
      "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGEZDGNBVGY3"
      + "TQOJQGEZDGNA="
    let cases: [(String, String)] = [
      ("otpauth://totp/Example:alice?secret=\(sha1)&digits=8", "94287082"),
      ("OTPAUTH://TOTP/x?SECRET=\(sha1.lowercased())&Digits=8&PERIOD=30", "94287082"),
      ("otpauth://totp/x?secret=GEZD%20GNBV%20GY3T%20QOJQ%20GEZDGNBVGY3TQOJQ&digits=8", "94287082"),
      ("otpauth://totp/x?algorithm=sha256&digits=8&secret=\(sha256)", "46119246"),
      ("otpauth://totp/x?algorithm=SHA256&digits=8&secret=\(sha256.prefix(52))", "46119246"),
      ("otpauth://totp/x?algorithm=Sha512&digits=8&secret=\(sha512)&issuer=Ex%20Co", "90693936"),
      ("otpauth://totp/x?secret=\(sha1)", "287082"),
      ("otpauth://totp/x?secret=\(sha1)&digits=7&period=60#ignored", "4755224"),
    ]
    for (uri, expected) in cases {
      XCTAssertEqual(string(try parse(uri).code(at: 59)), expected, uri)
    }
    let hotp = try parse("otpauth://hotp/Ex%3Aalice%40example.com?secret=\(sha1)&counter=7")
    XCTAssertEqual(hotp.kind, .hotp(counter: 7))
    XCTAssertEqual(hotp.label, "Ex:alice@example.com")
    XCTAssertEqual(string(try hotp.code(counter: 7)), "162583")
    let defaults = try parse("otpauth://totp?secret=\(sha1)")
    XCTAssertEqual(defaults.kind, .totp(period: 30))
    XCTAssertEqual(defaults.algorithm, .sha1)
    XCTAssertEqual(defaults.digits, 6)
    XCTAssertEqual(defaults.label, "")
    XCTAssertEqual(defaults.secondsLeft(at: 59), 1)
    XCTAssertEqual(defaults.secondsLeft(at: 60), 30)
    XCTAssertEqual(defaults.secondsLeft(at: 1_111_111_109.9), 1)
    XCTAssertNil(hotp.secondsLeft(at: 59))
  }

  func testEveryRefusalSaysWhy() {
    let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    let cases: [(String, OneTimeCodeFault)] = [
      ("https://example.com/?secret=\(secret)", .notAnOTPAuthURI),
      ("otpauth://motp/x?secret=\(secret)", .unknownType("motp")),
      ("otpauth://totp/x?issuer=a", .missingParameter(.secret)),
      ("otpauth://totp/x?secret=", .emptySecret),
      ("otpauth://totp/x?secret=%20%20", .emptySecret),
      ("otpauth://totp/x?secret=GEZ1GNBV", .secretNotBase32),
      ("otpauth://totp/x?secret=ABC", .secretNotBase32),
      ("otpauth://totp/x?secret=\(secret)&secret=\(secret)", .repeatedParameter(.secret)),
      ("otpauth://totp/x?secret=\(secret)&DIGITS=6&digits=6", .repeatedParameter(.digits)),
      ("otpauth://totp/x?secret=\(secret)&digits=9", .badValue(.digits, "9")),
      ("otpauth://totp/x?secret=\(secret)&digits=5", .badValue(.digits, "5")),
      ("otpauth://totp/x?secret=\(secret)&digits=", .badValue(.digits, "")),
      ("otpauth://totp/x?secret=\(secret)&digits=+6", .badValue(.digits, "+6")),
      ("otpauth://totp/x?secret=\(secret)&period=0", .badValue(.period, "0")),
      ("otpauth://totp/x?secret=\(secret)&period=-30", .badValue(.period, "-30")),
      ("otpauth://totp/x?secret=\(secret)&period=86401", .badValue(.period, "86401")),
      (
        "otpauth://totp/x?secret=\(secret)&period=99999999999999999999999",
        .badValue(.period, "99999999999999999999999")
      ),
      ("otpauth://totp/x?secret=\(secret)&algorithm=MD5", .badValue(.algorithm, "MD5")),
      ("otpauth://totp/x?secret=\(secret)&algorithm=SHA-256", .badValue(.algorithm, "SHA-256")),
      ("otpauth://hotp/x?secret=\(secret)", .missingParameter(.counter)),
      ("otpauth://hotp/x?secret=\(secret)&counter=-1", .badValue(.counter, "-1")),
      (
        "otpauth://hotp/x?secret=\(secret)&counter=9223372036854775808",
        .badValue(.counter, "9223372036854775808")
      ),
      ("otpauth://hotp/x?secret=\(secret)&counter=1e3", .badValue(.counter, "1e3")),
      ("otpauth://hotp/x?secret=\(secret)&counter=0&algorithm=SHA256", .hotpAlgorithm(.sha256)),
      ("otpauth://totp/x?secret=\(secret)&algorithm=%0a", .badValue(.algorithm, "\n")),
      ("otpauth://totp/x?secret=GEZD%2", .badPercentEscape),
      ("otpauth://totp/x%zz?secret=\(secret)", .badPercentEscape),
      (
        "otpauth://totp/x?secret=" + String(repeating: "A", count: 1640),
        .secretTooLong(bytes: 1025, maximum: 1024)
      ),
    ]
    for (uri, fault) in cases {
      XCTAssertThrowsError(try parse(uri), uri) { error in
        XCTAssertEqual(error as? SecretError, .oneTimeCode(fault), uri)
      }
    }
  }

  func testABareSecretBecomesATOTPURI() throws {
    let uri = try OneTimeCode.uri(
      secret: secure("gezd gnbv gy3t qojq gezd gnbv gy3t qojq"), label: "mail/work é")
    XCTAssertEqual(
      string(uri), "otpauth://totp/mail%2Fwork%20%C3%A9?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    let parsed = try OneTimeCode(uri: uri)
    XCTAssertEqual(parsed.label, "mail/work é")
    XCTAssertEqual(string(try parsed.code(at: 59)), "287082")
    XCTAssertEqual(
      string(try OneTimeCode.uri(secret: secure("MZXW6==="), label: "a")),
      "otpauth://totp/a?secret=MZXW6")
    for bad in ["", "   ", "not base32!", "GEZDGNBV\t"] {
      XCTAssertThrowsError(try OneTimeCode.uri(secret: secure(bad), label: "a"), bad) {
        XCTAssertEqual(
          $0 as? SecretError,
          .oneTimeCode(
            bad.trimmingCharacters(in: .whitespaces).isEmpty ? .emptySecret : .secretNotBase32),
          bad)
      }
    }
  }

  func testTheGeneratorRefusesWhatLiboathCannotMake() {
    XCTAssertThrowsError(try OneTimeCode(secret: SecureBytes(count: 0), kind: .totp(period: 30))) {
      XCTAssertEqual($0 as? SecretError, .oneTimeCode(.emptySecret))
    }
    XCTAssertThrowsError(try OneTimeCode(secret: secure("x"), kind: .totp(period: 30))) {
      XCTAssertEqual(
        $0 as? SecretError, .oneTimeCode(.secretTooShort(bytes: 1, minimum: 10)))
    }
    XCTAssertThrowsError(
      try OneTimeCode(secret: secure("0123456789"), kind: .totp(period: 30), digits: 9)
    ) {
      XCTAssertEqual($0 as? SecretError, .oneTimeCode(.badValue(.digits, "9")))
    }
  }
}
