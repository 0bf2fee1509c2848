import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets
import VaultSync
import VaultTransfer
import XCTest

@testable import VaultCLI

/// The words the command line gives the facts of fields, passwords, patterns and one-time codes refused: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class SecretWordsTests: XCTestCase {
  func testFieldsPasswordsAndPatternsRefused() {
    let cases: [(SecretError, String)] = [
      (
        .notAFieldKey("user name"),
        "'user name' is not a field key: use 1 to 64 bytes without spaces, control characters or"
          + " ':'"
      ),
      (
        .valueNotOneLine(key: "a"),
        "a field's value is one line of UTF-8 text: no line break, NUL byte or invalid UTF-8"
      ),
      (
        .valueStartsWithBlank(key: "a"),
        "a field's value cannot start with a space or a tab: the convention reads past them"
      ),
      (
        .valueOpensBlock(key: "a"),
        "a field's value cannot be '|' or '|-' alone: the convention reads that as the start of a"
          + " block of indented lines; write the field with 'vault edit'"
      ),
      (
        .lastLineEndsInCarriageReturn,
        "the entry's last line ends in a carriage return without a line feed, which a new field"
          + " after it would change; add the field with 'vault edit'"
      ),
      (
        .passwordNotRemovable,
        "the password is the first line and cannot be removed; replace it with 'vault set NAME"
          + " password'"
      ),
      (.passwordLength(7, allowed: 8...1024), "the length must be between 8 and 1024"),
      (.wordCount(65, allowed: 3...64), "the word count must be between 3 and 64"),
      (
        .literalNotPrintable,
        "a literal character set has printable ASCII characters only ('!' to '~', no space)"
      ),
      (.emptyLiteral, "'chars:' is followed by no characters"),
      (
        .unknownClass("letters"),
        "unknown character class 'letters' (use lower, upper, digits, symbols, then"
          + " chars:CHARACTERS for a set of your own)"
      ),
      (.tooFewCharacters(count: 1), "the character set has fewer than 2 characters"),
      (.emptyPattern, "the pattern is empty"),
      (
        .invalidPattern("a[", regerror: "Unmatched [, [^, [:, [., or [="),
        "invalid pattern 'a[': Unmatched [, [^, [:, [., or [="
      ),
      (.oneTimeCode(.emptySecret), "the one-time code secret is empty"),
      (
        .oneTimeCode(.secretTooShort(bytes: 1, minimum: 10)),
        "the one-time code secret is 1 byte; at least 10 (16 base32 characters, 80 bits) are"
          + " needed"
      ),
      (
        .oneTimeCode(.secretTooShort(bytes: 9, minimum: 10)),
        "the one-time code secret is 9 bytes; at least 10 (16 base32 characters, 80 bits) are"
          + " needed"
      ),
      (
        .oneTimeCode(.clockOutOfRange(time: -1)),
        "the clock is outside the range one-time codes are made for"
      ),
      (
        .oneTimeCode(.counterExhausted(entry: "mail/work")),
        "the HOTP counter of 'mail/work' cannot grow any more"
      ),
    ]
    for (error, line) in cases {
      XCTAssertEqual(error.message, line)
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertNil(error.hint)
    }
    let notMade = SecretError.oneTimeCodeNotMade(liboath: "Generic error")
    XCTAssertEqual(notMade.message, "liboath could not make the one-time code (Generic error)")
    XCTAssertEqual(notMade.exitCode, .failure)
  }

  /// Every refusal of an `otpauth://` URI, in the words users saw.
  func testEveryOneTimeCodeRefusalSaysWhy() {
    let notBase32 =
      "the one-time code secret is not base32 (letters A to Z and digits 2 to 7, with or without ="
      + " padding and spaces)"
    let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
    let cases: [(String, String)] = [
      ("https://example.com/?secret=\(secret)", "the one-time code is not an otpauth:// URI"),
      (
        "otpauth://motp/x?secret=\(secret)",
        "the otpauth URI's type 'motp' is unknown: use otpauth://totp/... or otpauth://hotp/..."
      ),
      ("otpauth://totp/x?issuer=a", "the otpauth URI has no secret= parameter"),
      ("otpauth://totp/x?secret=", "the one-time code secret is empty"),
      ("otpauth://totp/x?secret=%20%20", "the one-time code secret is empty"),
      ("otpauth://totp/x?secret=GEZ1GNBV", notBase32),
      ("otpauth://totp/x?secret=ABC", notBase32),
      ("otpauth://totp/x?secret=\(secret)&secret=\(secret)", "the otpauth URI gives secret= twice"),
      (
        "otpauth://totp/x?secret=\(secret)&DIGITS=6&digits=6", "the otpauth URI gives digits= twice"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&digits=9",
        "the otpauth URI's digits must be 6, 7 or 8, not '9'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&digits=5",
        "the otpauth URI's digits must be 6, 7 or 8, not '5'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&digits=",
        "the otpauth URI's digits must be 6, 7 or 8, not ''"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&digits=+6",
        "the otpauth URI's digits must be 6, 7 or 8, not '+6'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&period=0",
        "the otpauth URI's period must be whole seconds from 1 to 86400, not '0'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&period=-30",
        "the otpauth URI's period must be whole seconds from 1 to 86400, not '-30'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&period=86401",
        "the otpauth URI's period must be whole seconds from 1 to 86400, not '86401'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&period=99999999999999999999999",
        "the otpauth URI's period must be whole seconds from 1 to 86400, not '99999999999999999999999'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&algorithm=MD5",
        "the otpauth URI's algorithm 'MD5' is unknown: use SHA1, SHA256 or SHA512"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&algorithm=SHA-256",
        "the otpauth URI's algorithm 'SHA-256' is unknown: use SHA1, SHA256 or SHA512"
      ),
      (
        "otpauth://hotp/x?secret=\(secret)",
        "an otpauth://hotp URI needs a counter= parameter (its first counter, such as 0)"
      ),
      (
        "otpauth://hotp/x?secret=\(secret)&counter=-1",
        "the otpauth URI's counter must be a whole number from 0 to 9223372036854775807, not '-1'"
      ),
      (
        "otpauth://hotp/x?secret=\(secret)&counter=9223372036854775808",
        "the otpauth URI's counter must be a whole number from 0 to 9223372036854775807, not"
          + " '9223372036854775808'"
      ),
      (
        "otpauth://hotp/x?secret=\(secret)&counter=1e3",
        "the otpauth URI's counter must be a whole number from 0 to 9223372036854775807, not '1e3'"
      ),
      (
        "otpauth://hotp/x?secret=\(secret)&counter=0&algorithm=SHA256",
        "an otpauth://hotp URI's algorithm must be SHA1 (HOTP is HMAC-SHA-1), not 'SHA256'"
      ),
      (
        "otpauth://totp/x?secret=\(secret)&algorithm=%0a",
        "the otpauth URI's algorithm '?' is unknown: use SHA1, SHA256 or SHA512"
      ),
      (
        "otpauth://totp/x?secret=GEZD%2",
        "the otpauth URI has a '%' that is not followed by two hex digits"
      ),
      (
        "otpauth://totp/x%zz?secret=\(secret)",
        "the otpauth URI has a '%' that is not followed by two hex digits"
      ),
      (
        "otpauth://totp/x?secret=" + String(repeating: "A", count: 1640),
        "the one-time code secret is longer than 1024 bytes"
      ),
    ]
    for (uri, message) in cases {
      XCTAssertThrowsError(try OneTimeCode(uri: SecureBytes(copying: Array(uri.utf8))), uri) {
        XCTAssertEqual(($0 as? SecretError)?.message, message, uri)
        XCTAssertEqual(($0 as? SecretError)?.exitCode, .invalidInput, uri)
      }
    }
    XCTAssertThrowsError(
      try OneTimeCode(
        secret: SecureBytes(copying: Array("0123456789".utf8)), kind: .hotp(counter: 0),
        algorithm: .sha512)
    ) {
      XCTAssertEqual(
        ($0 as? SecretError)?.message,
        "an otpauth://hotp URI's algorithm must be SHA1 (HOTP is HMAC-SHA-1), not 'SHA512'")
    }
  }
}
