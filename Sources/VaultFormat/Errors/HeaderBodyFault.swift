/// Why the header's body is not a header at all (`HeaderFault.body`).
public enum HeaderBodyFault: Equatable, Sendable {
  /// The vault file has no header row.
  case missing
  /// The body is larger than 64 KiB.
  case tooLarge
  /// The body is not a JSON object.
  case notAJSONObject
  /// The object has no integer `format`.
  case noFormatVersion
  /// The members do not decode as the format's fields.
  case fieldsNotValid
}
