import Foundation

extension String {
  /// The text in Unicode Normalization Form C (canonical composition), as names are stored and
  /// compared.
  ///
  /// ASCII text is its own NFC and is returned as it is, without Foundation's normalization
  /// (which costs more than the rest of a `vault get` together).
  public var canonicallyComposed: String {
    utf8.allSatisfy { $0 < 0x80 } ? self : precomposedStringWithCanonicalMapping
  }
}
