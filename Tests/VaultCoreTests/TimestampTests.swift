import Foundation
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// `Timestamp` by calendar arithmetic agrees with Foundation's ISO 8601 formatter.
final class TimestampTests: XCTestCase {
  func testWritingAndReadingAgreeWithTheISO8601Formatter() {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    var state: UInt64 = 0x7157
    for index in 0..<2000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      // From 1970 to beyond 3000, and the seconds around the epoch and a leap day.
      let seconds = index < 3 ? [0.0, 951_782_400.0, 951_868_799.5][index] : Double(state >> 29)
      let text = Timestamp.utc(seconds)
      XCTAssertEqual(
        text, formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down))))
      XCTAssertEqual(Timestamp.seconds(text), seconds.rounded(.down))
      XCTAssertTrue(Timestamp.isUTC(text))
    }
    XCTAssertEqual(Timestamp.utc(951_868_799.5), "2000-02-29T23:59:59Z")
  }

  func testOnlyTheExactFormIsATimestamp() {
    for text in [
      "2026-02-30T00:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T23:60:00Z",
      "2026-11-29T23:59:60Z", "2026-11-29t23:59:59Z", "2026-11-29T23:59:59z",
      "2026-11-29T23:59:59+00:00", "2026-11-29 23:59:59Z", "+026-11-29T23:59:59Z", "",
    ] {
      XCTAssertFalse(Timestamp.isUTC(text), text)
      XCTAssertNil(Timestamp.seconds(text), text)
    }
  }
}
