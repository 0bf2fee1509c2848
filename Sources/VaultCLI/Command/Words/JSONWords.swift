import VaultFormat
import VaultTransfer

/// The words of a JSON source's faults: the JSON text, a member, and the `jsonl`, Bitwarden
/// and jrnl formats.
enum JSONWords {
  /// A JSON text that is not well formed.
  static func phrase(_ fault: JSONSyntaxFault) -> String {
    switch fault {
    case .tooLarge: "the JSON text is larger than 2 GiB"
    case .empty: "there is no JSON value (the text is empty)"
    case .endsWhereExpected(let expected):
      "the JSON text ends where \(phrase(expected)) was expected"
    case .expected(let expected, let found): "expected \(phrase(expected)), found \(shown(found))"
    case .afterTheValue(let found): "unexpected \(shown(found)) after the JSON value"
    case .nestedTooDeep(let limit): "arrays and objects are nested deeper than \(limit) levels"
    case .keyTwice(let key): "the object has the key '\(key)' twice"
    case .noDigitAfterMinus: "a number needs a digit after its '-'"
    case .leadingZero: "a number does not start with 0 followed by digits"
    case .noDigitAfterPoint: "a number needs a digit after its '.'"
    case .noDigitInExponent: "a number needs a digit in its exponent"
    case .stringNotClosed: "a string is not closed"
    case .controlCharacter(let byte):
      "a string holds a control character (byte 0x\(hex(byte))) that must be escaped"
    case .loneSurrogate(let unit):
      "a string holds a lone surrogate (\\u\(String(unit, radix: 16, uppercase: true))), which"
        + " is no character"
    case .unknownEscape(let byte):
      "a string holds an unknown escape '\\\(isPrintable(byte) ? character(byte) : "?")'"
    case .shortUnicodeEscape: "a \\u escape needs four hex digits"
    case .invalidUTF8(let byte): "a string is not valid UTF-8 (at byte 0x\(hex(byte)))"
    }
  }

  /// What the parser expected.
  static func phrase(_ expected: JSONExpectation) -> String {
    switch expected {
    case .value: "a value"
    case .commaOrBracket: "',' or ']'"
    case .commaOrBrace: "',' or '}'"
    case .memberName: "a member name in double quotes"
    case .colon: "':'"
    }
  }

  /// `'x'` for printable ASCII, `byte 0xNN` otherwise.
  static func shown(_ byte: UInt8) -> String {
    isPrintable(byte) ? "'\(character(byte))'" : "byte 0x\(hex(byte))"
  }

  /// True for printable ASCII other than the space.
  static func isPrintable(_ byte: UInt8) -> Bool { (0x21...0x7E).contains(byte) }

  /// The ASCII character `byte`.
  static func character(_ byte: UInt8) -> String { String(Character(Unicode.Scalar(byte))) }

  /// Two upper-case hex digits.
  static func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return digits.count < 2 ? "0" + digits : digits
  }

  /// A kind with its article, for the words: `an object`, `a string`, `null`.
  static func article(_ kind: GuardedJSON.Kind) -> String {
    switch kind {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }

  /// A member missing or not a string.
  static func phrase(_ fault: JSONMemberFault) -> String {
    switch fault {
    case .missing(let name): "the member '\(name)' is missing"
    case .notAString(let name, let kind): "'\(name)' is \(article(kind)), not a string"
    }
  }

  /// A line of the `jsonl` format refused.
  static func phrase(_ fault: JSONLinesFault) -> String {
    switch fault {
    case .notAnObject(let kind): "a line holds one JSON object, not \(article(kind))"
    case .unknownMember(let name):
      "unknown member '\(name)' (an entry has"
        + " \(JSONLinesReader.members.map { "'\($0)'" }.joined(separator: ", ")))"
    case .bothContents: "give 'content' or 'content_b64', not both"
    case .wholeAndParts(let member):
      "'\(member)' is the whole entry: give it, or 'password', 'fields' and 'notes'; not both"
    case .contentBase64(let fault): "'content_b64': \(TransferWords.phrase(fault))"
    case .contentEmpty: "the content is empty"
    case .noContent:
      "give the entry's 'content' (or 'content_b64'), or 'password', 'fields' and 'notes'"
    case .fieldsNotAnObject(let kind): "'fields' is an object of strings, not \(article(kind))"
    case .fieldNotAString(let key, let kind):
      "the field '\(key)' is \(article(kind)), not a string"
    }
  }

  /// A Bitwarden JSON export or item refused.
  static func phrase(_ fault: BitwardenFault) -> String {
    switch fault {
    case .encrypted:
      "this Bitwarden export is encrypted; export the vault again as '.json' (not"
        + " '.json (Encrypted)')"
    case .notAnExport: "this is not a Bitwarden JSON export (an object with an 'items' array)"
    case .foldersNotAnArray: "'folders' is not an array"
    case .folderMalformed: "a folder is not an object with an id and a name"
    case .itemNotAnObject(let kind): "an item is an object, not \(article(kind))"
    case .typeNotANumber: "the item's 'type' is not a number"
    case .unknownType(let type): "the item type \(type) is not known"
    case .unknownFolder(let id): "the item's folder \(id) is not among the export's folders"
    case .customFieldNotAnObject(let kind): "a custom field is \(article(kind)), not an object"
    }
  }

  /// A jrnl JSON export or entry refused.
  static func phrase(_ fault: JrnlFault) -> String {
    switch fault {
    case .notAnExport: "this is not a jrnl JSON export (an object with an 'entries' array)"
    case .entryNotAnObject(let kind): "an entry is an object, not \(article(kind))"
    case .dateTime(let date, let time):
      "the date and time '\(date) \(time)' are not YYYY-MM-DD and HH:MM"
    case .empty: "the entry has neither a title nor a body"
    }
  }
}
