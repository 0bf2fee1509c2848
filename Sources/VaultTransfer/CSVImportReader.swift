import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// The `csv` format: vault's own CSV, one entry per record, read by `CSVReader`.
///
/// Columns (names without regard to case, in any order): `name`, then exactly one of `content`
/// (the content's bytes as they are, any bytes, line breaks inside quotes) and `content_b64`
/// (the content in standard base64, `GuardedBase64`), and optionally `fields`. Any other column
/// is refused, so nothing in the file is silently left out.
///
/// `fields` holds one field per line, `KEY: VALUE` (LF or CRLF between lines; empty lines are
/// skipped). KEY follows `vault set`'s rule (1 to 64 bytes, no white space, control character or
/// `:`, `password` names the first line); VALUE is the rest of the line after the `:` and the
/// blanks that follow it, UTF-8 text. Each field is set on the content as `vault set NAME KEY`
/// sets it (`EntryFields.setting`): an existing key's first line gets the value, a new key is
/// a line after the last field. A key given twice in one cell is refused. Fields on an empty
/// content follow an empty first line (an empty password).
///
/// The name is UTF-8 text; the content may be any bytes, but fields need UTF-8 text content.
/// An empty content without fields is refused (an entry has at least one byte). Each entry's
/// location is the line its record starts on. Two records with one name are both returned, in
/// order: the bulk import refuses them naming both lines.
public enum CSVImportReader: ImportReader {
  /// Reads every record of `source` (`.bytes` only).
  ///
  /// - Throws: `TransferError` at the line of the first faulty record, or without a location
  ///   for a wrong header or a folder source.
  public static func read(_ source: ImportSource) throws -> TransferBatch {
    guard case .bytes(let bytes) = source else {
      throw TransferError(.source(.folderGiven(.csv)))
    }
    let csv = try CSVReader(bytes)
    let columns = try Columns(csv)
    var entries: [TransferEntry] = []
    for record in csv.records {
      entries.append(try entry(record, in: csv, columns))
    }
    return TransferBatch(entries: entries)
  }

  /// Where each column is.
  struct Columns {
    var name: Int
    var content: Int
    var base64: Bool
    var fields: Int?

    init(_ csv: CSVReader) throws {
      let known = ["name", "content", "content_b64", "fields"]
      if let unknown = csv.header.first(where: { !known.contains($0.lowercased()) }) {
        throw TransferError(.csvImport(.unknownColumn(unknown)), at: .line(csv.headerLine))
      }
      guard let name = csv.column("name") else {
        throw TransferError(.csvImport(.noNameColumn), at: .line(csv.headerLine))
      }
      switch (csv.column("content"), csv.column("content_b64")) {
      case (let plain?, nil): (content, base64) = (plain, false)
      case (nil, let encoded?): (content, base64) = (encoded, true)
      case (nil, nil):
        throw TransferError(.csvImport(.noContentColumn), at: .line(csv.headerLine))
      case (_?, _?):
        throw TransferError(.csvImport(.bothContentColumns), at: .line(csv.headerLine))
      }
      self.name = name
      fields = csv.column("fields")
    }
  }

  static func entry(_ record: CSVReader.Record, in csv: CSVReader, _ columns: Columns) throws
    -> TransferEntry
  {
    let at = SourceLocation.line(record.line)
    guard csv.isText(record, columns.name) else {
      throw TransferError(.csvImport(.nameNotText), at: at)
    }
    let name = csv.value(record, columns.name).withBytes { UTF8Text.string($0) ?? "" }
    guard !name.isEmpty else { throw TransferError(.csvImport(.nameEmpty), at: at) }
    var content = csv.value(record, columns.content)
    if columns.base64 {
      do {
        content = try GuardedBase64.decode(content)
      } catch let error as TransferError {
        guard case .base64(let fault) = error.reason else { throw error }
        throw TransferError(.csvImport(.contentBase64(fault)), at: at)
      }
    }
    if let column = columns.fields, !csv.isEmpty(record, column) {
      content = try setFields(csv.value(record, column), on: content, at: at)
    }
    guard content.count > 0 else {
      throw TransferError(.csvImport(.emptyEntry), at: at)
    }
    return TransferEntry(name: name, content: content, location: at)
  }

  /// `content` with each `KEY: VALUE` line of `cell` set as a field.
  static func setFields(_ cell: SecureBytes, on content: SecureBytes, at: SourceLocation) throws
    -> SecureBytes
  {
    // An empty content gets an empty first line, so the fields are not read as the password.
    let start = content.count > 0 ? content : SecureBytes(copying: [0x0A], packed: true)
    var seen = Set<String>()
    var pairs: [(key: String, value: SecureBytes)] = []
    for line in lines(of: cell) {
      let (key, value) = try field(line, at: at)
      guard seen.insert(key.lowercased()).inserted else {
        throw TransferError(.csvImport(.fieldKeyTwice(key)), at: at)
      }
      pairs.append((key, value))
    }
    do {
      // One pass for all of them: setting them one by one reads the content again each time.
      // Packed: a source read whole holds every record's content until the write.
      let content = try EntryFields(start).setting(pairs)
      return content.prefix(content.count, packed: true)
    } catch VaultError.notText {
      throw TransferError(.csvImport(.fieldsNeedText), at: at)
    } catch let error as SecretError {
      throw TransferError(.fields(error), at: at)
    }
  }

  /// The non-empty lines of `cell` (LF or CRLF between them), each in a buffer of its own.
  static func lines(of cell: SecureBytes) -> [SecureBytes] {
    cell.withBytes { bytes in
      var out: [SecureBytes] = []
      var start = 0
      while start < bytes.count {
        var stop = start
        while stop < bytes.count && bytes[stop] != 0x0A { stop += 1 }
        var end = stop
        if end > start && bytes[end - 1] == 0x0D { end -= 1 }
        if end > start { out.append(SecureBytes(copying: bytes[start..<end], packed: true)) }
        start = stop + 1
      }
      return out
    }
  }

  /// The key and value of one `KEY: VALUE` line.
  static func field(_ line: SecureBytes, at: SourceLocation) throws -> (String, SecureBytes) {
    try line.withBytes { bytes in
      guard let colon = bytes.firstIndex(of: 0x3A), colon > 0,
        let key = UTF8Text.string(UnsafeRawBufferPointer(rebasing: bytes[0..<colon]))
      else {
        throw TransferError(.csvImport(.fieldLineMalformed), at: at)
      }
      do {
        try EntryFields.validate(key: key)
      } catch let error as SecretError {
        throw TransferError(.fields(error), at: at)
      }
      var start = colon + 1
      guard start == bytes.count || bytes[start] == 0x20 || bytes[start] == 0x09 else {
        throw TransferError(.csvImport(.fieldLineNoBlank), at: at)
      }
      while start < bytes.count && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
      return (key, SecureBytes(copying: bytes[start...], packed: true))
    }
  }
}
