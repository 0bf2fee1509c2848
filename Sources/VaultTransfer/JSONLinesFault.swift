import VaultFormat

/// Why `JSONLinesReader` (the `jsonl` format) refuses a line's object.
public enum JSONLinesFault: Equatable, Sendable {
  /// The line holds a value of `kind`, not an object.
  case notAnObject(GuardedJSON.Kind)
  /// The object has the member `name`, which is not one of `JSONLinesReader.members`.
  case unknownMember(String)
  /// Both `content` and `content_b64` are given.
  case bothContents
  /// The whole content `member` (`content` or `content_b64`) comes with its parts.
  case wholeAndParts(String)
  /// `content_b64` is not base64.
  case contentBase64(Base64Fault)
  /// The whole content is empty.
  case contentEmpty
  /// Neither the whole content nor its parts are given.
  case noContent
  /// `fields` is of `kind`, not an object.
  case fieldsNotAnObject(GuardedJSON.Kind)
  /// The field `key` is of `kind`, not a string.
  case fieldNotAString(String, GuardedJSON.Kind)
}
