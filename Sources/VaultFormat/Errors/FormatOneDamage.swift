/// What a check of a format-1 vault file found (`Damage.formatOne`).
public enum FormatOneDamage: Equatable, Sendable {
  /// The file is a format-1 copy of a vault this device has already seen in format 2 (an old
  /// copy was put back); nothing was read.
  case copyOfMigratedVault
  /// A row of the `entries` table lacks its id, kind or box.
  case malformedRow
  /// A row of the `entries` table has a kind that is neither an entry nor a journal entry.
  case unknownRowKind
  /// The content of the entry `name` has a chunk out of its place.
  case misplacedChunks(name: String)
  /// The content of the entry `name` is longer than its metadata records.
  case longerThanRecorded(name: String)
  /// The content of the entry `name` is shorter than its metadata records.
  case shorterThanRecorded(name: String)
}
