import VaultCrypto
import VaultFormat

/// The text convention of an entry, as pass and gopass stores use it (`vault(1)` FIELDS): the
/// first line is the password; a later line `KEY: VALUE` is a field; every other line is notes.
///
/// A line ends at LF; a CR before the LF belongs to the line ending (CRLF), not to the line. A
/// field line is a key of 1 to 64 bytes with no white space, control character or `:`, then `:`,
/// then a space, a tab or the end of the line; the value is the rest after the spaces and tabs
/// that follow the `:`. Keys match without regard to case; the first line of a key is its value.
/// The key `password` names the first line, so a later `password:` line is notes. A URI such as
/// `https://…` or `otpauth://…` is no field (no space follows its `:`).
///
/// A field whose value is `|` or `|-` and that is followed by lines starting with two spaces is
/// a block, as in YAML: its value is those lines without the two spaces, joined by LF, with a
/// final LF for `|` and none for `|-` (a CR before an LF is the value's own unless the first
/// line ends in CRLF). Imports write a value that would not read back from one
/// line this way (`EntryContent.compose`).
///
/// Everything is read in place from the guarded content: values come out as new `SecureBytes`,
/// never as Swift strings (only keys, which are not secret, are strings).
public struct EntryFields {
  /// The key that names the first line.
  public static let passwordKey = "password"
  /// The longest key, in bytes.
  public static let maximumKeyBytes = 64

  /// One line: where its text is in the content, and where it ends with its terminator.
  struct Line {
    /// Offsets of the text, without CR or LF.
    var text: Range<Int>
    /// Offset just past the LF (or the end of the content for a last line without one).
    var end: Int
  }

  /// One field line.
  struct Field {
    /// The key as written.
    var key: String
    /// The line's index (0 is the password).
    var line: Int
    /// Offsets of the value (of a block: its `|` or `|-`).
    var value: Range<Int>
    /// A block's indented lines (indices), nil for a one-line field.
    var block: Range<Int>? = nil
    /// True for a block whose value ends in LF (`|`), false for `|-`.
    var blockKeepsFinalLF = false

    /// Every line the field takes: its own and a block's.
    var allLines: ClosedRange<Int> { line...(block.map { $0.upperBound - 1 } ?? line) }
  }

  let content: SecureBytes
  let lines: [Line]
  let fields: [Field]
  /// True when the first line ends in CRLF: lines this writes end the same way.
  let crlf: Bool

  /// Reads the convention from `content`.
  ///
  /// - Throws: `VaultError.notText` when the content is not UTF-8 text (invalid UTF-8 or a NUL
  ///   byte): such contents have no lines or fields.
  public init(_ content: SecureBytes) throws {
    self.content = content
    var lines: [Line] = []
    var fields: [Field] = []
    var crlf = false
    let isText = content.withBytes { bytes -> Bool in
      guard Self.isText(bytes) else { return false }
      var start = 0
      while start < bytes.count {
        var stop = start
        while stop < bytes.count && bytes[stop] != 0x0A { stop += 1 }
        let end = stop < bytes.count ? stop + 1 : stop
        var textEnd = stop
        if stop < bytes.count && textEnd > start && bytes[textEnd - 1] == 0x0D { textEnd -= 1 }
        if lines.isEmpty { crlf = textEnd < stop }
        lines.append(Line(text: start..<textEnd, end: end))
        let index = lines.count - 1
        let indented = textEnd - start >= 2 && bytes[start] == 0x20 && bytes[start + 1] == 0x20
        if indented, let last = fields.last, Self.opensBlock(bytes, last),
          last.line == index - 1 || last.block?.upperBound == index
        {
          fields[fields.count - 1].block = (last.block?.lowerBound ?? index)..<(index + 1)
          fields[fields.count - 1].blockKeepsFinalLF = last.value.count == 1
        } else if index > 0, let field = Self.field(bytes, line: index, start..<textEnd) {
          fields.append(field)
        }
        start = end
      }
      return true
    }
    guard isText else { throw VaultError.notText }
    self.lines = lines
    self.fields = fields
    self.crlf = crlf
  }

  /// True for valid UTF-8 without a NUL byte, checked in place (no copy of the content).
  static func isText(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): if scalar.value == 0 { return false }
      case .emptyInput: return true
      case .error: return false
      }
    }
  }

  /// True when `field`'s value is `|` or `|-`, which opens a block when indented lines follow.
  static func opensBlock(_ bytes: UnsafeRawBufferPointer, _ field: Field) -> Bool {
    let value = field.value
    guard value.count == 1 || value.count == 2, bytes[value.lowerBound] == UInt8(ascii: "|")
    else { return false }
    return value.count == 1 || bytes[value.lowerBound + 1] == UInt8(ascii: "-")
  }

  /// The field a line holds, or nil when it is notes.
  static func field(_ bytes: UnsafeRawBufferPointer, line: Int, _ text: Range<Int>) -> Field? {
    var colon = text.lowerBound
    while colon < text.upperBound && bytes[colon] != UInt8(ascii: ":") {
      let byte = bytes[colon]
      if byte <= 0x20 || byte == 0x7F { return nil }
      colon += 1
    }
    let keyLength = colon - text.lowerBound
    guard colon < text.upperBound, keyLength >= 1, keyLength <= maximumKeyBytes else { return nil }
    var value = colon + 1
    guard value == text.upperBound || bytes[value] == 0x20 || bytes[value] == 0x09 else {
      return nil
    }
    while value < text.upperBound && (bytes[value] == 0x20 || bytes[value] == 0x09) { value += 1 }
    let key = String(decoding: bytes[text.lowerBound..<colon], as: UTF8.self)
    guard !isPassword(key), !key.unicodeScalars.contains(where: isControlOrSpace) else {
      return nil
    }
    return Field(key: key, line: line, value: value..<text.upperBound)
  }

  static func isControlOrSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
  }

  static func isPassword(_ key: String) -> Bool { same(key, passwordKey) }

  /// True when `key` names the first line (`password`, in any case).
  public static func isPasswordKey(_ key: String) -> Bool { isPassword(key) }

  /// Keys compare without regard to case.
  static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }

  /// Checks a key given by the user (`vault set`, `vault get --field`).
  ///
  /// - Throws: `SecretError.notAFieldKey` for an empty key, one over 64 bytes, or one with white
  ///   space, a control character or `:`.
  public static func validate(key: String) throws {
    guard !key.isEmpty, key.utf8.count <= maximumKeyBytes,
      !key.unicodeScalars.contains(where: { isControlOrSpace($0) || $0 == ":" })
    else {
      throw SecretError.notAFieldKey(key)
    }
  }

  /// The number of lines (a final LF ends the last line; it does not start an empty one).
  public var lineCount: Int { lines.count }

  private func bytes(_ range: Range<Int>) -> SecureBytes {
    content.withBytes { SecureBytes(copying: $0[range], packed: true) }
  }

  /// Line `number` (from 1) without its line ending, or nil past the last line.
  public func line(_ number: Int) -> SecureBytes? {
    guard number >= 1, number <= lines.count else { return nil }
    return bytes(lines[number - 1].text)
  }

  /// The first line (empty for empty content).
  public var password: SecureBytes { line(1) ?? SecureBytes(count: 0) }

  /// The keys a username is kept under, in the order they are looked for (as pass's and
  /// browserpass's conventions have them).
  public static let usernameKeys = ["username", "user", "login"]

  /// The value of the first of `usernameKeys` the entry has, or nil.
  public var username: SecureBytes? {
    for key in Self.usernameKeys {
      if let found = value(key) { return found }
    }
    return nil
  }

  /// `password`, then each field's key once, as first written, in order.
  public var keys: [String] {
    var seen: Set<String> = [Self.passwordKey]
    var out = [Self.passwordKey]
    for field in fields where seen.insert(field.key.lowercased()).inserted {
      out.append(field.key)
    }
    return out
  }

  private func first(_ key: String) -> Field? { fields.first { Self.same($0.key, key) } }

  /// Every field line after the first, in order, a key given twice twice: its key as written
  /// and its value in a new buffer (an export lays them out in another format's slots).
  public var allFields: [(key: String, value: SecureBytes)] {
    fields.map { ($0.key, value(of: $0)) }
  }

  /// The value of `key` (`password` is the first line), or nil when no line has that key.
  public func value(_ key: String) -> SecureBytes? {
    if Self.isPassword(key) { return password }
    return first(key).map(value(of:))
  }

  /// A field's value: the rest of its line, or a block's lines.
  private func value(of field: Field) -> SecureBytes {
    guard field.block != nil else { return bytes(field.value) }
    var out = ByteBuilder(packed: true)
    appendValue(of: field, to: &out)
    return out.finish()
  }

  /// Appends a field's value to `out`.
  private func appendValue(of field: Field, to out: inout ByteBuilder) {
    content.withBytes { bytes in
      guard let block = field.block else { return out.append(bytes[field.value]) }
      for index in block {
        if index > block.lowerBound { out.append(0x0A) }
        let line = lines[index]
        // Where lines end in LF, a CR before the LF is the value's own.
        let stop = crlf || line.end == line.text.upperBound ? line.text.upperBound : line.end - 1
        out.append(bytes[(line.text.lowerBound + 2)..<stop])
      }
      if field.blockKeepsFinalLF { out.append(0x0A) }
    }
  }

  /// The lines after the first that are no fields, joined by LF, without the blank lines at
  /// either end.
  public var notes: SecureBytes {
    let fieldLines = Set(fields.flatMap(\.allLines))
    let noteLines = lines.indices.dropFirst().filter { !fieldLines.contains($0) }
    let blank: (Int) -> Bool = { index in
      self.content.withBytes { bytes in
        self.lines[index].text.allSatisfy { bytes[$0] == 0x20 || bytes[$0] == 0x09 }
      }
    }
    guard let first = noteLines.firstIndex(where: { !blank($0) }),
      let last = noteLines.lastIndex(where: { !blank($0) })
    else { return SecureBytes(count: 0) }
    let kept = noteLines[first...last]
    var out = ByteBuilder()
    content.withBytes { bytes in
      for (offset, index) in kept.enumerated() {
        if offset > 0 { out.append(0x0A) }
        out.append(bytes[lines[index].text])
      }
    }
    return out.finish()
  }

  /// Finds the first `otpauth://` URI: the `otp` field's value when it is one, else the first
  /// line (the password line too) that is one, or nil.
  public var oneTimeCodeURI: SecureBytes? {
    let scheme = Array("otpauth://".utf8)
    func isURI(_ range: Range<Int>) -> Bool {
      content.withBytes { bytes in
        range.count > scheme.count
          && zip(bytes[range], scheme).allSatisfy { Self.lowercase($0) == $1 }
      }
    }
    if let field = first("otp"), isURI(field.value) { return bytes(field.value) }
    return lines.first { isURI($0.text) }.map { bytes($0.text) }
  }

  static func lowercase(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }

  /// `{"password":…,"fields":{KEY:VALUE,…},"notes":…}` as UTF-8 in guarded memory, keys in
  /// order, each key's first value.
  public var json: SecureBytes {
    var out = ByteBuilder()
    out.append(Array("{\"password\":".utf8))
    content.withBytes { bytes in
      out.appendJSONString(lines.first.map { bytes[$0.text] } ?? bytes[0..<0])
      out.append(Array(",\"fields\":{".utf8))
      var seen: Set<String> = []
      for field in fields where seen.insert(field.key.lowercased()).inserted {
        if seen.count > 1 { out.append(UInt8(ascii: ",")) }
        out.appendJSONString(Array(field.key.utf8)[...])
        out.append(UInt8(ascii: ":"))
        if field.block == nil {
          out.appendJSONString(bytes[field.value])
        } else {
          value(of: field).withBytes { out.appendJSONString($0[...]) }
        }
      }
    }
    out.append(Array("},\"notes\":".utf8))
    notes.withBytes { out.appendJSONString($0[...]) }
    out.append(UInt8(ascii: "}"))
    return out.finish()
  }

  /// The content with `key` set to `value`.
  ///
  /// `password` replaces the first line; another key replaces the value of its first line in
  /// place (later lines of that key are kept as they are) or becomes a new line after the last
  /// field (after the password when there is none). Line endings follow the first line's.
  ///
  /// - Throws: `SecretError` for a bad key (`validate(key:)`), a value that is not one line of
  ///   UTF-8 text (a CR, an LF or a NUL byte, invalid UTF-8), a field's value that starts with a
  ///   space or a tab or is `|` or `|-` alone (it would not read back), or a new field after a
  ///   last line that ends in a CR without an LF.
  public func setting(_ key: String, to value: SecureBytes) throws -> SecureBytes {
    try setting([(key, value)])
  }

  /// The content with each of `pairs` set, in one pass: the same bytes as setting them one
  /// after another with `setting(_:to:)` (new keys follow the last field in the order given; a
  /// key given twice takes its last value), in time linear in the content and the pairs.
  ///
  /// - Throws: as `setting(_:to:)`, for the first pair that is refused.
  public func setting(_ pairs: [(key: String, value: SecureBytes)]) throws -> SecureBytes {
    for (key, value) in pairs { try Self.check(key: key, value: value) }
    if lines.isEmpty, let first = pairs.first {
      // The first value makes the first line; the others are set on that content.
      let started = try setting(first.key, value: first.value, onEmpty: ())
      return pairs.count == 1 ? started : try EntryFields(started).setting(Array(pairs.dropFirst()))
    }
    // What each pair does, by lower-cased key: replace a line (the first line for the password,
    // else the key's first field line) or add a line after the last field.
    var replaced: [Int: (field: Field?, value: SecureBytes)] = [:]
    var added: [(key: String, value: SecureBytes)] = []
    var addedIndex: [String: Int] = [:]
    var firstField: [String: Field] = [:]
    for field in fields where firstField[field.key.lowercased()] == nil {
      firstField[field.key.lowercased()] = field
    }
    for (key, value) in pairs {
      let lower = key.lowercased()
      if Self.isPassword(key) {
        replaced[0] = (nil, value)
      } else if let field = firstField[lower] {
        replaced[field.line] = (field, value)
      } else if let index = addedIndex[lower] {
        added[index].value = value
      } else {
        addedIndex[lower] = added.count
        added.append((key, value))
      }
    }
    let insertAfter = added.isEmpty ? nil : (fields.last?.allLines.upperBound ?? 0)
    if insertAfter == lines.count - 1, let last = lines.last, last.end == last.text.upperBound,
      content.withBytes({ bytes in last.text.count > 0 && bytes[last.text.upperBound - 1] == 0x0D })
    {
      // A line ending after it would make its CR part of a CRLF and so change the line.
      throw SecretError.lastLineEndsInCarriageReturn
    }
    let ending: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
    // A replaced block's indented lines go with it: the value is now one line.
    var droppedBlocks = Set<Int>()
    for (_, change) in replaced {
      if let block = change.field?.block { droppedBlocks.formUnion(block) }
    }
    var out = ByteBuilder()
    content.withBytes { bytes in
      for (index, line) in lines.enumerated() where !droppedBlocks.contains(index) {
        if let change = replaced[index] {
          if let field = change.field {
            // Keep the key as written and the spacing after the colon (one space when there was
            // none: `key:` with an empty value).
            let head = line.text.lowerBound..<field.value.lowerBound
            out.append(bytes[head])
            if bytes[head.upperBound - 1] == UInt8(ascii: ":") && change.value.count > 0 {
              out.append(0x20)
            }
          }
          change.value.withBytes { out.append($0[...]) }
          let last = field(endingAt: change.field, line: index)
          out.append(bytes[lines[last].text.upperBound..<lines[last].end])
        } else {
          out.append(bytes[line.text.lowerBound..<line.end])
        }
        if index == insertAfter {
          // After a last line without a line ending, the new lines end the content the same way.
          let ended = line.end > line.text.upperBound
          if !ended { out.append(ending) }
          for (offset, pair) in added.enumerated() {
            out.append(Array(pair.key.utf8) + [UInt8(ascii: ":"), 0x20])
            pair.value.withBytes { out.append($0[...]) }
            if offset < added.count - 1 || ended { out.append(ending) }
          }
        }
      }
    }
    return out.finish()
  }

  /// The last line a replaced field takes (its block's last line), or `line` itself.
  private func field(endingAt field: Field?, line: Int) -> Int {
    field?.allLines.upperBound ?? line
  }

  /// `key` set to `value` on an empty content: the value alone for the password, else the line
  /// `KEY: VALUE`.
  private func setting(_ key: String, value: SecureBytes, onEmpty: Void) throws -> SecureBytes {
    var out = ByteBuilder()
    if !Self.isPassword(key) { out.append(Array(key.utf8) + [UInt8(ascii: ":"), 0x20]) }
    value.withBytes { out.append($0[...]) }
    return out.finish()
  }

  /// Refuses a key or value `setting` cannot write.
  private static func check(key: String, value: SecureBytes) throws {
    try validate(key: key)
    let valid = value.withBytes { bytes in
      isText(bytes) && !bytes.contains(0x0A) && !bytes.contains(0x0D)
    }
    guard valid else {
      throw SecretError.valueNotOneLine(key: key)
    }
    let leadingBlank = value.count > 0 && (value[0] == 0x20 || value[0] == 0x09)
    guard isPassword(key) || !leadingBlank else {
      throw SecretError.valueStartsWithBlank(key: key)
    }
    // `KEY: |` and `KEY: |-` open a block: indented notes after it would become its value.
    let opensBlock = value.withBytes { $0.elementsEqual([0x7C]) || $0.elementsEqual([0x7C, 0x2D]) }
    guard isPassword(key) || !opensBlock else {
      throw SecretError.valueOpensBlock(key: key)
    }
  }

  /// The content without any line of `key`, or nil when no line has it.
  ///
  /// - Throws: `SecretError.passwordNotRemovable` for `password` (the first line cannot be
  ///   removed), `.notAFieldKey` for a bad key.
  public func unsetting(_ key: String) throws -> SecureBytes? {
    try Self.validate(key: key)
    if Self.isPassword(key) {
      throw SecretError.passwordNotRemovable
    }
    let dropped = Set(fields.filter { Self.same($0.key, key) }.flatMap(\.allLines))
    guard !dropped.isEmpty else { return nil }
    var out = ByteBuilder()
    content.withBytes { bytes in
      for (index, line) in lines.enumerated() where !dropped.contains(index) {
        out.append(bytes[line.text.lowerBound..<line.end])
      }
      // A removed last line took the line ending of the one before it: give it back as it was.
      if let last = lines.indices.last, dropped.contains(last),
        lines[last].end
          == lines[last]
          .text.upperBound, let kept = lines.indices.last(where: { !dropped.contains($0) })
      {
        out.dropLast(lines[kept].end - lines[kept].text.upperBound)
      }
    }
    return out.finish()
  }
}
