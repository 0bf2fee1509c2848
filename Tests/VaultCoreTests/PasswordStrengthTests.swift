import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// The estimate `vault audit` uses, on exact values.
final class PasswordStrengthTests: XCTestCase {
  private func bits(_ text: String) -> Double {
    PasswordStrength.estimatedBits(SecureBytes(copying: Array(text.utf8)))
  }

  func testPoolsSequencesAndRepeats() {
    XCTAssertEqual(bits("hunter"), 6 * log2(26), accuracy: 1e-9)
    XCTAssertEqual(bits("Hunter2!"), 8 * log2(95), accuracy: 1e-9)
    XCTAssertEqual(bits("aaaaaaaaaaaa"), log2(26), accuracy: 1e-9, "a repeat counts nothing")
    XCTAssertEqual(bits("abcdef123456"), 2 * log2(36), accuracy: 1e-9, "steps count nothing")
    XCTAssertEqual(bits("pässwörd"), 7 * log2(126), accuracy: 1e-9, "the second s repeats")
    XCTAssertEqual(bits(""), 0)
    XCTAssertEqual(PasswordStrength.length(SecureBytes(copying: Array("pässwörd".utf8))), 8)
  }

  func testPassphrasesCountWords() {
    let word = log2(Double(PasswordGenerator.wordListSize))
    XCTAssertEqual(bits("river-amber-candle-orbit"), 4 * word, accuracy: 1e-9)
    XCTAssertEqual(bits("River Amber Candle"), 3 * word, accuracy: 1e-9)
    XCTAssertEqual(bits("river"), 5 * log2(26), accuracy: 1e-9, "one word is no passphrase")
    XCTAssertEqual(bits("river-zzzzqx"), 9 * log2(59), accuracy: 1e-9, "not all words")
  }
}
