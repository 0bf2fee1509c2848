import VaultCrypto

/// A JSON text (RFC 8259) parsed strictly, in place, from bytes in guarded memory.
///
/// The parse checks the whole text once and keeps only where each value lies (offsets, lines,
/// the decoded length of each string), never a copy of a string value: a string comes out only
/// when asked for, decoded straight into new `SecureBytes` (`bytes()`), so a secret in the text
/// never reaches the ordinary heap. Object keys, which name things rather than hold them, are
/// Swift strings. Refused, with the line (`JSONSyntaxError`): anything outside the
/// grammar (trailing commas, comments, single quotes, leading zeros, `NaN`), invalid UTF-8
/// (overlong forms, UTF-16 surrogates, code points above U+10FFFF), a control character left
/// unescaped in a string, a `\u` escape of a lone surrogate, one key twice in an object (keys
/// compare by their decoded bytes), and nesting deeper than `maximumDepth`.
public struct GuardedJSON {
  /// The deepest nesting of arrays and objects accepted (the outermost value is depth 1).
  public static let maximumDepth = 64

  /// What a value is.
  public enum Kind: String, Equatable, Sendable {
    /// `{…}`.
    case object
    /// `[…]`.
    case array
    /// `"…"`.
    case string
    /// A number, kept as written.
    case number
    /// `true` or `false`.
    case bool
    /// `null`.
    case null
  }

  /// One value's place in the text; a container's children follow it, so `next` is the index
  /// after its whole subtree.
  struct Node {
    var kind: Kind
    /// First byte (of a string: after its opening quote).
    var start: Int32
    /// Past the last byte (of a string: its closing quote).
    var end: Int32
    /// The line the value starts on.
    var line: Int32
    /// The node after this value's subtree.
    var next: Int32
    /// A string's decoded length in bytes; a container's number of children; a bool's value.
    var count: Int32
    /// The index of its key in `keys` when it is an object member, else -1.
    var key: Int32
  }

  /// The parsed text, shared by every `Value` of it.
  final class Storage {
    let source: SecureBytes
    let nodes: [Node]
    let keys: [String]

    init(source: SecureBytes, nodes: [Node], keys: [String]) {
      self.source = source
      self.nodes = nodes
      self.keys = keys
    }
  }

  /// One value of the text: its kind, its line, and what it holds, read on demand.
  public struct Value {
    let storage: Storage
    let index: Int

    var node: Node { storage.nodes[index] }

    /// What the value is.
    public var kind: Kind { node.kind }

    /// The line (1-based, counted in the whole source) the value starts on.
    public var line: Int { Int(node.line) }

    /// The members of an object in the order written, each with its key; empty for any other
    /// kind.
    public var members: [(key: String, value: Value)] {
      children.map { (storage.keys[Int(storage.nodes[$0.index].key)], $0) }
    }

    /// Hands each member of an object to `body` in the order written, with its key, building
    /// no array (nothing for any other kind); `body` returns false to stop.
    public func forEachMember(_ body: (String, Value) throws -> Bool) rethrows {
      guard kind == .object else { return }
      var child = index + 1
      for _ in 0..<Int(node.count) {
        let member = storage.nodes[child]
        guard try body(storage.keys[Int(member.key)], Value(storage: storage, index: child)) else {
          return
        }
        child = Int(member.next)
      }
    }

    /// The elements of an array in order; empty for any other kind.
    public var elements: [Value] { kind == .array ? children : [] }

    /// The member `key` of an object (keys compare by their bytes), or nil when it has none or
    /// the value is not an object.
    public subscript(key: String) -> Value? {
      guard kind == .object else { return nil }
      return children.first {
        storage.keys[Int(storage.nodes[$0.index].key)].utf8.elementsEqual(key.utf8)
      }
    }

    private var children: [Value] {
      guard kind == .object || kind == .array else { return [] }
      var out: [Value] = []
      out.reserveCapacity(Int(node.count))
      var child = index + 1
      for _ in 0..<Int(node.count) {
        out.append(Value(storage: storage, index: child))
        child = Int(storage.nodes[child].next)
      }
      return out
    }

    /// A string's decoded bytes (UTF-8) in new guarded memory; nil for any other kind.
    public func bytes() -> SecureBytes? {
      guard kind == .string else { return nil }
      let node = self.node
      let out = SecureBytes(count: Int(node.count), packed: true)
      storage.source.withBytes { source in
        out.withMutableBytes { target in
          GuardedJSON.decode(source, from: Int(node.start), to: Int(node.end), into: target)
        }
      }
      return out
    }

    /// A string as a Swift string, for what is not secret (a type, a date, a name).
    ///
    /// Nil for any other kind. Use `bytes()` for anything that may be a secret.
    public func text() -> String? {
      guard kind == .string else { return nil }
      let node = self.node
      // Checked UTF-8 when parsed, so the decoded bytes are the string's as they are.
      return String(unsafeUninitializedCapacity: Int(node.count)) { target in
        storage.source.withBytes { source in
          GuardedJSON.decode(
            source, from: Int(node.start), to: Int(node.end),
            into: UnsafeMutableRawBufferPointer(target))
        }
        return Int(node.count)
      }
    }

    /// A number as the nearest `Double` (what `JSONDecoder` reads a number as); nil for any
    /// other kind, and for one too large for a `Double` (`1e400`), which `JSONDecoder` refuses.
    public var double: Double? {
      guard let number = numberText.flatMap(Double.init), number.isFinite else { return nil }
      return number
    }

    /// A whole number from 0 to `UInt64.max`, as written; nil otherwise.
    public var unsigned: UInt64? { numberText.flatMap { UInt64($0) } }

    /// A number's text as written (JSON syntax, already checked).
    private var numberText: String? {
      guard kind == .number else { return nil }
      let node = self.node
      return storage.source.withBytes { bytes in
        String(decoding: bytes[Int(node.start)..<Int(node.end)], as: UTF8.self)
      }
    }

    /// The value of `true` or `false`; nil for any other kind.
    public var bool: Bool? { kind == .bool ? node.count == 1 : nil }

    /// A number written as an integer (`-?[0-9]+`) that fits an `Int`; nil otherwise.
    public var integer: Int? {
      guard kind == .number else { return nil }
      let node = self.node
      return storage.source.withBytes { bytes -> Int? in
        var value = 0
        var offset = Int(node.start)
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        while offset < Int(node.end) {
          let digit = Int(bytes[offset]) - 48
          guard (0...9).contains(digit) else { return nil }
          let (times, overflow) = value.multipliedReportingOverflow(by: 10)
          let (sum, overflow2) = times.addingReportingOverflow(negative ? -digit : digit)
          guard !overflow, !overflow2 else { return nil }
          value = sum
          offset += 1
        }
        return value
      }
    }
  }

  /// The outermost value.
  public let root: Value

  /// Parses the bytes `range` of `source` (all of them by default) as one JSON text, whose
  /// first byte is on line `firstLine`.
  ///
  /// `source` is kept (not copied) for the values to read from; it must not change while they
  /// are used.
  ///
  /// - Throws: `JSONSyntaxError` with the line of the first fault, saying what it is.
  public init(parsing source: SecureBytes, range: Range<Int>? = nil, firstLine: Int = 1) throws {
    let range = range ?? 0..<source.count
    precondition(range.lowerBound >= 0 && range.upperBound <= source.count, "range out of source")
    guard source.count <= Int(Int32.max) else {
      throw JSONSyntaxError(fault: .tooLarge, line: firstLine)
    }
    let (nodes, keys) = try source.withBytes { bytes in
      var parser = Parser(
        bytes: bytes, offset: range.lowerBound, end: range.upperBound, line: firstLine)
      try parser.parseText()
      return (parser.nodes, parser.keys)
    }
    root = Value(storage: Storage(source: source, nodes: nodes, keys: keys), index: 0)
  }

  /// Writes the decoded bytes of the string whose text (between the quotes, already checked)
  /// is `bytes[start..<end]` into `target`, which has exactly their decoded length.
  static func decode(
    _ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int,
    into target: UnsafeMutableRawBufferPointer
  ) {
    var offset = start
    var out = 0
    func put(_ byte: UInt8) {
      target[out] = byte
      out += 1
    }
    func hex(_ at: Int) -> UInt32 {
      var value: UInt32 = 0
      for byte in bytes[at..<at + 4] { value = value << 4 | UInt32(hexDigit(byte) ?? 0) }
      return value
    }
    while offset < end {
      let byte = bytes[offset]
      guard byte == UInt8(ascii: "\\") else {
        put(byte)
        offset += 1
        continue
      }
      let escaped = bytes[offset + 1]
      offset += 2
      switch escaped {
      case UInt8(ascii: "b"): put(0x08)
      case UInt8(ascii: "f"): put(0x0C)
      case UInt8(ascii: "n"): put(0x0A)
      case UInt8(ascii: "r"): put(0x0D)
      case UInt8(ascii: "t"): put(0x09)
      case UInt8(ascii: "u"):
        var scalar = hex(offset)
        offset += 4
        if (0xD800...0xDBFF).contains(scalar) {
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex(offset + 2) - 0xDC00)
          offset += 6
        }
        for unit in Character(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8 { put(unit) }
      default: put(escaped)
      }
    }
  }

  static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: byte - 0x30
    case 0x41...0x46: byte - 0x41 + 10
    case 0x61...0x66: byte - 0x61 + 10
    default: nil
    }
  }

  /// A recursive-descent parser over the text, building the nodes in document order.
  struct Parser {
    let bytes: UnsafeRawBufferPointer
    var offset: Int
    let end: Int
    var line: Int
    var nodes: [Node] = []
    var keys: [String] = []

    init(bytes: UnsafeRawBufferPointer, offset: Int, end: Int, line: Int) {
      self.bytes = bytes
      self.offset = offset
      self.end = end
      self.line = line
    }

    func fail(_ fault: JSONSyntaxFault) -> JSONSyntaxError {
      JSONSyntaxError(fault: fault, line: line)
    }

    func unexpected(_ expected: JSONExpectation) -> JSONSyntaxError {
      guard offset < end else { return fail(.endsWhereExpected(expected)) }
      return fail(.expected(expected, found: bytes[offset]))
    }

    mutating func skipWhite() {
      while offset < end {
        switch bytes[offset] {
        case 0x0A: line += 1
        case 0x20, 0x09, 0x0D: break
        default: return
        }
        offset += 1
      }
    }

    mutating func parseText() throws {
      skipWhite()
      guard offset < end else { throw fail(.empty) }
      _ = try parseValue(depth: 1)
      skipWhite()
      guard offset == end else { throw fail(.afterTheValue(found: bytes[offset])) }
    }

    mutating func append(_ kind: Kind, start: Int, line: Int) -> Int {
      nodes.append(
        Node(
          kind: kind, start: Int32(start), end: Int32(start), line: Int32(line), next: 0, count: 0,
          key: -1))
      return nodes.count - 1
    }

    mutating func finish(_ index: Int, end: Int, count: Int) {
      nodes[index].end = Int32(end)
      nodes[index].count = Int32(count)
      nodes[index].next = Int32(nodes.count)
    }

    /// Parses the value at the offset (white space already skipped); returns its node.
    mutating func parseValue(depth: Int) throws -> Int {
      guard offset < end else { throw unexpected(.value) }
      switch bytes[offset] {
      case UInt8(ascii: "{"): return try parseObject(depth: depth)
      case UInt8(ascii: "["): return try parseArray(depth: depth)
      case UInt8(ascii: "\""):
        let index = append(.string, start: offset + 1, line: line)
        let (stop, count) = try scanString()
        finish(index, end: stop, count: count)
        return index
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        let index = append(.number, start: offset, line: line)
        try scanNumber()
        finish(index, end: offset, count: 0)
        return index
      case UInt8(ascii: "t"): return try literal("true", .bool, 1)
      case UInt8(ascii: "f"): return try literal("false", .bool, 0)
      case UInt8(ascii: "n"): return try literal("null", .null, 0)
      default: throw unexpected(.value)
      }
    }

    mutating func literal(_ word: String, _ kind: Kind, _ count: Int) throws -> Int {
      let text = Array(word.utf8)
      guard end - offset >= text.count, bytes[offset..<offset + text.count].elementsEqual(text)
      else { throw unexpected(.value) }
      let index = append(kind, start: offset, line: line)
      offset += text.count
      finish(index, end: offset, count: count)
      return index
    }

    func deeper(_ depth: Int) throws {
      guard depth <= GuardedJSON.maximumDepth else {
        throw fail(.nestedTooDeep(limit: GuardedJSON.maximumDepth))
      }
    }

    mutating func parseArray(depth: Int) throws -> Int {
      try deeper(depth)
      let index = append(.array, start: offset, line: line)
      offset += 1
      skipWhite()
      var count = 0
      if offset < end && bytes[offset] == UInt8(ascii: "]") {
        offset += 1
      } else {
        while true {
          _ = try parseValue(depth: depth + 1)
          count += 1
          skipWhite()
          guard offset < end else { throw unexpected(.commaOrBracket) }
          if bytes[offset] == UInt8(ascii: "]") {
            offset += 1
            break
          }
          guard bytes[offset] == UInt8(ascii: ",") else { throw unexpected(.commaOrBracket) }
          offset += 1
          skipWhite()
        }
      }
      finish(index, end: offset, count: count)
      return index
    }

    /// Members of an object whose keys are checked for a repeat one by one; later ones are
    /// hashed.
    static let linearKeyCheck = 16

    mutating func parseObject(depth: Int) throws -> Int {
      try deeper(depth)
      let index = append(.object, start: offset, line: line)
      offset += 1
      skipWhite()
      var count = 0
      // Keys are the same only byte for byte (a Set<String> would compare canonical equivalents):
      // compared with each earlier one while few (a record's object has about ten), hashed past.
      var earlier: [String] = []
      var seen = Set<[UInt8]>()
      if offset < end && bytes[offset] == UInt8(ascii: "}") {
        offset += 1
      } else {
        while true {
          guard offset < end, bytes[offset] == UInt8(ascii: "\"") else {
            throw unexpected(.memberName)
          }
          let keyLine = line
          let start = offset + 1
          let (stop, length) = try scanString()
          // Checked UTF-8 (`scanString`), so the bytes are the string's as they are.
          let key = String(unsafeUninitializedCapacity: length) { target in
            GuardedJSON.decode(
              bytes, from: start, to: stop, into: UnsafeMutableRawBufferPointer(target))
            return length
          }
          let repeated: Bool
          if count < Self.linearKeyCheck {
            let length = key.utf8.count
            repeated = earlier.contains {
              $0.utf8.count == length && $0.utf8.elementsEqual(key.utf8)
            }
            earlier.append(key)
            if count + 1 == Self.linearKeyCheck { seen = Set(earlier.map { Array($0.utf8) }) }
          } else {
            repeated = !seen.insert(Array(key.utf8)).inserted
          }
          guard !repeated else {
            throw JSONSyntaxError(fault: .keyTwice(key), line: keyLine)
          }
          skipWhite()
          guard offset < end, bytes[offset] == UInt8(ascii: ":") else { throw unexpected(.colon) }
          offset += 1
          skipWhite()
          let member = try parseValue(depth: depth + 1)
          keys.append(key)
          nodes[member].key = Int32(keys.count - 1)
          count += 1
          skipWhite()
          guard offset < end else { throw unexpected(.commaOrBrace) }
          if bytes[offset] == UInt8(ascii: "}") {
            offset += 1
            break
          }
          guard bytes[offset] == UInt8(ascii: ",") else { throw unexpected(.commaOrBrace) }
          offset += 1
          skipWhite()
        }
      }
      finish(index, end: offset, count: count)
      return index
    }

    /// Checks the number at the offset (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`)
    /// and moves past it.
    mutating func scanNumber() throws {
      func digits() -> Int {
        let start = offset
        while offset < end, (0x30...0x39).contains(bytes[offset]) { offset += 1 }
        return offset - start
      }
      if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
      guard offset < end, (0x30...0x39).contains(bytes[offset]) else {
        throw fail(.noDigitAfterMinus)
      }
      if bytes[offset] == UInt8(ascii: "0") {
        offset += 1
        if offset < end, (0x30...0x39).contains(bytes[offset]) {
          throw fail(.leadingZero)
        }
      } else {
        _ = digits()
      }
      if offset < end, bytes[offset] == UInt8(ascii: ".") {
        offset += 1
        guard digits() > 0 else { throw fail(.noDigitAfterPoint) }
      }
      if offset < end, bytes[offset] | 0x20 == UInt8(ascii: "e") {
        offset += 1
        if offset < end, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
          offset += 1
        }
        guard digits() > 0 else { throw fail(.noDigitInExponent) }
      }
    }

    /// Checks the string whose opening quote is at the offset and moves past its closing
    /// quote; returns the offset of that quote and the decoded length in bytes.
    mutating func scanString() throws -> (end: Int, count: Int) {
      offset += 1
      var count = 0
      while true {
        guard offset < end else { throw fail(.stringNotClosed) }
        let byte = bytes[offset]
        switch byte {
        case UInt8(ascii: "\""):
          offset += 1
          return (offset - 1, count)
        case UInt8(ascii: "\\"):
          count += try scanEscape()
        case 0..<0x20:
          throw fail(.controlCharacter(byte))
        case 0..<0x80:
          offset += 1
          count += 1
        default:
          let length = try scanUTF8()
          offset += length
          count += length
        }
      }
    }

    /// Checks the escape at the offset and moves past it; returns its decoded length.
    mutating func scanEscape() throws -> Int {
      guard offset + 1 < end else { throw fail(.stringNotClosed) }
      switch bytes[offset + 1] {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
        offset += 2
        return 1
      case UInt8(ascii: "u"):
        let unit = try hexUnit(at: offset + 2)
        offset += 6
        switch unit {
        case 0xD800...0xDBFF:
          let low =
            offset + 1 < end && bytes[offset] == UInt8(ascii: "\\")
              && bytes[offset + 1] == UInt8(ascii: "u") ? try hexUnit(at: offset + 2) : nil
          guard let low, (0xDC00...0xDFFF).contains(low) else {
            throw fail(.loneSurrogate(unit))
          }
          offset += 6
          return 4
        case 0xDC00...0xDFFF:
          throw fail(.loneSurrogate(unit))
        case 0..<0x80: return 1
        case 0..<0x800: return 2
        default: return 3
        }
      default:
        guard offset + 1 < end else { throw fail(.stringNotClosed) }
        throw fail(.unknownEscape(bytes[offset + 1]))
      }
    }

    /// The four hex digits at `at` as a UTF-16 code unit.
    func hexUnit(at start: Int) throws -> UInt32 {
      guard start + 4 <= end else { throw fail(.shortUnicodeEscape) }
      var value: UInt32 = 0
      for byte in bytes[start..<start + 4] {
        guard let digit = GuardedJSON.hexDigit(byte) else {
          throw fail(.shortUnicodeEscape)
        }
        value = value << 4 | UInt32(digit)
      }
      return value
    }

    /// The length of the well-formed UTF-8 sequence (RFC 3629) at the offset, whose first byte
    /// is not ASCII.
    func scanUTF8() throws -> Int {
      let first = bytes[offset]
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch first {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: throw invalidUTF8(first)
      }
      guard offset + length <= end else { throw invalidUTF8(first) }
      let second = bytes[offset + 1]
      guard (low...high).contains(second) else { throw invalidUTF8(first) }
      for index in 2..<length where !(0x80...0xBF).contains(bytes[offset + index]) {
        throw invalidUTF8(first)
      }
      return length
    }

    func invalidUTF8(_ byte: UInt8) -> JSONSyntaxError { fail(.invalidUTF8(byte)) }
  }
}

/// Where and why a JSON text is refused by `GuardedJSON`.
public struct JSONSyntaxError: Error, Equatable, Sendable {
  /// What is wrong.
  public let fault: JSONSyntaxFault
  /// The line (1-based, counted in the whole source) of the fault.
  public let line: Int

  /// The `fault` on `line`.
  public init(fault: JSONSyntaxFault, line: Int) {
    self.fault = fault
    self.line = line
  }
}
