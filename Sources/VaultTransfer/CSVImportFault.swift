/// Why `CSVImportReader` (vault's own `csv` format) refuses a header or a record that
/// `CSVReader` read.
public enum CSVImportFault: Equatable, Sendable {
  /// The header names the column `name`, which is not one of the format's.
  case unknownColumn(String)
  /// The header has no `name` column.
  case noNameColumn
  /// The header has neither `content` nor `content_b64`.
  case noContentColumn
  /// The header has both `content` and `content_b64`.
  case bothContentColumns
  /// A record's name is not UTF-8 text.
  case nameNotText
  /// A record's name is empty.
  case nameEmpty
  /// A record's `content_b64` is not base64.
  case contentBase64(Base64Fault)
  /// A record gives neither a content nor fields.
  case emptyEntry
  /// A record's `fields` cell gives the key `key` twice (without regard to case).
  case fieldKeyTwice(String)
  /// A record's `fields` are set on a content that is not UTF-8 text.
  case fieldsNeedText
  /// A line of a record's `fields` cell has no `KEY:` before a colon.
  case fieldLineMalformed
  /// A line of a record's `fields` cell has no blank after its `:`.
  case fieldLineNoBlank
}
