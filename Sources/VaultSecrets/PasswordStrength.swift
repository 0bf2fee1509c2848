import Glibc
import VaultCrypto

/// An offline estimate of a password's strength for `vault audit`, read in place from guarded
/// memory (`vault(1)` AUDIT).
///
/// A password made only of words of the built-in list (joined by non-letters, or by nothing)
/// counts log2(2635) bits a word. Any other counts log2 of its pool (26 for lower-case letters,
/// 26 for upper-case, 10 for digits and 33 for other ASCII characters, each when present, and
/// 100 when it has a character beyond ASCII) for each character, except that a character that
/// repeats the one before it, or steps by one from it (`abc`, `321`), counts nothing.
public enum PasswordStrength {
  /// Fewer characters than this is short.
  public static let minimumLength = 12
  /// Fewer estimated bits than this is weak.
  public static let minimumBits = 50

  /// The estimated entropy of `password` (UTF-8) in bits.
  public static func estimatedBits(_ password: SecureBytes) -> Double {
    password.withBytes { bytes in
      if let words = wordCount(bytes) {
        return Double(words) * log2(Double(PasswordGenerator.wordListSize))
      }
      var lower = false
      var upper = false
      var digit = false
      var other = false
      var beyond = false
      var effective = 0
      var previous: UInt8?
      for byte in bytes where byte & 0xC0 != 0x80 {
        switch byte {
        case 0x61...0x7A: lower = true
        case 0x41...0x5A: upper = true
        case 0x30...0x39: digit = true
        case 0..<0x80: other = true
        default: beyond = true
        }
        let step = previous.map { abs(Int($0) - Int(byte)) } ?? 2
        if byte >= 0x80 || step > 1 { effective += 1 }
        previous = byte
      }
      let pool =
        (lower ? 26 : 0) + (upper ? 26 : 0) + (digit ? 10 : 0) + (other ? 33 : 0)
        + (beyond ? 100 : 0)
      return pool < 2 ? 0 : Double(effective) * log2(Double(pool))
    }
  }

  /// The number of characters (Unicode scalars) of UTF-8 `password`.
  public static func length(_ password: SecureBytes) -> Int {
    password.withBytes { bytes in bytes.filter { $0 & 0xC0 != 0x80 }.count }
  }

  /// The built-in words as bytes, for the passphrase test.
  private static let words: Set<[UInt8]> = Set(WordList.words.map { Array($0.utf8) })

  /// How many words the password is when it is only words of the list (lower case, or
  /// capitalized) joined by non-letters; nil otherwise.
  static func wordCount(_ bytes: UnsafeRawBufferPointer) -> Int? {
    var count = 0
    var word: [UInt8] = []
    defer { wipe(&word) }
    func isLetter(_ byte: UInt8) -> Bool {
      (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
    }
    var index = 0
    while index <= bytes.count {
      if index < bytes.count && isLetter(bytes[index]) {
        word.append(bytes[index] | 0x20)
      } else if !word.isEmpty {
        guard words.contains(word) else { return nil }
        count += 1
        wipe(&word)
        word = []
      }
      index += 1
    }
    return count >= 2 ? count : nil
  }
}
