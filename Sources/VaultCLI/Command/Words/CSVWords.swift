import VaultTransfer

/// The words of a CSV source's faults: the CSV text, vault's `csv` format, and a password
/// manager's CSV export.
enum CSVWords {
  /// A CSV text that is not well formed.
  static func phrase(_ fault: CSVFault) -> String {
    switch fault {
    case .empty: "the input is empty: a CSV file starts with a header line"
    case .headerNotText: "the header is not UTF-8 text"
    case .columnTwice(let name): "the header names the column '\(name)' twice"
    case .fieldCount(let fields, let columns):
      "the record has \(fields) field\(fields == 1 ? "" : "s"), the header \(columns)"
    case .tooManyColumns(let limit):
      "the header has more than \(limit) columns, the most a CSV header may have"
    case .headerTooLong(let limit):
      "the header is longer than \(size(limit)), the most a CSV header may be"
    case .quoteInUnquotedField:
      "a quote inside a field that does not start with one (quote the field and double the"
        + " quote)"
    case .bareCarriageReturn: "a carriage return without a line feed outside quotes"
    case .quotedFieldNotClosed: "a quoted field is not closed"
    case .textAfterClosingQuote: "text after the closing quote of a field"
    }
  }

  /// `1 MiB` for a whole number of MiB, else `N bytes`.
  static func size(_ bytes: Int) -> String {
    bytes > 0 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
  }

  /// A header or record of vault's `csv` format refused.
  static func phrase(_ fault: CSVImportFault) -> String {
    switch fault {
    case .unknownColumn(let name):
      "the column '\(name)' is not one of name, content, content_b64 and fields"
    case .noNameColumn: "the header has no 'name' column"
    case .noContentColumn: "the header has neither a 'content' nor a 'content_b64' column"
    case .bothContentColumns: "the header has both 'content' and 'content_b64': give one"
    case .nameNotText: "the name is not UTF-8 text"
    case .nameEmpty: "the name is empty"
    case .contentBase64(let fault): "content_b64: \(TransferWords.phrase(fault))"
    case .emptyEntry: "the entry is empty: give a content or fields"
    case .fieldKeyTwice(let key): "fields: the key '\(key)' is given twice"
    case .fieldsNeedText: "fields need a content that is UTF-8 text"
    case .fieldLineMalformed: "fields: a line is not 'KEY: VALUE'"
    case .fieldLineNoBlank: "fields: a line is not 'KEY: VALUE' (a blank follows the ':')"
    }
  }

  /// A header or record of a password manager's CSV export refused.
  static func phrase(_ fault: ExportCSVFault) -> String {
    switch fault {
    case .missingColumn(let name, let format):
      "the header has no '\(name)' column: is this a \(exportName(format)) export?"
    case .groupColumn:
      "the header has a 'Group' column, which 1Password's CSV has not: is this a KeePassXC CSV"
        + " export? (import it with --from \(ImportFormat.keepassCSV.rawValue))"
    case .recordNotText:
      "the record is not UTF-8 text (the export is; was the file saved again in another"
        + " encoding?)"
    }
  }

  /// The manager's name for its CSV export of `format`.
  static func exportName(_ format: ImportFormat) -> String {
    switch format {
    case .keepassCSV: "KeePassXC CSV"
    case .onePasswordCSV: "1Password CSV"
    default: format.rawValue
    }
  }
}
