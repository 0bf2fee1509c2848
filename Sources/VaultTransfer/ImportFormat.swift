/// The formats `vault import --from FORMAT` reads, by the name given on the command line, each
/// with its reader (`vault(1)` IMPORT).
public enum ImportFormat: String, CaseIterable, Sendable {
  /// One JSON object per line: `name`, then `content` or `content_b64`, or `password`, `fields`
  /// and `notes` (`JSONLinesReader`).
  case jsonl
  /// Bitwarden's unencrypted JSON export (`BitwardenJSONReader`).
  case bitwardenJSON = "bitwarden-json"
  /// jrnl's JSON export, into the journal (`JrnlJSONReader`).
  case jrnlJSON = "jrnl-json"
  /// vault's own CSV: `name`, `content` or `content_b64`, optional `fields` (`CSVImportReader`).
  case csv
  /// KeePassXC's CSV export (`KeePassCSVReader`).
  case keepassCSV = "keepass-csv"
  /// The KeePass 2 XML export (`KeePassXMLReader`).
  case keepassXML = "keepass-xml"
  /// 1Password's CSV export (`OnePasswordCSVReader`).
  case onePasswordCSV = "1password-csv"
  /// A pass password-store folder, each file decrypted with gpg (`PasswordStoreReader`).
  case pass
  /// A gopass store folder, read as pass's (`PasswordStoreReader`).
  case gopass
  /// vault's own encrypted export (`vault export --to vault`; `VaultExportReader`).
  case vault

  /// The reader of the format.
  public var reader: any ImportReader.Type {
    switch self {
    case .jsonl: JSONLinesReader.self
    case .bitwardenJSON: BitwardenJSONReader.self
    case .jrnlJSON: JrnlJSONReader.self
    case .csv: CSVImportReader.self
    case .keepassCSV: KeePassCSVReader.self
    case .keepassXML: KeePassXMLReader.self
    case .onePasswordCSV: OnePasswordCSVReader.self
    case .pass, .gopass: PasswordStoreReader.self
    case .vault: VaultExportReader.self
    }
  }

  /// True for a format whose source is encrypted under a passphrase.
  public var needsPassphrase: Bool { self == .vault }

  /// True for a format whose source is a folder rather than a file.
  public var readsFolder: Bool { self == .pass || self == .gopass }

  /// Hands every item of `source` to `sink` in source order, through the format's reader.
  ///
  /// - Throws: `TransferError` at the first fault; what `sink` throws.
  public func read(_ source: ImportSource, each sink: (TransferItem) throws -> Void) throws {
    try reader.read(source, each: sink)
  }
}
