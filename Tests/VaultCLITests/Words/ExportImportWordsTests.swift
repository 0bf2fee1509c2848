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

/// The words the command line gives the facts of exports and imports refused: the writers, a source, a passphrase, a rotation or revocation: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class ExportImportWordsTests: XCTestCase {
  func testAnExportTheWritersRefuse() {
    let cases: [(ExportError, String)] = [
      (.entryAfterJournal, "an export's entries come before its journal entries"),
      (.notInOrder(name: "a"), "an export's entries are in ascending order of their names"),
      (.badMetadata(name: "a"), "'a' cannot be exported: bad metadata"),
      (.journalEntrySize(bytes: 0), "a journal entry holds 1 byte to 16 MiB"),
      (.largeNeedsBase64(name: "big"), "'big' is large: a csv export of it is content_b64"),
      (.noPassphrase, "a vault export needs a passphrase"),
    ]
    for (error, line) in cases {
      XCTAssertEqual(error.message, line)
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertNil(error.hint)
    }
    let report = ExitStatus.report(.integrity(.exportedContent(name: "a", stored: 3, read: 2)))
    XCTAssertEqual(report.code, .integrity)
    XCTAssertEqual(report.message, "integrity failure: the content of 'a' is not its stored length")
    XCTAssertNil(report.hint)
  }

  func testAnImportSourcesFault() {
    XCTAssertEqual(TransferWords.phrase(.csvImport(.nameEmpty)), "the name is empty")
    XCTAssertEqual(
      TransferWords.phrase(.fields(.notAFieldKey("user name"))),
      "fields: 'user name' is not a field key: use 1 to 64 bytes without spaces, control"
        + " characters or ':'")
    XCTAssertEqual(
      TransferWords.phrase(.fields(.valueNotOneLine(key: "a"))),
      "fields: a field's value is one line of UTF-8 text: no line break, NUL byte or invalid"
        + " UTF-8")
  }

  func testAnExportOrItsPassphraseRefused() {
    let cases: [(ExportError, String)] = [
      (.passphrase(.empty), "the passphrase is empty"),
      (.passphrase(.controlCharacter), "the passphrase contains a control character"),
      (.passphrase(.notUTF8), "the passphrase is not valid UTF-8"),
      (.passphrase(.tooLong(maximumBytes: 1024)), "the passphrase is longer than 1024 bytes"),
      (
        .passphrase(.tooShort(length: 5, minimum: 12)),
        "the passphrase has 5 characters; an export's needs at least 12 (it is all that"
          + " protects the file)"
      ),
      (
        .passphrase(.weak(bits: 19, minimum: 50)),
        "the passphrase is weak (about 19 bits; an export's needs 50): use more words or"
          + " characters"
      ),
      (.notAnExport, "this is not a vault export (it does not start with 'VAULTEXP')"),
      (
        .unsupportedVersion(found: 2, reads: 1),
        "the export is of version 2; this vault reads version 1"
      ),
      (
        .notAProfile(opsLimit: 3, memLimit: 8192),
        "the export's Argon2id parameters (opslimit 3, memlimit 8192) are not those of a profile"
          + " (interactive, moderate, sensitive, test)"
      ),
    ]
    for (error, words) in cases {
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertEqual(error.message, words)
      XCTAssertNil(error.hint)
    }
  }

  func testAnImportRotationOrRevocationRefused() {
    let cases: [(any ReportableError, String)] = [
      (
        ImportError.sourceGaveOtherItems,
        "the source gave other items the second time it was read; nothing was written"
      ),
      (
        ImportError.sourceGaveFewerItems,
        "the source gave fewer items the second time it was read; nothing was written"
      ),
      (
        RekeyError.codeInForceNeeded,
        "rotating the master key of a vault with other devices needs the recovery code in force;"
          + " nothing was changed"
      ),
      (
        RekeyError.retiredWritersInUse(maximum: 64),
        "the vault's journal holds entries signed by more than 64 retired writer keys; nothing"
          + " was changed"
      ),
      (
        RevocationError.codeInForceNeeded,
        "revoking a device needs the recovery code in force; nothing was revoked"
      ),
      (
        RevocationError.revokedDevicesFull(maximum: 256),
        "the vault has revoked 256 devices, as many as it records"
      ),
      (
        RevocationError.retiredWritersFull(maximum: 64),
        "the vault holds 64 retired writer keys, as many as it can"
      ),
    ]
    for (error, words) in cases {
      XCTAssertEqual(error.exitCode, .invalidInput)
      XCTAssertEqual(error.message, words)
      XCTAssertNil(error.hint)
    }
  }
}
