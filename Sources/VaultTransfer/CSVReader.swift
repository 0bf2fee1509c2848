import VaultCore
import VaultCrypto
import VaultFormat

/// Comma-separated values (RFC 4180) read in place from guarded memory: a header line naming
/// the columns, then one record per line.
///
/// A field is either unquoted (any bytes but `,`, `"`, CR and LF) or quoted: `"` … `"`, where
/// `""` stands for one `"` and commas, CRs and LFs are data. Records end at LF or CRLF; a last
/// record without a line ending is read too; a line with nothing on it is skipped (every format
/// read through this has at least two columns, so an empty line is never a record). A UTF-8 byte
/// order mark before the header is skipped.
///
/// The parse keeps only where each field is; `value(_:_:)` copies one field, unescaped, into a
/// new `SecureBytes`, so no value is ever a Swift `String`. Header names, which are not secret,
/// are strings. Field bytes are not decoded: whether a value must be UTF-8 is the format's
/// choice (`isText(_:_:)`).
///
/// Errors are `TransferError`s at `.line(n)`, `n` the line where the record starts (lines count
/// LFs, those inside quoted fields too): a quoted field not closed, text after a closing quote, a
/// quote inside an unquoted field, a CR not followed by LF outside quotes, a record whose number
/// of fields differs from the header's, an empty input, a header that is not UTF-8 or names a
/// column twice (names compare without regard to case), and a header of more than
/// `maximumColumns` columns or `maximumHeaderBytes` bytes (refused while it is parsed, so a
/// header of any size costs no more than its first MiB).
public struct CSVReader {
  /// The most columns a header may name.
  public static let maximumColumns = 4096
  /// The most bytes a header line may hold, line ending left out.
  public static let maximumHeaderBytes = 1024 * 1024
  /// `maximumHeaderBytes` in words, for the manual.
  public static let maximumHeaderText = "1 MiB"

  /// One record: the line it starts on and where its fields are in the input.
  public struct Record: Sendable {
    /// The 1-based line where the record starts.
    public let line: Int
    /// The fields, in column order.
    let fields: [Span]
  }

  /// Where one field is: the bytes between its quotes (or all of it when unquoted), and how many
  /// `""` pairs stand for one quote each.
  struct Span: Sendable {
    var range: Range<Int>
    var escapedQuotes: Int
  }

  /// The input, kept alive for `value(_:_:)`.
  let input: SecureBytes
  /// The column names, in order, as written.
  public let header: [String]
  /// The 1-based line of the header (after any empty lines before it).
  public let headerLine: Int
  /// The records after the header, in order.
  public let records: [Record]

  /// Parses `input`.
  ///
  /// - Throws: `TransferError` at the line of the first malformed record (see the type).
  public init(_ input: SecureBytes) throws {
    self.input = input
    let parsed = try input.withBytes { bytes in
      var parser = Parser(bytes: bytes)
      return try parser.all()
    }
    guard let first = parsed.first else {
      throw TransferError(.csv(.empty))
    }
    var names: [String] = []
    var seen = Set<String>()
    for span in first.fields {
      let copy = Self.copy(span, from: input)
      guard let name = copy.withBytes({ UTF8Text.string($0) }) else {
        throw TransferError(.csv(.headerNotText), at: .line(first.line))
      }
      guard seen.insert(name.lowercased()).inserted else {
        throw TransferError(.csv(.columnTwice(name)), at: .line(first.line))
      }
      names.append(name)
    }
    for record in parsed.dropFirst() where record.fields.count != names.count {
      throw TransferError(
        .csv(.fieldCount(fields: record.fields.count, columns: names.count)),
        at: .line(record.line))
    }
    header = names
    headerLine = first.line
    records = Array(parsed.dropFirst())
  }

  /// The index of the column `name` (without regard to case), or nil.
  public func column(_ name: String) -> Int? {
    header.firstIndex { $0.lowercased() == name.lowercased() }
  }

  /// The value of `record`'s field in `column`, unescaped, in a new guarded buffer.
  public func value(_ record: Record, _ column: Int) -> SecureBytes {
    Self.copy(record.fields[column], from: input)
  }

  /// True when `record`'s field in `column` is empty.
  public func isEmpty(_ record: Record, _ column: Int) -> Bool {
    record.fields[column].range.isEmpty
  }

  /// True when `record`'s field in `column` is valid UTF-8, checked in place.
  public func isText(_ record: Record, _ column: Int) -> Bool {
    let range = record.fields[column].range
    return input.withBytes { UTF8Text.isValid(UnsafeRawBufferPointer(rebasing: $0[range])) }
  }

  /// True when every field of `record` is valid UTF-8.
  public func isText(_ record: Record) -> Bool {
    record.fields.indices.allSatisfy { isText(record, $0) }
  }

  /// The bytes of `span` with each `""` made one `"`.
  static func copy(_ span: Span, from input: SecureBytes) -> SecureBytes {
    let out = SecureBytes(count: span.range.count - span.escapedQuotes, packed: true)
    input.withBytes { bytes in
      out.withMutableBytes { target in
        var to = 0
        var from = span.range.lowerBound
        while from < span.range.upperBound {
          target[to] = bytes[from]
          // Inside a quoted field a quote is always the first of a pair.
          from += span.escapedQuotes > 0 && bytes[from] == 0x22 ? 2 : 1
          to += 1
        }
      }
    }
    return out
  }
}

/// The state machine of `CSVReader`: spans of every record, header included.
private struct Parser {
  let bytes: UnsafeRawBufferPointer
  var offset = 0
  var line = 1

  init(bytes: UnsafeRawBufferPointer) {
    self.bytes = bytes
    if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { offset = 3 }
  }

  static let comma: UInt8 = 0x2C
  static let quote: UInt8 = 0x22
  static let cr: UInt8 = 0x0D
  static let lf: UInt8 = 0x0A

  /// The length of the line ending at `at` (1 for LF, 2 for CRLF), or 0 when none is there.
  func lineEnding(at index: Int) -> Int {
    guard index < bytes.count else { return 0 }
    if bytes[index] == Self.lf { return 1 }
    if bytes[index] == Self.cr && index + 1 < bytes.count && bytes[index + 1] == Self.lf {
      return 2
    }
    return 0
  }

  mutating func all() throws -> [CSVReader.Record] {
    var records: [CSVReader.Record] = []
    while offset < bytes.count {
      let ending = lineEnding(at: offset)
      if ending > 0 {
        offset += ending
        line += 1
        continue
      }
      records.append(try record(isHeader: records.isEmpty))
    }
    return records
  }

  /// Reads one record starting at `offset` and its line ending; a header is held to
  /// `CSVReader.maximumColumns` and `maximumHeaderBytes` field by field.
  mutating func record(isHeader: Bool) throws -> CSVReader.Record {
    let start = line
    let begin = offset
    var fields: [CSVReader.Span] = []
    while true {
      fields.append(try field(recordLine: start))
      if isHeader { try checkHeader(columns: fields.count, bytes: offset - begin, line: start) }
      if offset == bytes.count { break }
      if bytes[offset] == Self.comma {
        offset += 1
        continue
      }
      let ending = lineEnding(at: offset)
      offset += ending
      line += 1
      break
    }
    return CSVReader.Record(line: start, fields: fields)
  }

  /// Refuses a header past `CSVReader.maximumColumns` or `maximumHeaderBytes`.
  func checkHeader(columns: Int, bytes: Int, line: Int) throws {
    if columns > CSVReader.maximumColumns {
      throw TransferError(.csv(.tooManyColumns(limit: CSVReader.maximumColumns)), at: .line(line))
    }
    if bytes > CSVReader.maximumHeaderBytes {
      throw TransferError(
        .csv(.headerTooLong(limit: CSVReader.maximumHeaderBytes)), at: .line(line))
    }
  }

  /// Reads one field and stops at the comma, line ending or end that follows it.
  mutating func field(recordLine: Int) throws -> CSVReader.Span {
    guard offset < bytes.count, bytes[offset] == Self.quote else {
      let begin = offset
      while offset < bytes.count && bytes[offset] != Self.comma && bytes[offset] != Self.lf {
        if bytes[offset] == Self.quote {
          throw TransferError(.csv(.quoteInUnquotedField), at: .line(recordLine))
        }
        if bytes[offset] == Self.cr && lineEnding(at: offset) == 0 {
          throw TransferError(.csv(.bareCarriageReturn), at: .line(recordLine))
        }
        if lineEnding(at: offset) == 2 { break }
        offset += 1
      }
      return CSVReader.Span(range: begin..<offset, escapedQuotes: 0)
    }
    offset += 1
    let begin = offset
    var escaped = 0
    while true {
      guard offset < bytes.count else {
        throw TransferError(.csv(.quotedFieldNotClosed), at: .line(recordLine))
      }
      let byte = bytes[offset]
      if byte == Self.quote {
        if offset + 1 < bytes.count && bytes[offset + 1] == Self.quote {
          escaped += 1
          offset += 2
          continue
        }
        break
      }
      if byte == Self.lf { line += 1 }
      offset += 1
    }
    let span = CSVReader.Span(range: begin..<offset, escapedQuotes: escaped)
    offset += 1
    guard offset == bytes.count || bytes[offset] == Self.comma || lineEnding(at: offset) > 0
    else {
      throw TransferError(.csv(.textAfterClosingQuote), at: .line(recordLine))
    }
    return span
  }
}
