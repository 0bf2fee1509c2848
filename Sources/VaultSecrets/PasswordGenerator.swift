import Glibc
import VaultCrypto
import VaultFormat

/// Random passwords and passphrases for `vault generate`, drawn with `randombytes_uniform`
/// (uniform without modulo bias) and built directly in guarded memory.
public enum PasswordGenerator {
  /// Lower-case letters.
  public static let lowercase = Array("abcdefghijklmnopqrstuvwxyz".utf8)
  /// Upper-case letters.
  public static let uppercase = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
  /// Digits.
  public static let digits = Array("0123456789".utf8)
  /// Symbols: ASCII punctuation without quotes, backslash, backtick and space, which scripts and
  /// shells mangle.
  public static let symbols = Array("!#$%&()*+,-./:;<=>?@[]^_{|}~".utf8)
  /// Allowed password lengths.
  public static let lengths = 8...1024
  /// Default password length.
  public static let defaultLength = 24
  /// Allowed passphrase word counts.
  public static let wordCounts = 3...64
  /// Separator between passphrase words.
  public static let separator = UInt8(ascii: "-")

  /// A password of `length` characters with at least one character of every class in use
  /// (lower case, upper case, digits and, unless `symbols` is false, symbols).
  ///
  /// - Throws: `SecretError.passwordLength` for a length outside 8...1024.
  public static func password(length: Int, symbols useSymbols: Bool) throws -> SecureBytes {
    try password(
      length: length,
      alphabet: PasswordAlphabet(
        named: [.lower, .upper, .digits] + (useSymbols ? [.symbols] : [])))
  }

  /// A password of `length` characters drawn from `alphabet`, with at least one character of
  /// each of its classes.
  ///
  /// Candidates missing a class are drawn again, so every allowed password is equally likely.
  ///
  /// - Throws: `SecretError.passwordLength` for a length outside 8...1024.
  public static func password(length: Int, alphabet: PasswordAlphabet) throws -> SecureBytes {
    guard lengths.contains(length) else {
      throw SecretError.passwordLength(length, allowed: lengths)
    }
    let classes = alphabet.classes
    let alphabet = alphabet.characters
    while true {
      let out = SecureBytes(count: length)
      var seen = Set<Int>()
      for index in 0..<length {
        let byte = alphabet[uniform(alphabet.count)]
        out[index] = byte
        if let kind = classes.firstIndex(where: { $0.contains(byte) }) { seen.insert(kind) }
      }
      if seen.count == classes.count { return out }
    }
  }

  /// The number of words in the built-in list.
  public static var wordListSize: Int { WordList.words.count }

  /// The entropy in bits of a passphrase of `count` words: `count` × log2 of the list's size.
  public static func passphraseEntropy(words count: Int) -> Double {
    Double(count) * log2(Double(wordListSize))
  }

  /// A passphrase of `count` words from the built-in list, joined by `separator` (`-` by
  /// default; it may be empty).
  ///
  /// - Throws: `SecretError.wordCount` for a count outside 3...64.
  public static func passphrase(words count: Int, separator: [UInt8] = [separator]) throws
    -> SecureBytes
  {
    guard wordCounts.contains(count) else {
      throw SecretError.wordCount(count, allowed: wordCounts)
    }
    // Built in a buffer long enough for the longest words, then copied to its exact length, so
    // the chosen words never sit in ordinary memory.
    let longest = WordList.words.map(\.utf8.count).max() ?? 0
    let scratch = SecureBytes(count: count * (longest + separator.count))
    var offset = 0
    for index in 0..<count {
      if index > 0 {
        for byte in separator {
          scratch[offset] = byte
          offset += 1
        }
      }
      for byte in WordList.words[uniform(WordList.words.count)].utf8 {
        scratch[offset] = byte
        offset += 1
      }
    }
    return scratch.prefix(offset, packed: false)
  }

  /// A uniform random integer in `0..<bound` (`randombytes_uniform`).
  static func uniform(_ bound: Int) -> Int {
    Int(SecureRandom.uniform(below: UInt32(bound)))
  }
}
