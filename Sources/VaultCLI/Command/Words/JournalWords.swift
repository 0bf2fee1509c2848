import VaultFormat
import VaultJournal

/// The words of the journal: an ID or DATE that names nothing, how an entry was asked for, why
/// a pending row is refused.
enum JournalWords {
  /// How an entry was asked for, as the message says it after "no journal entry ".
  static func words(_ lookup: JournalLookup) -> String {
    switch lookup {
    case .id(let prefix): "with ID '\(prefix)'"
    case .day(let date): "on \(date)"
    }
  }

}

extension JournalError: ReportableError {
  /// An ID or DATE that names nothing is invalid input (5).
  var exitCode: ExitCode { .invalidInput }

  /// One line for the user.
  var message: String {
    switch self {
    case .invalidDate(let word):
      "invalid date '\(word)' (use \(JournalDate.forms); N is at most"
        + " \(JournalDate.maximumDaysAgo))"
    case .neitherIDNorDate(let word):
      "'\(word)' is neither a journal entry ID nor a date (\(JournalDate.forms))"
    case .ambiguousID(let prefix, let matches):
      "the ID '\(prefix)' matches \(matches) journal entries; give more digits"
    }
  }
}
