import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets
import VaultSync
import VaultTransfer
import XCTest

@testable import VaultCLI

/// The words the command line gives the facts of a journal ID or DATE that names nothing: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class JournalWordsTests: XCTestCase {
  func testAJournalIDOrDateThatNamesNothing() {
    let forms = "YYYY-MM-DD, today, yesterday or Nd (N days ago)"
    let cases: [(JournalError, String)] = [
      (.invalidDate("2026-02-30"), "invalid date '2026-02-30' (use \(forms); N is at most 100000)"),
      (.neitherIDNorDate("xyz"), "'xyz' is neither a journal entry ID nor a date (\(forms))"),
      (
        .ambiguousID("abab", matches: 2),
        "the ID 'abab' matches 2 journal entries; give more digits"
      ),
    ]
    for (error, words) in cases {
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertEqual(error.message, words)
    }
    let lookups: [(JournalLookup, String)] = [
      (.id("ff"), "no journal entry with ID 'ff'"),
      (.day(CivilDate(year: 2026, month: 11, day: 29)!), "no journal entry on 2026-11-29"),
    ]
    for (lookup, words) in lookups {
      let report = ExitStatus.report(.journalEntryNotFound(lookup))
      XCTAssertEqual(report.code, .noSuchEntry)
      XCTAssertEqual(report.message, words)
      XCTAssertEqual(report.hint, "see 'vault journal list'")
    }
  }
}
