import VaultCore
import VaultJournal

/// A journal TAG as typed after `--tag`: `@work` or `work`, in any case.
public struct JournalTagWord: ArgumentValue, Equatable {
  /// The tag's key (`JournalTags.key`): lower case, without the `@`.
  public let key: String

  /// - Throws: `ValueError` for a word that is not a tag.
  public init(argument: String, label: String) throws {
    guard let key = JournalTags.key(argument) else {
      throw ValueError(
        "invalid tag '\(argument)' for \(label) (letters, digits, '_' and '-', after an optional"
          + " '@')")
    }
    self.key = key
  }

  /// The tags of the journal, through `vault __complete --tags`.
  public static var completion: CompletionKind { .journalTag }
}
