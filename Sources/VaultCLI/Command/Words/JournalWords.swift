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

  /// Why a pending row is refused, as `vault journal list` and `vault check` say it.
  static func reason(_ refusal: JournalRefusal) -> String {
    switch refusal {
    case .malformedRow: "the row is malformed"
    case .damaged(let damage): DamageWords.phrase(damage)
    case .damagedText(let why): why
    case .copyOfFoldedEntry: "a copy of an entry already in the journal"
    case .sequenceUsed(let sequence):
      "its writer's sequence number \(sequence) was already used (a replayed entry)"
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
