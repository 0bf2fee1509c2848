import VaultFormat

/// The words of refused input: which name, value or limit.
enum InputWords {
  /// The one-line message, said as it is.
  static func phrase(_ fault: InputFault) -> String {
    switch fault {
    // MARK: Records, state, SQLite, entries
    case .name(let fault): words(fault)
    case .emptyContent: "the content is empty"
    case .streamedContentStartsShort: "a streamed content starts with more than 1 MiB"
    case .journalRecord(let fault): words(fault)
    case .currentRevision(let name, let revision):
      "revision \(revision) of '\(name)' is its current version"
    case .settingOutOfRange(let key):
      "\(key.name) is a whole number from \(key.range.lowerBound) to \(key.range.upperBound)"
    }
  }

  // MARK: Records, state, SQLite, entries

  /// Why a string is not an entry name.
  static func words(_ fault: EntryNameFault) -> String {
    switch fault {
    case .empty: "the name is empty"
    case .tooLong(let maximum): "the name is longer than \(maximum) bytes"
    case .controlCharacter: "the name contains a control character"
    case .emptySegment(let name): "the name '\(name)' has an empty path segment"
    case .dotSegment(let name, let segment): "the name '\(name)' has a '\(segment)' segment"
    }
  }

  /// Why a journal entry's fields cannot be encoded.
  static func words(_ fault: JournalRecordFault) -> String {
    switch fault {
    case .idsNotSixteenBytes: "a journal entry id and writer id are 16 bytes each"
    case .zeroSequenceOrRevision: "a journal entry's sequence and revision start at 1"
    case .textTooLong: "a journal entry is too long"
    }
  }
}
