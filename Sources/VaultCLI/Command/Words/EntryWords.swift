import VaultCore
import VaultFormat

/// The words of what a command asked of an entry, a field, a line, a revision, a journal entry or a program that is not there or not valid.
enum EntryWords {
  /// The exit code, message and hint of one of this domain's errors (`ExitStatus.report`).
  static func report(_ error: VaultError) -> ExitStatus.Report {
    switch error {
    case .notFound(let name):
      return (.noSuchEntry, "no entry named '\(name)'", "see 'vault list'")
    case .programNotFound(let program):
      return (.commandNotFound, "'\(program)' was not found on PATH; nothing was read", nil)
    case .programNotStarted(let program, let reason):
      return (.cannotRun, "cannot run '\(program)': \(reason)", nil)
    case .noField(let name, let key, let keys):
      return (
        .noSuchEntry, "'\(name)' has no field '\(key)'",
        "its fields: " + keys.joined(separator: ", ")
      )
    case .notText:
      return (
        .invalidInput,
        "the content is not UTF-8 text (invalid UTF-8 or a NUL byte), so it has no lines or fields",
        "read it whole with 'vault get'"
      )
    case .tooLarge(let name, let length):
      return (
        .invalidInput,
        "'\(name)' is too large to read into memory (\(length) bytes; the limit is"
          + " \(EntryStore.streamThreshold)); nothing was read",
        "read it whole with: vault get \(ShellWord.argument(name)) > FILE"
      )
    case .noLine(let name, let line, let count):
      return (
        .noSuchEntry, "'\(name)' has no line \(line)",
        "it has \(count) line" + (count == 1 ? "" : "s")
      )
    case .removed(let name):
      return (
        .noSuchEntry, "the entry '\(name)' was removed",
        "bring it back with: vault restore \(ShellWord.argument(name))"
      )
    case .purged(let name):
      return (.noSuchEntry, "the entry '\(name)' was purged; nothing of it is kept", nil)
    case .revisionNotFound(let name, let revision?):
      return (
        .noSuchEntry, "no revision \(revision) of '\(name)' is kept", "see 'vault history \(name)'"
      )
    case .revisionNotFound(let name, nil):
      return (.noSuchEntry, "no earlier revision of '\(name)' is kept", nil)
    case .journalEntryNotFound(let lookup):
      return (
        .noSuchEntry, "no journal entry \(JournalWords.words(lookup))", "see 'vault journal list'"
      )
    case .noOneTimeCode(let name):
      return (
        .noSuchEntry, "'\(name)' has no one-time code (no otp field and no otpauth:// line)",
        "store one with: vault otp \(ShellWord.argument(name)) --set"
      )
    case .exists(let name):
      return (.exists, "an entry named '\(name)' exists", "use --force to replace it")
    case .invalidInput(let fault):
      return (.invalidInput, InputWords.phrase(fault), nil)
    case .notAJournalID(let word):
      return (
        .invalidInput,
        "'\(word)' is not a journal entry ID (1 to 32 hex digits; see 'vault journal list')", nil
      )
    default:
      preconditionFailure("\(error) is not one of \(Self.self)'s")
    }
  }
}
