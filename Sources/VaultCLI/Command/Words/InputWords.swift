import VaultFormat

/// The words of refused input: which name, value or limit.
enum InputWords {
  /// The one-line message, said as it is.
  static func phrase(_ fault: InputFault) -> String {
    switch fault {
    // MARK: Core, agent, journal
    case .pin(let fault): phrase(fault)
    case .nameGivenTwice(let name, let origin): "the name '\(name)' is already given at \(origin)"
    case .noFreeName(let name, let origin):
      "the name '\(name)' is already given at \(origin), and no 'NAME (N)' for it is a valid name"
    case .emptyContent: "the content is empty"
    case .emptyJournalEntry: "the journal entry is empty"
    case .journalEntryTooLarge: "a journal entry is limited to 16 MiB"
    }
  }

  // MARK: Core, agent, journal

  /// The words of a refused PIN.
  static func phrase(_ fault: PINFault) -> String {
    switch fault {
    case .controlCharacter: "the PIN contains a control character"
    case .tooShort(let minimum): "the PIN must have at least \(minimum) characters"
    case .tooLong(let maximum): "the PIN is longer than \(maximum) bytes"
    case .notUTF8: "the PIN is not valid UTF-8"
    case .tooShortToSet(let minimum): "a new PIN needs at least \(minimum) characters"
    }
  }
}
