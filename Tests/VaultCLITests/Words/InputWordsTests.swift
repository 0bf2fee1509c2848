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

/// The words the command line gives the facts of refused input: PINs, recovery codes, vault ids, names, contents, values: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class InputWordsTests: XCTestCase {
  func testRefusedPINsRecoveryCodesAndVaultIDs() {
    let cases: [(InputFault, String)] = [
      (.pin(.controlCharacter), "the PIN contains a control character"),
      (.pin(.tooShort(minimum: 4)), "the PIN must have at least 4 characters"),
      (.pin(.tooLong(maximumBytes: 1024)), "the PIN is longer than 1024 bytes"),
      (.pin(.notUTF8), "the PIN is not valid UTF-8"),
      (
        .recoveryCode(.malformed),
        "a recovery code is 36 symbols (32 in a code shown without its check group) of 0-9 and"
          + " A-Z (I and L read as 1, O as 0, no U)"
      ),
      (
        .recoveryCode(.typo),
        "the recovery code has a typo: its last group does not match the other symbols; check"
          + " each group (nothing was tried)"
      ),
      (.notAVaultID("xyz"), "'xyz' is not a vault id"),
    ]
    for (fault, words) in cases {
      let report = ExitStatus.report(.invalidInput(fault))
      XCTAssertEqual(report.code, .invalidInput)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
    XCTAssertEqual(
      BiometryError.emptyReason.message, "a biometric evaluation needs a non-empty reason")
    XCTAssertEqual(BiometryError.emptyReason.exitCode, .invalidInput)
  }

  func testRefusedPINsImportItemsAndJournalTexts() {
    let cases: [(InputFault, String)] = [
      (.pin(.controlCharacter), "the PIN contains a control character"),
      (.pin(.tooShort(minimum: 4)), "the PIN must have at least 4 characters"),
      (.pin(.tooLong(maximumBytes: 1024)), "the PIN is longer than 1024 bytes"),
      (.pin(.notUTF8), "the PIN is not valid UTF-8"),
      (.pin(.tooShortToSet(minimum: 6)), "a new PIN needs at least 6 characters"),
      (
        .nameGivenTwice(name: "mail/work", at: "line 2"),
        "the name 'mail/work' is already given at line 2"
      ),
      (
        .noFreeName(name: "x", at: "record 3"),
        "the name 'x' is already given at record 3, and no 'NAME (N)' for it is a valid name"
      ),
      (.emptyContent, "the content is empty"),
      (.emptyJournalEntry, "the journal entry is empty"),
      (.journalEntryTooLarge, "a journal entry is limited to 16 MiB"),
    ]
    for (fault, words) in cases {
      let report = ExitStatus.report(.invalidInput(fault))
      XCTAssertEqual(report.code, .invalidInput)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
  }

  func testRefusedNamesContentsAndValues() {
    let cases: [(InputFault, String)] = [
      (.name(.empty), "the name is empty"),
      (.name(.tooLong(maximum: 1024)), "the name is longer than 1024 bytes"),
      (.name(.controlCharacter), "the name contains a control character"),
      (.name(.emptySegment(name: "a//b")), "the name 'a//b' has an empty path segment"),
      (.name(.emptySegment(name: "/a")), "the name '/a' has an empty path segment"),
      (.name(.emptySegment(name: "a/")), "the name 'a/' has an empty path segment"),
      (.name(.dotSegment(name: "a/../b", segment: "..")), "the name 'a/../b' has a '..' segment"),
      (.name(.dotSegment(name: "./a", segment: ".")), "the name './a' has a '.' segment"),
      (.emptyContent, "the content is empty"),
      (.streamedContentStartsShort, "a streamed content starts with more than 1 MiB"),
      (
        .journalRecord(.idsNotSixteenBytes), "a journal entry id and writer id are 16 bytes each"
      ),
      (
        .journalRecord(.zeroSequenceOrRevision),
        "a journal entry's sequence and revision start at 1"
      ),
      (.journalRecord(.textTooLong), "a journal entry is too long"),
      (
        .currentRevision(name: "mail/work", revision: 4),
        "revision 4 of 'mail/work' is its current version"
      ),
      (
        .settingOutOfRange(VaultSettings.historyKeep),
        "history_keep is a whole number from 0 to 10000"
      ),
    ]
    for (fault, words) in cases {
      let report = ExitStatus.report(.invalidInput(fault))
      XCTAssertEqual(report.code, .invalidInput)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
  }
}
