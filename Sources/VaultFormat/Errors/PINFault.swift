/// Why a PIN is no PIN at all (`InputFault.pin`).
public enum PINFault: Equatable, Sendable {
  /// It contains a control character.
  case controlCharacter
  /// It has fewer than `minimum` characters (Unicode scalars).
  case tooShort(minimum: Int)
  /// It is longer than `maximumBytes` bytes (in NFC).
  case tooLong(maximumBytes: Int)
  /// It is not valid UTF-8.
  case notUTF8
}
