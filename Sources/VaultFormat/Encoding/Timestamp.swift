/// ISO 8601 timestamps as stored inside encrypted records and shown to users.
///
/// Written and read by calendar arithmetic (`CivilDate`), not by a date formatter: a bulk write
/// stamps and a history read parses one per record, and making a formatter costs far more than
/// the record.
public enum Timestamp {
  /// UTC, to the second: `2026-11-29T15:55:11Z`.
  public static func utc(_ seconds: Double) -> String {
    let whole = Int64(seconds.rounded(.down))
    let days = whole >= 0 ? whole / 86400 : (whole - 86399) / 86400
    let rest = Int(whole - days * 86400)
    return CivilDate(dayNumber: Int(days)).description + "T" + CivilDate.pad(rest / 3600, 2) + ":"
      + CivilDate.pad(rest / 60 % 60, 2) + ":" + CivilDate.pad(rest % 60, 2) + "Z"
  }

  /// The Unix time in seconds of a timestamp `utc` wrote, or nil when `text` is not one.
  public static func seconds(_ text: String) -> Double? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z"),
      let date = CivilDate(parsing: String(decoding: bytes[0..<10], as: UTF8.self)),
      let hour = CivilDate.number(bytes[11..<13]), hour < 24,
      let minute = CivilDate.number(bytes[14..<16]), minute < 60,
      let second = CivilDate.number(bytes[17..<19]), second < 60
    else { return nil }
    return Double(Int64(date.dayNumber) * 86400 + Int64(hour * 3600 + minute * 60 + second))
  }

  /// True when `text` is exactly a timestamp `utc` writes (`YYYY-MM-DDTHH:MM:SSZ`).
  public static func isUTC(_ text: String) -> Bool {
    seconds(text) != nil
  }
}
