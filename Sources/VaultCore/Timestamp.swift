import Foundation

/// ISO 8601 timestamps as stored inside encrypted records and shown to users.
public enum Timestamp {
  /// UTC, to the second: `2026-11-29T15:55:11Z`.
  public static func utc(_ seconds: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
  }

  /// The Unix time in seconds of a timestamp `utc` wrote, or nil when `text` is not one.
  public static func seconds(_ text: String) -> Double? {
    guard isUTC(text) else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.date(from: text)?.timeIntervalSince1970
  }

  /// True when `text` is exactly a timestamp `utc` writes (`YYYY-MM-DDTHH:MM:SSZ`).
  public static func isUTC(_ text: String) -> Bool {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    guard text.utf8.count == 20, let date = formatter.date(from: text) else { return false }
    return formatter.string(from: date) == text
  }
}
