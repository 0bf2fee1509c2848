import FoundationEssentials
import Glibc
import VaultFormat

/// Fuzzy subsequence matching of entry names for `vault find`, in the manner of gopass.
///
/// A WORD matches a name when its characters appear in the name in order (any case). Each
/// matched character scores `matched`, plus `adjacent` when it comes right after the previous
/// matched character of the same WORD, plus `segmentStart` when it is the name's first character
/// or follows a `/`; the best alignment counts. A name's score is the sum over its WORDs minus a
/// quarter of its length in characters (rounded down), so shorter names come first.
enum FuzzyMatch {
  static let matched = 1
  static let adjacent = 5
  static let segmentStart = 3

  /// The score of `name` for `words`, or nil when one of them does not match.
  static func score(_ name: String, words: [String]) -> Int? {
    let characters = folded(name)
    var total = 0
    for word in words {
      guard let score = score(characters, folded(word)) else { return nil }
      total += score
    }
    return total - characters.count / 4
  }

  /// The matches of `words` among `names`, best first: by score, then the shorter name, then by
  /// name (UTF-8 byte order).
  static func rank(_ names: [String], words: [String]) -> [(name: String, score: Int)] {
    names.compactMap { name in score(name, words: words).map { (name: name, score: $0) } }
      .sorted { a, b in
        if a.score != b.score { return a.score > b.score }
        if a.name.count != b.name.count { return a.name.count < b.name.count }
        return a.name.precedesInByteOrder(b.name)
      }
  }

  /// Each character of `text` lower-cased (NFC), compared as strings: a lower-cased character
  /// may be more than one scalar.
  private static func folded(_ text: String) -> [String] {
    text.canonicallyComposed.map { String($0).lowercased() }
  }

  /// The best score of `word` aligned as a subsequence of `name`, or nil.
  private static func score(_ name: [String], _ word: [String]) -> Int? {
    guard !word.isEmpty, word.count <= name.count else { return word.isEmpty ? 0 : nil }
    func points(_ index: Int) -> Int {
      matched + (index == 0 || name[index - 1] == "/" ? segmentStart : 0)
    }
    // best[i]: the best score of the word's characters so far with the last one at name[i].
    var best: [Int?] = name.indices.map { name[$0] == word[0] ? points($0) : nil }
    for character in word.dropFirst() {
      var next: [Int?] = Array(repeating: nil, count: name.count)
      var bestBefore: Int?  // the best of best[0..<i-1]
      for i in name.indices {
        if i >= 2, let earlier = best[i - 2] { bestBefore = max(bestBefore ?? earlier, earlier) }
        guard name[i] == character else { continue }
        let gap = bestBefore
        let run = i >= 1 ? best[i - 1].map { $0 + adjacent } : nil
        if let previous = [gap, run].compactMap({ $0 }).max() {
          next[i] = previous + points(i)
        }
      }
      best = next
    }
    return best.compactMap { $0 }.max()
  }
}
