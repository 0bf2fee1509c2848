import VaultFormat

/// The DATE forms of `vault journal list` and `show`: `YYYY-MM-DD`, `today`, `yesterday` and
/// `Nd` (N calendar days ago), counted in the local time zone.
public enum JournalDate {
  /// The accepted forms, as quoted in error messages.
  public static let forms = "YYYY-MM-DD, today, yesterday or Nd (N days ago)"
  /// The forms that are words, for shell completion.
  public static let words = ["today", "yesterday"]

  /// Longest `Nd` accepted: about 270 years.
  public static let maximumDaysAgo = 100_000

  /// The local date `text` names, with `now` (seconds since the epoch) as the present.
  ///
  /// - Throws: `JournalError.invalidDate`.
  public static func parse(_ text: String, now: Double) throws -> CivilDate {
    guard let date = parseIfDate(text, now: now) else {
      throw JournalError.invalidDate(text)
    }
    return date
  }

  /// True when `text` has the shape of a DATE form (`Nd` with any N included), so it is read as
  /// a date rather than as an ID prefix, even when out of range.
  public static func looksLikeDate(_ text: String) -> Bool {
    if text == "today" || text == "yesterday" { return true }
    let bytes = Array(text.utf8)
    if bytes.count >= 2, bytes.last == UInt8(ascii: "d"),
      bytes.dropLast().allSatisfy({ (48...57).contains($0) })
    {
      return true
    }
    return bytes.count == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
  }

  /// The local date `text` names, or nil when it is not one of the forms.
  public static func parseIfDate(_ text: String, now: Double) -> CivilDate? {
    let today = JournalStamp.local(now).date
    switch text {
    case "today": return today
    case "yesterday": return today.adding(days: -1)
    default: break
    }
    if let date = CivilDate(parsing: text) { return date }
    let bytes = Array(text.utf8)
    guard bytes.count >= 2, bytes.count <= 7, bytes.last == UInt8(ascii: "d"),
      let days = CivilDate.number(bytes.dropLast()), days <= maximumDaysAgo
    else { return nil }
    let date = today.adding(days: -days)
    return date.year >= 1 ? date : nil
  }
}
