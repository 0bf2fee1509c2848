import VaultFormat

/// Why `JrnlJSONReader` refuses a jrnl JSON export or one of its entries.
public enum JrnlFault: Equatable, Sendable {
  /// The document is no object with an `entries` array.
  case notAnExport
  /// An entry is of `kind`, not an object.
  case entryNotAnObject(GuardedJSON.Kind)
  /// An entry's `date` and `time` are not `YYYY-MM-DD` and `HH:MM` of a local time.
  case dateTime(date: String, time: String)
  /// An entry has neither a title nor a body.
  case empty
}
