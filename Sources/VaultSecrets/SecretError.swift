/// Why a field, a password, a search pattern or a one-time code was refused: which key, value,
/// parameter or limit.
///
/// Nothing was stored. The command line gives the words (`SecretWords`): input refused (exit 5), but for
/// `oneTimeCodeNotMade`, a failure of liboath (exit 1). No case names a command: where a
/// sentence says which command does it another way, the command line adds it.
public enum SecretError: Error, Equatable, Sendable {
  // MARK: Fields

  /// A field key given by the user is empty, over `EntryFields.maximumKeyBytes` or holds white
  /// space, a control character or `:`.
  case notAFieldKey(String)
  /// The value of the field `key` is not one line of UTF-8 text (a CR, an LF or a NUL byte,
  /// invalid UTF-8).
  case valueNotOneLine(key: String)
  /// The value of the field `key` starts with a space or a tab, which the convention reads past.
  case valueStartsWithBlank(key: String)
  /// The value of the field `key` is `|` or `|-` alone, which opens a block of indented lines.
  case valueOpensBlock(key: String)
  /// The entry's last line ends in a CR without an LF: a line after it would make that CR part
  /// of a CRLF, so a new field cannot be added there.
  case lastLineEndsInCarriageReturn
  /// The password (the first line) was to be removed; it can only be replaced.
  case passwordNotRemovable

  // MARK: Passwords

  /// A password length outside `allowed` (`PasswordGenerator.lengths`).
  case passwordLength(Int, allowed: ClosedRange<Int>)
  /// A passphrase word count outside `allowed` (`PasswordGenerator.wordCounts`).
  case wordCount(Int, allowed: ClosedRange<Int>)
  /// A literal character set holds a character that is not printable ASCII (`!` to `~`).
  case literalNotPrintable
  /// `chars:` (`PasswordAlphabet.literalMarker`) ends a `--charset` value.
  case emptyLiteral
  /// A `--charset` value names a class that `PasswordAlphabet.Class` does not have.
  case unknownClass(String)
  /// The character set has `count` characters; a password needs at least 2.
  case tooFewCharacters(count: Int)

  // MARK: Search

  /// The search pattern is empty.
  case emptyPattern
  /// `regcomp` refused `pattern`; `regerror` is its message.
  case invalidPattern(String, regerror: String)

  // MARK: One-time codes

  /// A one-time code's URI, secret or counter was refused (`OneTimeCodeFault`).
  case oneTimeCode(OneTimeCodeFault)
  /// liboath could not make the code; `liboath` is its message (`oath_strerror`).
  case oneTimeCodeNotMade(liboath: String)
}
