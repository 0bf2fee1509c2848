import VaultCore
import VaultFormat

/// The `keepass-csv` format: KeePassXC's CSV export (`keepassxc-cli export --format csv`, or
/// Database > Export > CSV File), read by `CSVReader`.
///
/// KeePassXC 2.7 writes the header `Group,Title,Username,Password,URL,Notes,TOTP,Icon,Last
/// Modified,Created` (older versions stop after `Notes`), every field quoted, LF after each
/// record, UTF-8. Each record is one entry:
///
/// - its name is the group path without its first group (the database's root group, such as
///   `Passwords` or `Root`), then the title: `Passwords/Email/Work` and `Mail` give
///   `Email/Work/Mail`, an entry of the root group is named by its title alone; a `/` in a group
///   name or title makes one more folder (the export cannot tell them apart);
/// - its content is made by `EntryContent.compose`: the password as the first line, then the
///   fields `username` (Username), `url` (URL) and `otp` (TOTP, KeePassXC's `otpauth://` URI),
///   each only when not empty, then any column this does not know as a field named by its
///   header, then the notes. Icon, Last Modified and Created are not imported.
///
/// Entries whose group is the root's `Recycle Bin` (the name KeePassXC gives it in English; the
/// CSV does not mark the bin otherwise) or a group inside it are deleted entries and are
/// skipped. The CSV holds no custom attributes, attachments or history; the XML export
/// (`KeePassXMLReader`) has the attributes.
///
/// A record that is not UTF-8 text is refused (KeePassXC writes UTF-8, so other bytes mean the
/// file was saved again in another encoding), so are an empty title, a password holding a line
/// break and an entry with nothing in it, each at the line its record starts. An empty password
/// is an empty first line. Two entries with one name are both returned, in order (the bulk
/// import refuses them naming both lines).
public enum KeePassCSVReader: ImportReader {
  /// The columns this knows, in the order their fields are written.
  static let columns: [(String, ColumnRole)] = [
    ("Group", .groupUnderRoot), ("Title", .title), ("Username", .field("username")),
    ("Password", .password), ("URL", .field("url")), ("Notes", .notes), ("TOTP", .field("otp")),
    ("Icon", .dropped), ("Last Modified", .dropped), ("Created", .dropped),
  ]

  /// The name KeePassXC gives the recycle bin group.
  static let recycleBin = "Recycle Bin"

  /// Reads every record of `source` (`.bytes` only).
  ///
  /// - Throws: `TransferError` at the line of the first faulty record, at the header's line for
  ///   a missing column, or without a location for a folder source.
  public static func read(_ source: ImportSource) throws -> TransferBatch {
    guard case .bytes(let bytes) = source else {
      throw TransferError(.source(.folderGiven(.keepassCSV)))
    }
    let table = try ExportColumns(
      CSVReader(bytes), known: columns,
      required: ["Group", "Title", "Username", "Password", "URL", "Notes"], format: .keepassCSV)
    let entries = try table.entries { group in
      ExportColumns.underRoot(group).first == recycleBin
    }
    return TransferBatch(entries: entries)
  }
}
