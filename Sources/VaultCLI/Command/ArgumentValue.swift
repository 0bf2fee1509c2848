import VaultCore
import VaultFormat
import VaultJournal

/// A bad value on the command line: a usage error (exit 64), shown with the command's usage line.
public struct ValueError: Error, Equatable, Sendable {
  /// What is wrong, such as `invalid value 'tcsh' for --shell (bash, zsh or fish)`.
  public var message: String
  /// A suggestion such as `did you mean 'zsh'?`.
  public var hint: String?

  /// A value error with an optional hint.
  public init(_ message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }
}

/// A type the command line can carry: one type gives the parsing, the check and the completion of
/// a value (as swift-argument-parser's `ExpressibleByArgument`).
public protocol ArgumentValue: Sendable {
  /// Parses one command-line word.
  ///
  /// - Parameter label: how the value is named in messages (`--shell`, `SHELL`).
  /// - Throws: `ValueError` for a malformed value (exit 64); a `VaultError` for input refused on
  ///   its merits, such as a bad entry name (exit 5).
  init(argument: String, label: String) throws
  /// How a shell completes the value.
  static var completion: CompletionKind { get }
}

extension String: ArgumentValue {
  /// Any word.
  public init(argument: String, label: String) { self = argument }
  /// Free text: nothing to offer.
  public static var completion: CompletionKind { .none }
}

/// One of a fixed set of words: an enum whose raw values are the words (as swift-argument-parser's
/// `CaseIterable` + `ExpressibleByArgument`), parsed with a "did you mean" for a near miss.
public protocol ChoiceValue: ArgumentValue, CaseIterable, RawRepresentable
where RawValue == String {
  /// Values accepted but never offered (in help or completion), such as the test-only KDF.
  static var hiddenChoices: [Self] { get }
}

extension ChoiceValue {
  /// No hidden values.
  public static var hiddenChoices: [Self] { [] }

  /// The words offered in help and completion, in declaration order.
  public static var visibleChoices: [String] {
    let hidden = Set(hiddenChoices.map(\.rawValue))
    return allCases.map(\.rawValue).filter { !hidden.contains($0) }
  }

  /// `bash, zsh or fish`.
  public static var choiceList: String {
    // Joined by hand: the generic `joined(separator:)` resolves associated types at run time,
    // and every command builds these lists for its table.
    let words = visibleChoices
    var list = ""
    for (index, word) in words.enumerated() {
      if index > 0 { list += index == words.count - 1 ? " or " : ", " }
      list += word
    }
    return list
  }

  /// Parses one of the raw values.
  ///
  /// - Throws: `ValueError` naming the choices, with the closest one as a hint.
  public init(argument: String, label: String) throws {
    guard let value = Self(rawValue: argument) else {
      throw ValueError(
        "invalid value '\(argument)' for \(label) (\(Self.choiceList))",
        hint: Self.suggestion(for: argument).map { "did you mean '\($0)'?" })
    }
    self = value
  }

  /// The one visible choice that starts with `word` (`face` → `face-id`), else the closest by
  /// edit distance.
  static func suggestion(for word: String) -> String? {
    let folded = word.lowercased()
    if let same = visibleChoices.first(where: { $0.lowercased() == folded }) { return same }
    let extending = visibleChoices.filter { !folded.isEmpty && $0.hasPrefix(folded) }
    if extending.count == 1 { return extending[0] }
    return Suggestion.closest(to: folded, among: visibleChoices)
  }

  /// The visible choices.
  public static var completion: CompletionKind { .values(visibleChoices) }
}

/// A git remote on the command line (`vault sync init`, `sync clone`): the word as given,
/// completed as a file, since a remote is most often a path.
public struct GitRemote: ArgumentValue, Equatable {
  /// The remote as given (checked by the command).
  public let text: String

  /// Any word: whether git can reach it is the command's to find out.
  public init(argument: String, label: String) throws { text = argument }

  /// A file path.
  public static var completion: CompletionKind { .file }
}

/// A path on the command line: any non-empty word, completed as a file.
public struct FilePath: ArgumentValue, Equatable {
  /// The path as given.
  public let path: String

  /// - Throws: `ValueError` for an empty word.
  public init(argument: String, label: String) throws {
    guard !argument.isEmpty else { throw ValueError("\(label) needs a path, not an empty string") }
    path = argument
  }

  /// A file path.
  public static var completion: CompletionKind { .file }
}

extension EntryName: ArgumentValue {
  /// Validates the name as `EntryName.init` does.
  ///
  /// - Throws: `VaultError.invalidInput` (exit 5): a bad name is refused input, not a usage error.
  public init(argument: String, label: String) throws { try self.init(argument) }

  /// Names from the vault, through `vault __complete`.
  public static var completion: CompletionKind { .entryName }
}

/// A journal DATE as typed (`YYYY-MM-DD`, `today`, `yesterday`, `Nd`), checked at once and
/// resolved against the clock when the command runs.
public struct JournalDay: ArgumentValue, Equatable {
  /// The word as given.
  public let text: String

  /// - Throws: `ValueError` naming the accepted forms.
  public init(argument: String, label: String) throws {
    // Validity of a form does not depend on the day it is read.
    guard JournalDate.parseIfDate(argument, now: 0) != nil else {
      throw ValueError(
        "invalid date '\(argument)' (use \(JournalDate.forms); N is at most"
          + " \(JournalDate.maximumDaysAgo))")
    }
    text = argument
  }

  /// The local date this names, with `now` (seconds since the epoch) as the present.
  public func date(now: Double) throws -> CivilDate { try JournalDate.parse(text, now: now) }

  /// The date words.
  public static var completion: CompletionKind { .values(JournalDate.words) }
}
