/// A calendar date without a time zone (proleptic Gregorian), such as the day a journal entry was
/// written on.
///
/// Arithmetic is on whole days, so "three days ago" is three calendar days whatever the length of
/// the days in between (23 or 25 hours across a DST change).
public struct CivilDate: Comparable, Hashable, Sendable, CustomStringConvertible {
  /// Year, 1 to 9999.
  public let year: Int
  /// Month, 1 to 12.
  public let month: Int
  /// Day of the month, 1 to 31.
  public let day: Int

  /// A date, or nil when the fields do not name a real day (2026-02-30).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...Self.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses exactly `YYYY-MM-DD`, or returns nil.
  public init?(parsing text: String) {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let year = Self.number(bytes[0..<4]), let month = Self.number(bytes[5..<7]),
      let day = Self.number(bytes[8..<10])
    else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// The date `dayNumber` days after 1970-01-01 (Howard Hinnant's `civil_from_days`).
  public init(dayNumber: Int) {
    let z = dayNumber + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    self.year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    self.month = month
    self.day = day
  }

  /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
  public var dayNumber: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date `days` days later (earlier when negative).
  public func adding(days: Int) -> CivilDate {
    CivilDate(dayNumber: dayNumber + days)
  }

  /// `YYYY-MM-DD`.
  public var description: String {
    Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2)
  }

  /// Earlier dates first.
  public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// A run of ASCII digits as a number, or nil.
  package static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    var value = 0
    for byte in digits {
      guard (48...57).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 48)
    }
    return digits.isEmpty ? nil : value
  }

  /// `value` with leading zeros to `width` digits.
  static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
