/// Why `CSVReader` refuses a CSV text (RFC 4180, as the type reads it).
public enum CSVFault: Equatable, Sendable {
  /// There is no header line (the input is empty, or only line endings).
  case empty
  /// The header is not UTF-8 text.
  case headerNotText
  /// The header names the column `name` twice (without regard to case).
  case columnTwice(String)
  /// A record has `fields` fields, the header `columns`.
  case fieldCount(fields: Int, columns: Int)
  /// The header has more than `limit` columns.
  case tooManyColumns(limit: Int)
  /// The header is longer than `limit` bytes.
  case headerTooLong(limit: Int)
  /// A quote is inside a field that does not start with one.
  case quoteInUnquotedField
  /// A carriage return outside quotes is not followed by a line feed.
  case bareCarriageReturn
  /// A quoted field has no closing quote.
  case quotedFieldNotClosed
  /// Text follows the closing quote of a field.
  case textAfterClosingQuote
}
