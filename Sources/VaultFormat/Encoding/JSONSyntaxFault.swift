/// Why `GuardedJSON` refuses a JSON text (`JSONSyntaxError.fault`): RFC 8259's grammar, UTF-8,
/// a key given twice in one object, or a limit.
///
/// Bytes are carried as they are; the words show a printable ASCII byte as itself and any other
/// as its hex value.
public enum JSONSyntaxFault: Equatable, Sendable {
  /// The text is larger than 2 GiB.
  case tooLarge
  /// Nothing but white space is there.
  case empty
  /// The text ends where `expected` should come.
  case endsWhereExpected(JSONExpectation)
  /// The byte `found` is where `expected` should come.
  case expected(JSONExpectation, found: UInt8)
  /// The byte `found` follows the one value the text holds.
  case afterTheValue(found: UInt8)
  /// Arrays and objects are nested deeper than `limit` levels.
  case nestedTooDeep(limit: Int)
  /// One object has the key `key` twice (byte for byte).
  case keyTwice(String)
  /// A `-` is not followed by a digit.
  case noDigitAfterMinus
  /// A number starts with 0 followed by digits.
  case leadingZero
  /// A `.` in a number is not followed by a digit.
  case noDigitAfterPoint
  /// An exponent has no digit.
  case noDigitInExponent
  /// A string's closing quote is missing.
  case stringNotClosed
  /// A string holds the control character `byte`, which must be escaped.
  case controlCharacter(UInt8)
  /// A `\u` escape names the UTF-16 surrogate `unit` without its pair.
  case loneSurrogate(UInt32)
  /// A `\` is followed by `byte`, which starts no escape.
  case unknownEscape(UInt8)
  /// A `\u` escape does not have four hex digits.
  case shortUnicodeEscape
  /// A string's UTF-8 sequence starting with `byte` is not well formed.
  case invalidUTF8(UInt8)
}

/// What the parser expected where a JSON text was refused.
public enum JSONExpectation: Equatable, Sendable {
  /// A value.
  case value
  /// `,` or `]`, in an array.
  case commaOrBracket
  /// `,` or `}`, in an object.
  case commaOrBrace
  /// A member name in double quotes.
  case memberName
  /// `:` after a member name.
  case colon
}
