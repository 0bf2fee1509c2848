import FoundationEssentials
import Glibc

extension String {
  /// The text in Unicode Normalization Form C (canonical composition), as names are stored and
  /// compared.
  ///
  /// ASCII text is its own NFC and is returned as it is. Other text is composed by the Swift
  /// standard library's own normalizer (`_nfcCodeUnits`, the Unicode data String comparison
  /// uses), so no Foundation or ICU is loaded.
  public var canonicallyComposed: String {
    utf8.allSatisfy { $0 < 0x80 } ? self : String(decoding: _nfcCodeUnits, as: UTF8.self)
  }
}

extension String {
  /// True when this text's UTF-8 bytes sort before `other`'s (byte by byte, a prefix first): the
  /// order names are listed, exported and completed in, the same on every machine and locale.
  ///
  /// One `memcmp` over the contiguous bytes (what a listing of 100,000 names sorts by), not a
  /// loop over the generic `UTF8View`.
  public func precedesInByteOrder(_ other: String) -> Bool {
    let compared = utf8.withContiguousStorageIfAvailable { mine in
      other.utf8.withContiguousStorageIfAvailable { theirs -> Bool in
        let shorter = Swift.min(mine.count, theirs.count)
        if shorter > 0, let a = mine.baseAddress, let b = theirs.baseAddress {
          let order = memcmp(a, b, shorter)
          if order != 0 { return order < 0 }
        }
        return mine.count < theirs.count
      }
    }
    if let compared, let result = compared { return result }
    return utf8.lexicographicallyPrecedes(other.utf8)
  }
}
