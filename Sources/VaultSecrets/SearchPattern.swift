import FoundationEssentials
import Glibc
import VaultCrypto
import VaultFormat

/// What `vault grep` looks for: a POSIX extended regular expression (`regcomp` with
/// `REG_EXTENDED`, `REG_ICASE` for `-i`) or, with `fixed`, a plain substring.
///
/// Matching runs line by line over decrypted content in memory; each line is copied into guarded
/// memory for `regexec`, which needs a NUL-terminated string. Character classes and case folding
/// follow the process's `LC_CTYPE`.
public final class SearchPattern {
  private let regex: UnsafeMutablePointer<regex_t>?
  private let needle: [UInt8]
  private let ignoreCase: Bool

  /// Compiles `pattern`.
  ///
  /// - Throws: `SecretError.emptyPattern`, or `.invalidPattern` for one `regcomp` refuses, with
  ///   its reason.
  public init(_ pattern: String, fixed: Bool, ignoreCase: Bool) throws {
    guard !pattern.isEmpty else { throw SecretError.emptyPattern }
    self.needle = Array(pattern.utf8)
    self.ignoreCase = ignoreCase
    guard !fixed else {
      regex = nil
      return
    }
    let compiled = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
    let flags = REG_EXTENDED | REG_NOSUB | (ignoreCase ? REG_ICASE : 0)
    let rc = regcomp(compiled, pattern, flags)
    guard rc == 0 else {
      var message = [CChar](repeating: 0, count: 256)
      regerror(rc, compiled, &message, message.count)
      compiled.deallocate()
      let reason = String(decoding: message.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self)
      throw SecretError.invalidPattern(pattern, regerror: reason)
    }
    regex = compiled
  }

  deinit {
    if let regex {
      regfree(regex)
      regex.deallocate()
    }
  }

  /// True when `line` (without its newline) matches.
  public func matches(_ line: UnsafeRawBufferPointer) -> Bool {
    matches(line, scratch: regex == nil ? nil : SecureBytes(count: line.count + 1))
  }

  /// `text` with case differences removed for a fixed-string search: upper-cased, then
  /// lower-cased, so a final sigma matches a sigma and "ß" matches "SS" (the standard library
  /// has no case folding of its own; this is its full case mappings, one after the other).
  static func folded(_ text: String) -> String { text.uppercased().lowercased() }

  /// `matches`, copying the line for `regexec` into `scratch` (at least one byte longer than the
  /// line, and zero past it), so one guarded buffer serves a whole entry.
  private func matches(_ line: UnsafeRawBufferPointer, scratch: SecureBytes?) -> Bool {
    if let regex, let scratch {
      scratch.write(line)
      scratch[line.count] = 0
      return scratch.withBytes { text in
        regexec(regex, text.baseAddress?.assumingMemoryBound(to: CChar.self), 0, nil, 0) == 0
      }
    }
    if ignoreCase {
      let haystack = String(decoding: line, as: UTF8.self)
      let pattern = String(decoding: needle, as: UTF8.self)
      return Self.folded(haystack).contains(Self.folded(pattern))
    }
    guard needle.count <= line.count else { return false }
    for start in 0...(line.count - needle.count)
    where line[start] == needle[0] && line[start..<start + needle.count].elementsEqual(needle) {
      return true
    }
    return false
  }

  /// The matching lines of `content` with their 1-based numbers, or `.binary` when the content
  /// has a NUL byte or is not valid UTF-8 (a NUL then also ends a line, as in grep).
  public func search(_ content: UnsafeRawBufferPointer) -> SearchResult {
    let binary = content.contains(0) || !UTF8Check.isValid(content)
    var found: [(number: Int, text: String)] = []
    let scratch = regex == nil ? nil : SecureBytes(count: content.count + 1)
    var start = 0
    var number = 0
    while start < content.count {
      number += 1
      let stops: (UInt8) -> Bool = binary ? { $0 == 10 || $0 == 0 } : { $0 == 10 }
      let end = content[start...].firstIndex(where: stops) ?? content.count
      let line = UnsafeRawBufferPointer(rebasing: content[start..<end])
      if matches(line, scratch: scratch) {
        if binary { return .binary }
        found.append((number, String(decoding: line, as: UTF8.self)))
      }
      start = end + 1
    }
    return found.isEmpty ? .none : .lines(found)
  }
}

/// What a search of one entry's content found.
public enum SearchResult {
  /// No line matched.
  case none
  /// These lines matched (1-based line numbers, text without the newline).
  case lines([(number: Int, text: String)])
  /// Binary content matched; it is not shown.
  case binary
}

/// Strict UTF-8 validation (no overlong forms, no surrogates, nothing past U+10FFFF) without
/// copying the bytes into a `String`.
enum UTF8Check {
  static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let (length, low, high): (Int, UInt8, UInt8)
      switch lead {
      case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
      case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
      case 0xED: (length, low, high) = (3, 0x80, 0x9F)
      case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
      case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
      case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
      default: return false
      }
      guard index + length <= bytes.count, (low...high).contains(bytes[index + 1]) else {
        return false
      }
      for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
        return false
      }
      index += length
    }
    return true
  }
}
