import VaultTransfer

/// The words of a `vault` export's record that the format does not allow.
enum ExportFileWords {
  /// What is wrong with the record.
  static func phrase(_ fault: ExportFileFault) -> String {
    switch fault {
    case .entryAfterJournal: "an entry after a journal entry (entries come first)"
    case .endCounts(let entries, let journal, let heldEntries, let heldJournal):
      "the end record counts \(entries) entries and \(journal) journal entries; the export holds"
        + " \(heldEntries) and \(heldJournal)"
    case .unknownKind(let kind): "a record of unknown kind \(kind)"
    case .flags(let flags): "an entry's flags are \(flags)"
    case .nameLength(let bytes): "an entry's name has \(bytes) bytes"
    case .nameNotUTF8: "an entry's name is not UTF-8"
    case .nameNotNFC(let name): "the name '\(name)' is not in NFC"
    case .nameOutOfOrder(let name):
      "the name '\(name)' is not after the one before it (names are in ascending order, each"
        + " once)"
    case .timesNotUTC(let name): "the times of '\(name)' are not ISO 8601 UTC"
    case .contentLength(let name, let bytes): "the content of '\(name)' has \(bytes) bytes"
    case .stampMalformed: "a journal entry's stamp is not YYYY-MM-DDTHH:MM:SS+HH:MM"
    case .journalTextLength(let bytes): "a journal entry's text has \(bytes) bytes"
    case .paddingNotZero: "a byte after the end record is not zero padding"
    case .paddingLength(let found, let expected):
      "the padding after the end record is \(found) bytes, not \(expected)"
    case .endsInsideRecord: "the export's plaintext ends inside a record"
    case .contentEndsEarly: "the content ends early"
    case .contentNotHeld(let name, let bytes):
      "the content of '\(name)' (\(bytes) bytes) cannot be held in memory"
    }
  }
}
