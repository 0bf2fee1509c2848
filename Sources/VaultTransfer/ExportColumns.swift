import VaultCore
import VaultCrypto
import VaultFormat

/// What one column of a password manager's CSV export holds, and where it goes in an entry.
enum ColumnRole: Equatable {
  /// The folder path, `/` between groups; its first group (the database's root) is left out.
  case groupUnderRoot
  /// The entry's title: the last segment of its name.
  case title
  /// The first line.
  case password
  /// A field of this key (left out when empty).
  case field(String)
  /// The notes, after the fields.
  case notes
  /// Not imported (what the manager shows of an item, such as its icon or dates).
  case dropped
}

/// Entries from the records of a password manager's CSV export, by a table of its columns.
///
/// A known column (matched without regard to case) has its role; any other column
/// becomes a field named by its header (`EntryContent.fieldKey`), so nothing is dropped unseen.
/// Fields of known columns come first, in the table's order, then the others in column order.
struct ExportColumns {
  let roles: [ColumnRole]
  /// Each column's place among the fields: its index in the table, or after the table.
  let order: [Int]
  let csv: CSVReader

  /// The roles of `csv`'s columns by `known`; `required` must all be there.
  ///
  /// - Throws: `TransferError` at the header line naming a missing column.
  init(
    _ csv: CSVReader, known: [(String, ColumnRole)], required: [String], format: ImportFormat
  ) throws {
    for name in required where csv.column(name) == nil {
      throw TransferError(
        .exportCSV(.missingColumn(name, format: format)), at: .line(csv.headerLine))
    }
    let places = csv.header.enumerated().map { column, name in
      (known.firstIndex { $0.0.lowercased() == name.lowercased() }, column)
    }
    roles = zip(csv.header, places).map { name, place in place.0.map { known[$0].1 } ?? .field(name)
    }
    order = places.map { place, column in place ?? known.count + column }
    self.csv = csv
  }

  /// One entry per record, in order; `skip` is asked about each record's group path (root
  /// included) first.
  ///
  /// - Throws: `TransferError` at a record's line when a field is not UTF-8 text, the title is
  ///   empty, the password holds a line break or the entry would be empty.
  func entries(skippingGroup skip: (String) -> Bool = { _ in false }) throws -> [TransferEntry] {
    var out: [TransferEntry] = []
    for record in csv.records {
      let at = SourceLocation.line(record.line)
      guard csv.isText(record) else {
        throw TransferError(.exportCSV(.recordNotText), at: at)
      }
      var group: String?
      var title = ""
      var password: SecureBytes?
      var notes: SecureBytes?
      var fields: [(place: Int, key: String, value: SecureBytes)] = []
      for (column, role) in roles.enumerated() {
        switch role {
        case .groupUnderRoot: group = text(record, column)
        case .title: title = text(record, column)
        case .password: password = csv.value(record, column)
        case .notes: notes = csv.value(record, column)
        case .field(let key):
          if !csv.isEmpty(record, column) {
            fields.append((order[column], key, csv.value(record, column)))
          }
        case .dropped: continue
        }
      }
      if let group, skip(group) { continue }
      guard !title.isEmpty else { throw TransferError(.item(.noTitle), at: at) }
      let content: SecureBytes
      do {
        let sorted = fields.sorted { $0.place < $1.place }.map { (key: $0.key, value: $0.value) }
        content = try EntryContent.composeKeepingEmpty(
          password: password, fields: sorted, notes: notes)
      } catch let error as TransferError {
        throw TransferError(error.reason, at: at)
      }
      let folders = group.map(Self.underRoot) ?? []
      out.append(
        TransferEntry(
          name: (folders + [title]).joined(separator: "/"), content: content, location: at))
    }
    return out
  }

  /// The groups of a `/`-separated path below its first (the root's name).
  static func underRoot(_ path: String) -> [String] {
    Array(path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init))
  }

  /// A field known to be UTF-8, as a string (titles and groups are names, not secrets).
  private func text(_ record: CSVReader.Record, _ column: Int) -> String {
    csv.value(record, column).withBytes { UTF8Text.string($0) ?? "" }
  }
}
