import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal

/// What the journal commands share: a blank text, and the warnings about entries that did not
/// verify or are missing.
enum JournalWarnings {
  /// True when `text` is only spaces, tabs and line breaks.
  static func isBlank(_ text: SecureBytes) -> Bool {
    text.withBytes { $0.allSatisfy { [9, 10, 13, 32].contains($0) } }
  }

  /// Warns on standard error of what `vault check` would refuse in the journal.
  static func warn(about contents: JournalContents) {
    let count = contents.unverified.count
    if count > 0 {
      Output.error(
        "vault: warning: \(count) pending journal entr\(count == 1 ? "y is" : "ies are") not"
          + " verified: listed without \(count == 1 ? "its" : "their") text; 'vault check'"
          + " refuses \(count == 1 ? "it" : "them")")
    }
    warnOfGaps(contents.missing)
  }

  /// Warns of journal sequence numbers a writer used that never arrived.
  static func warnOfGaps(_ missing: [(writer: String, ranges: [ClosedRange<UInt64>])]) {
    for (writer, ranges) in missing {
      let numbers = ranges.map {
        $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)"
      }
      let count = ranges.reduce(0) { $0 + $1.count }
      Output.error(
        "vault: warning: journal writer \(writer.prefix(8)) never delivered its"
          + " entr\(count == 1 ? "y" : "ies") \(numbers.joined(separator: ", ")) (a write killed"
          + " before it was stored, or entries removed from the file before they were folded)")
    }
  }

}
