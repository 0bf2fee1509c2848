/// Why the reader of a password manager's CSV export (`keepass-csv`, `1password-csv`) refuses
/// its header or a record.
public enum ExportCSVFault: Equatable, Sendable {
  /// The header has no column `name`, which an export of `format` has.
  case missingColumn(String, format: ImportFormat)
  /// The header has a `Group` column, which 1Password's CSV has not (KeePassXC's has).
  case groupColumn
  /// A record is not UTF-8 text, which the export is.
  case recordNotText
}
