import Glibc

/// When a journal entry was written: local wall-clock time with its UTC offset, to the second,
/// as ISO 8601 (`2026-11-29T16:05:09+01:00`).
///
/// The text is what is sealed into the entry and shown; the date part is the day the entry
/// belongs to, in the time zone it was written in. Stamps order by the instant they name, so the
/// two 02:30 of a night when clocks go back sort correctly.
public struct JournalStamp: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// The local calendar date.
  public let date: CivilDate
  /// Local hour, minute and second.
  public let hour: Int, minute: Int, second: Int
  /// Offset east of UTC in seconds, a whole number of minutes.
  public let offset: Int

  /// The local time of `seconds` since the epoch in the process time zone (`localtime_r` after
  /// `tzset`, so `TZ` is honoured in every form glibc accepts).
  public static func local(_ seconds: Double) -> JournalStamp {
    tzset()
    var time = time_t(seconds.rounded(.down))
    var fields = tm()
    guard localtime_r(&time, &fields) != nil,
      let date = CivilDate(
        year: Int(fields.tm_year) + 1900, month: Int(fields.tm_mon) + 1, day: Int(fields.tm_mday))
    else { return utc(Int64(time)) }
    let offset = fields.tm_gmtoff / 60 * 60
    return JournalStamp(
      date: date, hour: Int(fields.tm_hour), minute: Int(fields.tm_min),
      second: min(59, Int(fields.tm_sec)), offset: offset)
  }

  /// The stamp of `instant` in UTC (`+00:00`).
  static func utc(_ instant: Int64) -> JournalStamp {
    let days = Int(instant >= 0 ? instant / 86400 : (instant - 86399) / 86400)
    let rest = Int(instant - Int64(days) * 86400)
    return JournalStamp(
      date: CivilDate(dayNumber: days), hour: rest / 3600, minute: rest / 60 % 60,
      second: rest % 60, offset: 0)
  }

  private init(date: CivilDate, hour: Int, minute: Int, second: Int, offset: Int) {
    self.date = date
    self.hour = hour
    self.minute = minute
    self.second = second
    self.offset = offset
  }

  /// Parses exactly `YYYY-MM-DDTHH:MM:SS±HH:MM`, or returns nil.
  public init?(parsing text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count == 25, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"),
      bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-"),
      let date = CivilDate(parsing: String(decoding: bytes[0..<10], as: UTF8.self)),
      let hour = CivilDate.number(bytes[11..<13]), hour < 24,
      let minute = CivilDate.number(bytes[14..<16]), minute < 60,
      let second = CivilDate.number(bytes[17..<19]), second < 60,
      let offsetHours = CivilDate.number(bytes[20..<22]), offsetHours < 24,
      let offsetMinutes = CivilDate.number(bytes[23..<25]), offsetMinutes < 60
    else { return nil }
    let sign = bytes[19] == UInt8(ascii: "-") ? -1 : 1
    self.init(
      date: date, hour: hour, minute: minute, second: second,
      offset: sign * (offsetHours * 3600 + offsetMinutes * 60))
  }

  /// Seconds since the epoch of the instant named.
  public var instant: Int64 {
    Int64(date.dayNumber) * 86400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
  }

  /// `2026-11-29T16:05:09+01:00`.
  public var description: String {
    let magnitude = abs(offset) / 60
    return date.description + "T" + CivilDate.pad(hour, 2) + ":" + CivilDate.pad(minute, 2) + ":"
      + CivilDate.pad(second, 2) + (offset < 0 ? "-" : "+") + CivilDate.pad(magnitude / 60, 2)
      + ":" + CivilDate.pad(magnitude % 60, 2)
  }

  /// Earlier instants first.
  public static func < (lhs: JournalStamp, rhs: JournalStamp) -> Bool {
    lhs.instant < rhs.instant
  }
}
