import FoundationEssentials
import Glibc
import VaultCrypto

/// The tags of journal entries: words that start with `@`, as jrnl reads them.
///
/// A tag is an `@` at the start of the text or right after white space, followed by one or more
/// letters, digits, combining marks, `_` or `-` (Unicode categories L, M and N); it ends at the
/// first other character. So `@work`, `(see @home)` is not one (`(` comes before `@`) and an
/// address `a@b.c` never is. Tags are grouped without regard to case: a tag's key is its word,
/// NFC-normalized and lower-cased, without the `@`.
public enum JournalTags {
  /// The tag keys of `text` (UTF-8; invalid sequences end a tag and count as non-space), each
  /// once, in the order of their first appearance.
  ///
  /// Only the tags become strings: the rest of the text stays in the caller's guarded memory.
  public static func keys(in text: SecureBytes) -> [String] {
    text.withBytes { keys(inUTF8: $0) }
  }

  /// As `keys(in:)`, for bytes.
  public static func keys(inUTF8 bytes: UnsafeRawBufferPointer) -> [String] {
    var found: [String] = []
    var seen: Set<String> = []
    var afterSpace = true
    var tag: String.UnicodeScalarView?
    func finish() {
      guard let scalars = tag else { return }
      tag = nil
      if !scalars.isEmpty, let key = key(String(scalars)), seen.insert(key).inserted {
        found.append(key)
      }
    }
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    decoding: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        if tag != nil, isTagScalar(scalar) {
          tag?.append(scalar)
          continue
        }
        finish()
        if scalar == "@" && afterSpace {
          tag = String.UnicodeScalarView()
        }
        afterSpace = scalar.properties.isWhitespace
      case .error:
        finish()
        afterSpace = false
      case .emptyInput:
        finish()
        break decoding
      }
    }
    return found
  }

  /// The key of a tag as typed, with or without its `@` (`@Work` → `work`), or nil when the word
  /// is not a whole tag (empty, or with a character a tag cannot hold).
  public static func key(_ word: String) -> String? {
    let body = word.hasPrefix("@") ? word.dropFirst() : Substring(word)
    let normalized = String(body).canonicallyComposed
    guard !normalized.isEmpty, normalized.unicodeScalars.allSatisfy(isTagScalar) else {
      return nil
    }
    return normalized.lowercased().canonicallyComposed
  }

  /// Every tag of `entries` with the number of entries that have it, most used first, then by
  /// key (UTF-8 byte order).
  public static func counts(_ entries: [JournalEntry]) -> [(key: String, count: Int)] {
    var counts: [String: Int] = [:]
    for entry in entries {
      for key in keys(in: entry.text) { counts[key, default: 0] += 1 }
    }
    return counts.map { (key: $0.key, count: $0.value) }.sorted {
      $0.count != $1.count
        ? $0.count > $1.count : $0.key.precedesInByteOrder($1.key)
    }
  }

  private static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "_" || scalar == "-" { return true }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
      return true
    default:
      return false
    }
  }
}
