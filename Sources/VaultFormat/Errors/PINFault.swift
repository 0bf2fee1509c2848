/// Why a PIN was refused before any keyslot was tried (`InputFault.pin`).
public enum PINFault: Equatable, Sendable {
  /// It contains a control character.
  case controlCharacter
  /// It has fewer characters (Unicode scalars) than a typed PIN has, `minimum`.
  case tooShort(minimum: Int)
  /// It is longer than `maximumBytes` bytes.
  case tooLong(maximumBytes: Int)
  /// It is not valid UTF-8.
  case notUTF8
  /// It has fewer characters than a new PIN needs, `minimum`.
  case tooShortToSet(minimum: Int)
}
