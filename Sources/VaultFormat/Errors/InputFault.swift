/// Why input was refused before anything was stored: which name, value or limit.
///
/// Thrown as `VaultError.invalidInput`; the command line gives the words (`InputWords`).
public enum InputFault: Equatable, Sendable {
  // MARK: Header, keyslots, devices, files, format 1, biometry

  /// A PIN that is no PIN at all (`PINFault`).
  case pin(PINFault)
  /// A typed recovery code that is not one (`RecoveryCodeFault`).
  case recoveryCode(RecoveryCodeFault)
  /// The text is not a vault id (32 hex digits).
  case notAVaultID(String)

  // MARK: Core, agent, journal

  /// An item of an import has the name `name`, which the item at `at` has already.
  case nameGivenTwice(name: String, at: String)
  /// As `nameGivenTwice`, and no `NAME (N)` for it is a valid name to rename it to.
  case noFreeName(name: String, at: String)
  /// The journal entry is empty.
  case emptyJournalEntry
  /// The journal entry is larger than a journal entry may be (16 MiB).
  case journalEntryTooLarge

  // MARK: Records, state, SQLite, entries

  /// The entry name is not one (`EntryNameFault` says why).
  case name(EntryNameFault)
  /// The content has no bytes.
  case emptyContent
  /// A streamed content's first read is not beyond `EntryStore.streamThreshold` (1 MiB).
  case streamedContentStartsShort
  /// A journal entry's fields cannot be encoded (`JournalRecordFault` says which).
  case journalRecord(JournalRecordFault)
  /// The revision `revision` of the entry `name` asked to restore is its current version.
  case currentRevision(name: String, revision: Int64)
  /// A value for the setting `key` outside its range (`key.range`).
  case settingOutOfRange(VaultSettings.Key)
}

/// Why a string is not an entry name (`EntryName`).
public enum EntryNameFault: Equatable, Sendable {
  /// It is empty.
  case empty
  /// It is longer than `maximum` UTF-8 bytes after NFC normalization.
  case tooLong(maximum: Int)
  /// It contains a control character.
  case controlCharacter
  /// The name `name` (normalized) has an empty path segment (`a//b`, `/a`, `a/`).
  case emptySegment(name: String)
  /// The name `name` (normalized) has a `.` or `..` segment, `segment`.
  case dotSegment(name: String, segment: String)
}

/// Why a journal entry's fields cannot be encoded as a signed record (`SignedJournalRecord`).
public enum JournalRecordFault: Equatable, Sendable {
  /// The entry id or the writer id is not 16 bytes.
  case idsNotSixteenBytes
  /// The sequence number or the revision is 0.
  case zeroSequenceOrRevision
  /// The text is longer than a 4-byte length can say.
  case textTooLong
}
