import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// jrnl's JSON export (`jrnl --export json`), into the journal (`vault(1)` IMPORT).
///
/// The export is an object whose `entries` array holds one object per entry: `title` and `body`
/// (strings), `date` (`YYYY-MM-DD`) and `time` (`HH:MM`, local time with no zone). The text is
/// the title, then, when the body is not empty, a newline and the body, as jrnl writes an entry
/// in its own file; its `@tags` stay in the text, where `vault journal tags` finds them again.
/// The time is taken in the time zone the import runs in (`TZ`), with that zone's offset on
/// that day; a time a clock change skipped is moved past the gap. `starred`, `tags` and other
/// members are not kept. Errors name the entry as `record N` (from 1), or the line for JSON
/// that is not well formed.
public enum JrnlJSONReader: ImportReader {
  /// Every journal entry, in order.
  ///
  /// - Throws: `TransferError` at the line or record of the first fault.
  public static func read(_ source: ImportSource) throws -> TransferBatch {
    try TransferBatch.collecting { try read(source, each: $0) }
  }

  /// Hands each journal entry to `sink` in the export's order.
  ///
  /// - Throws: `TransferError` at the line or record of the first fault; what `sink` throws.
  public static func read(_ source: ImportSource, each sink: (TransferItem) throws -> Void)
    throws
  {
    guard case .bytes(let bytes) = source else {
      throw TransferError(.source(.folderGiven(.jrnlJSON)))
    }
    let root = try GuardedJSON(
      reading: bytes, range: TextLines.byteOrderMarkLength(bytes)..<bytes.count
    ).root
    guard root.kind == .object, let entries = root["entries"], entries.kind == .array else {
      throw TransferError(.jrnl(.notAnExport), at: .line(root.line))
    }
    for (index, entry) in entries.elements.enumerated() {
      try sink(.journal(journalEntry(entry, at: .record(index + 1))))
    }
  }

  /// The journal entry of one element of `entries`.
  static func journalEntry(_ entry: GuardedJSON.Value, at location: SourceLocation) throws
    -> TransferJournalEntry
  {
    guard entry.kind == .object else {
      throw TransferError(.jrnl(.entryNotAnObject(entry.kind)), at: location)
    }
    let date = try JSONShape.text(entry, "date", required: true, at: location) ?? ""
    let time = try JSONShape.text(entry, "time", required: true, at: location) ?? ""
    guard let stamp = stamp(date: date, time: time) else {
      throw TransferError(.jrnl(.dateTime(date: date, time: time)), at: location)
    }
    let title =
      try JSONShape.bytes(entry, "title", at: location) ?? SecureBytes(count: 0, packed: true)
    let body =
      try JSONShape.bytes(entry, "body", at: location) ?? SecureBytes(count: 0, packed: true)
    var text = ByteBuilder(packed: true)
    text.append(title)
    if body.count > 0 {
      if title.count > 0 { text.append(0x0A) }
      text.append(body)
    }
    guard text.count > 0 else {
      throw TransferError(.jrnl(.empty), at: location)
    }
    return TransferJournalEntry(stamp: stamp, text: text.finish(), location: location)
  }

  /// The stamp of local `date` (`YYYY-MM-DD`) and `time` (`HH:MM`, or `HH:MM:SS`) in the
  /// process time zone, or nil when they are malformed.
  static func stamp(date: String, time: String) -> JournalStamp? {
    let parts = time.split(separator: ":", omittingEmptySubsequences: false)
    guard let day = CivilDate(parsing: date), parts.count == 2 || parts.count == 3,
      parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { (48...57).contains($0) } }),
      let hour = Int(parts[0]), hour < 24, let minute = Int(parts[1]), minute < 60
    else { return nil }
    let second = parts.count == 3 ? Int(parts[2]) ?? 60 : 0
    guard second < 60 else { return nil }
    tzset()
    var fields = tm()
    fields.tm_year = Int32(day.year - 1900)
    fields.tm_mon = Int32(day.month - 1)
    fields.tm_mday = Int32(day.day)
    fields.tm_hour = Int32(hour)
    fields.tm_min = Int32(minute)
    fields.tm_sec = Int32(second)
    fields.tm_isdst = -1
    let instant = mktime(&fields)
    guard instant != -1 else { return nil }
    return JournalStamp.local(Double(instant))
  }
}
