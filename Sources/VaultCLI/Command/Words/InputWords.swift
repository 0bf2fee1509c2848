import VaultFormat

/// The words of refused input: which name, value or limit.
enum InputWords {
  /// The one-line message, said as it is.
  static func phrase(_ fault: InputFault) -> String {
    switch fault {
    // MARK: Header, keyslots, devices, files, format 1, biometry
    case .pin(let fault): words(fault)
    case .recoveryCode(let fault): words(fault)
    case .notAVaultID(let text): "'\(text)' is not a vault id"

    // MARK: Core, agent, journal
    case .nameGivenTwice(let name, let origin): "the name '\(name)' is already given at \(origin)"
    case .noFreeName(let name, let origin):
      "the name '\(name)' is already given at \(origin), and no 'NAME (N)' for it is a valid name"
    case .emptyContent: "the content is empty"
    case .emptyJournalEntry: "the journal entry is empty"
    case .journalEntryTooLarge: "a journal entry is limited to 16 MiB"

    // MARK: Records, state, SQLite, entries
    case .name(let fault): words(fault)
    case .streamedContentStartsShort: "a streamed content starts with more than 1 MiB"
    case .journalRecord(let fault): words(fault)
    case .currentRevision(let name, let revision):
      "revision \(revision) of '\(name)' is its current version"
    case .settingOutOfRange(let key):
      "\(key.name) is a whole number from \(key.range.lowerBound) to \(key.range.upperBound)"
    }
  }

  // MARK: Header, keyslots, devices, files, format 1, biometry

  /// Why a PIN is refused.
  static func words(_ fault: PINFault) -> String {
    switch fault {
    case .controlCharacter: "the PIN contains a control character"
    case .tooShort(let minimum): "the PIN must have at least \(minimum) characters"
    case .tooLong(let maximum): "the PIN is longer than \(maximum) bytes"
    case .notUTF8: "the PIN is not valid UTF-8"
    case .tooShortToSet(let minimum): "a new PIN needs at least \(minimum) characters"
    }
  }

  /// Why a typed recovery code is refused.
  static func words(_ fault: RecoveryCodeFault) -> String {
    switch fault {
    case .malformed:
      "a recovery code is 36 symbols (32 in a code shown without its check group) of 0-9 and A-Z"
        + " (I and L read as 1, O as 0, no U)"
    case .typo:
      "the recovery code has a typo: its last group does not match the other symbols; check each"
        + " group (nothing was tried)"
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
