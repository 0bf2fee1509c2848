import VaultSecrets

extension SecretError: ReportableError {
  /// Refused input (5); liboath's failure to make a code is a failure (1).
  var exitCode: ExitCode {
    switch self {
    case .oneTimeCodeNotMade: .failure
    default: .invalidInput
    }
  }

  /// One line for the user; where another command does what was refused, it names it.
  var message: String {
    switch self {
    case .notAFieldKey(let key):
      "'\(key)' is not a field key: use 1 to \(EntryFields.maximumKeyBytes) bytes without spaces,"
        + " control characters or ':'"
    case .valueNotOneLine:
      "a field's value is one line of UTF-8 text: no line break, NUL byte or invalid UTF-8"
    case .valueStartsWithBlank:
      "a field's value cannot start with a space or a tab: the convention reads past them"
    case .valueOpensBlock:
      "a field's value cannot be '|' or '|-' alone: the convention reads that as the start of a"
        + " block of indented lines; write the field with 'vault edit'"
    case .lastLineEndsInCarriageReturn:
      "the entry's last line ends in a carriage return without a line feed, which a new field"
        + " after it would change; add the field with 'vault edit'"
    case .passwordNotRemovable:
      "the password is the first line and cannot be removed; replace it with 'vault set NAME"
        + " password'"
    case .passwordLength(_, let allowed):
      "the length must be between \(allowed.lowerBound) and \(allowed.upperBound)"
    case .wordCount(_, let allowed):
      "the word count must be between \(allowed.lowerBound) and \(allowed.upperBound)"
    case .literalNotPrintable:
      "a literal character set has printable ASCII characters only ('!' to '~', no space)"
    case .emptyLiteral: "'\(PasswordAlphabet.literalMarker)' is followed by no characters"
    case .unknownClass(let word):
      "unknown character class '\(word)' (use lower, upper, digits, symbols, then"
        + " \(PasswordAlphabet.literalMarker)CHARACTERS for a set of your own)"
    case .tooFewCharacters: "the character set has fewer than 2 characters"
    case .emptyPattern: "the pattern is empty"
    case .invalidPattern(let pattern, let regerror): "invalid pattern '\(pattern)': \(regerror)"
    case .oneTimeCode(let fault): Self.phrase(fault)
    case .oneTimeCodeNotMade(let liboath): "liboath could not make the one-time code (\(liboath))"
    }
  }

  /// The words of what is wrong with a one-time code.
  static func phrase(_ fault: OneTimeCodeFault) -> String {
    switch fault {
    case .notAnOTPAuthURI: "the one-time code is not an otpauth:// URI"
    case .unknownType(let type):
      "the otpauth URI's type '\(shown(type))' is unknown: use otpauth://totp/... or"
        + " otpauth://hotp/..."
    case .badPercentEscape: "the otpauth URI has a '%' that is not followed by two hex digits"
    case .repeatedParameter(let parameter): "the otpauth URI gives \(parameter.rawValue)= twice"
    case .missingParameter(.counter):
      "an otpauth://hotp URI needs a counter= parameter (its first counter, such as 0)"
    case .missingParameter(let parameter):
      "the otpauth URI has no \(parameter.rawValue)= parameter"
    case .badValue(.algorithm, let value):
      "the otpauth URI's algorithm '\(shown(value))' is unknown: use SHA1, SHA256 or SHA512"
    case .badValue(.digits, let value):
      "the otpauth URI's digits must be 6, 7 or 8, not '\(shown(value))'"
    case .badValue(.period, let value):
      "the otpauth URI's period must be whole seconds from \(OneTimeCode.periods.lowerBound) to"
        + " \(OneTimeCode.periods.upperBound), not '\(shown(value))'"
    case .badValue(.counter, let value):
      "the otpauth URI's counter must be a whole number from 0 to \(OneTimeCode.maximumCounter),"
        + " not '\(shown(value))'"
    case .badValue(.secret, _): phrase(.secretNotBase32)
    case .hotpAlgorithm(let algorithm):
      "an otpauth://hotp URI's algorithm must be SHA1 (HOTP is HMAC-SHA-1), not"
        + " '\(algorithm.rawValue)'"
    case .emptySecret: "the one-time code secret is empty"
    case .secretNotBase32:
      "the one-time code secret is not base32 (letters A to Z and digits 2 to 7, with or without"
        + " = padding and spaces)"
    case .secretTooShort(let bytes, let minimum):
      "the one-time code secret is \(bytes) byte\(bytes == 1 ? "" : "s"); at least \(minimum) (16"
        + " base32 characters, 80 bits) are needed"
    case .secretTooLong(_, let maximum):
      "the one-time code secret is longer than \(maximum) bytes"
    case .clockOutOfRange: "the clock is outside the range one-time codes are made for"
    case .counterExhausted(let entry): "the HOTP counter of '\(entry)' cannot grow any more"
    }
  }

  /// A value from the URI as a message shows it: printable ASCII (others become `?`), at most
  /// 24 characters.
  static func shown(_ value: String) -> String {
    let printable = String(
      value.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? $0 : "?" }
        .map(Character.init))
    return printable.count > 24 ? String(printable.prefix(24)) + "..." : printable
  }
}
