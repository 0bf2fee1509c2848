import VaultCore
import VaultFormat

/// The `1password-csv` format: the CSV file 1Password 8 exports (File > Export, format CSV),
/// read by `CSVReader`.
///
/// 1Password documents that its CSV export holds Login and Password items only, with a limited
/// set of fields; 1Password 8 writes the header `Title,Url,Username,Password,OTPAuth,Favorite,
/// Archived,Tags,Notes`. Columns are matched by name without regard to case and only `Title` and
/// `Password` must be there. Each record is one entry:
///
/// - its name is the title (1Password's CSV has no folders; a `/` in a title makes one);
/// - its content is made by `EntryContent.compose`: the password as the first line, then the
///   fields `username` (Username), `url` (Url), `otp` (OTPAuth, an `otpauth://` URI) and `tags`
///   (Tags, as written), each only when not empty, then any column this does not know as a
///   field named by its header, then the notes. Favorite and Archived are not imported;
///   archived items are imported like the others (archiving hides an item, it does not delete
///   it).
///
/// A header with a `Group` column (KeePassXC's CSV, which has every column this requires) is
/// refused, naming `keepass-csv`. A record that is not UTF-8 text is refused (1Password writes
/// UTF-8), so are an empty title,
/// a password holding a line break and an entry with nothing in it, each at the line its record
/// starts. An empty password is an empty first line. Two items with one title are both
/// returned, in order (the bulk import refuses them naming both lines).
public enum OnePasswordCSVReader: ImportReader {
  /// The columns this knows, in the order their fields are written.
  static let columns: [(String, ColumnRole)] = [
    ("Title", .title), ("Username", .field("username")), ("Url", .field("url")),
    ("Password", .password), ("OTPAuth", .field("otp")), ("Tags", .field("tags")),
    ("Notes", .notes), ("Favorite", .dropped), ("Archived", .dropped),
  ]

  /// Reads every record of `source` (`.bytes` only).
  ///
  /// - Throws: `TransferError` at the line of the first faulty record, at the header's line for
  ///   a missing column, or without a location for a folder source.
  public static func read(_ source: ImportSource) throws -> TransferBatch {
    guard case .bytes(let bytes) = source else {
      throw TransferError(.source(.folderGiven(.onePasswordCSV)))
    }
    let csv = try CSVReader(bytes)
    // KeePassXC's CSV has the columns this requires too, and a `Group` that 1Password's has
    // not: read as this format it would lose its folders and keep its recycle bin.
    if csv.column("Group") != nil {
      throw TransferError(.exportCSV(.groupColumn), at: .line(csv.headerLine))
    }
    let table = try ExportColumns(
      csv, known: columns, required: ["Title", "Password"], format: .onePasswordCSV)
    return TransferBatch(entries: try table.entries())
  }
}
