import Glibc
import VaultFormat

/// The characters a generated password is drawn from: classes, each of which the password
/// contains at least once (`vault generate --charset`, `--no-ambiguous`).
public struct PasswordAlphabet: Equatable, Sendable {
  /// A named class of characters.
  public enum Class: String, CaseIterable, Sendable {
    /// `a`–`z`.
    case lower
    /// `A`–`Z`.
    case upper
    /// `0`–`9`.
    case digits
    /// `PasswordGenerator.symbols`.
    case symbols

    /// The characters of the class.
    public var characters: [UInt8] {
      switch self {
      case .lower: PasswordGenerator.lowercase
      case .upper: PasswordGenerator.uppercase
      case .digits: PasswordGenerator.digits
      case .symbols: PasswordGenerator.symbols
      }
    }
  }

  /// Characters that look alike in many fonts, left out by `--no-ambiguous`.
  public static let ambiguous = Array("0O1lI".utf8)
  /// Where a literal set starts in a `--charset` value.
  public static let literalMarker = "chars:"

  /// The classes in use, disjoint and non-empty, in the order given.
  public let classes: [[UInt8]]

  /// Every character, once.
  public var characters: [UInt8] { classes.flatMap { $0 } }

  /// An alphabet of `named` classes and an optional literal set of printable ASCII characters
  /// (the literal set's characters that a named class has are left to that class).
  ///
  /// - Throws: `SecretError.tooFewCharacters` when fewer than 2 characters are left,
  ///   `.literalNotPrintable` when a literal character is not printable ASCII (`!` to `~`).
  public init(named: [Class], literal: [UInt8] = [], noAmbiguous: Bool = false) throws {
    guard literal.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
      throw SecretError.literalNotPrintable
    }
    var used = Set<UInt8>()
    var classes: [[UInt8]] = []
    for characters in named.map(\.characters) + [literal] {
      var kept: [UInt8] = []
      for byte in characters
      where !(noAmbiguous && Self.ambiguous.contains(byte)) && used.insert(byte).inserted {
        kept.append(byte)
      }
      if !kept.isEmpty { classes.append(kept) }
    }
    guard !classes.isEmpty, classes.joined().count >= 2 else {
      throw SecretError.tooFewCharacters(count: classes.joined().count)
    }
    self.classes = classes
  }

  /// Parses a `--charset` value: class names joined by `,`, then optionally `chars:` and a
  /// literal set that runs to the end (`lower,digits,chars:-_`).
  ///
  /// - Throws: `SecretError.unknownClass` naming an unknown class, `.emptyLiteral` for `chars:`
  ///   with nothing after it, or as `init` does.
  public init(charset: String, noAmbiguous: Bool) throws {
    var names = Substring(charset)
    var literal: [UInt8] = []
    if let marker = charset.firstRange(of: Self.literalMarker) {
      names = charset[..<marker.lowerBound]
      literal = Array(charset[marker.upperBound...].utf8)
      guard !literal.isEmpty else {
        throw SecretError.emptyLiteral
      }
    }
    var named: [Class] = []
    for word in names.split(separator: ",") {
      guard let namedClass = Class(rawValue: String(word)) else {
        throw SecretError.unknownClass(String(word))
      }
      if !named.contains(namedClass) { named.append(namedClass) }
    }
    try self.init(named: named, literal: literal, noAmbiguous: noAmbiguous)
  }

  /// The entropy in bits of a password of `length` characters drawn uniformly among those that
  /// contain every class: log2 of their number, by inclusion and exclusion over the classes.
  public func entropy(length: Int) -> Double {
    let size = Double(characters.count)
    var missing = 0.0
    for mask in 1..<(1 << classes.count) {
      let left = classes.indices.filter { mask & (1 << $0) == 0 }.map { classes[$0].count }
        .reduce(0, +)
      let sign = mask.nonzeroBitCount % 2 == 1 ? 1.0 : -1.0
      missing += sign * pow(Double(left) / size, Double(length))
    }
    return Double(length) * log2(size) + log2(max(1 - missing, .leastNormalMagnitude))
  }
}
