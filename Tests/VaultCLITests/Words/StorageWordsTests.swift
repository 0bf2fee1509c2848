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

/// The words the command line gives the facts of failed file, memory and database operations: each case's exact line, hint and
/// exit code, as users saw them when the core composed the sentences.
final class StorageWordsTests: XCTestCase {
  func testTheStorageFailuresOfFilesAndMemory() {
    let cases: [(StorageFailure, String)] = [
      (
        .file(.read, path: "/h/v.db", errno: ENOENT),
        "cannot read /h/v.db: No such file or directory"
      ),
      (.notAFolder(path: "/h/v"), "/h/v exists and is not a folder"),
      (.headerNotEncodable, "the vault header cannot be encoded"),
      (.privateFileNotMade(beside: "/h/v.db"), "cannot create a private file beside /h/v.db"),
      (
        .builtFileReplaced(beside: "/h/v.db"),
        "the file being built beside /h/v.db was replaced; nothing was made"
      ),
      (
        .building(
          path: "/h/v.db", temporary: "/h/.v.db.creating-ab",
          .file(.write, path: "/h/.v.db.creating-ab", errno: ENOSPC)),
        "cannot write /h/v.db: No space left on device"
      ),
      (
        .building(path: "/h/v.db", temporary: "/h/.t", .outOfMemory(bytes: 10)),
        "out of memory for 10 bytes"
      ),
      (.sensorStateNotEncodable, "the simulated sensor's state cannot be encoded"),
      (.kdfOutOfMemory(mebibytes: 256), "Argon2id could not allocate 256 MiB"),
      (.outOfMemory(bytes: 10), "out of memory for 10 bytes"),
    ]
    for (failure, words) in cases {
      let report = ExitStatus.report(.storage(failure))
      XCTAssertEqual(report.code, .failure)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
  }

  func testAFailedDatabaseOrSpoolFile() {
    let cases: [(StorageFailure, String)] = [
      (
        .databaseNotOpened(path: "/v.db", message: "unable to open database file"),
        "cannot open /v.db: unable to open database file"
      ),
      (.database(SQLiteFailure(message: "string or blob too big")), "string or blob too big"),
      (
        .database(
          SQLiteFailure(message: "disk I/O error", write: .fileSizeLimit(bytes: 1_048_576))),
        "disk I/O error: the file-size limit (ulimit -f) of 1048576 bytes was reached; nothing was"
          + " written"
      ),
      (
        .database(SQLiteFailure(message: "database or disk is full", write: .diskFull)),
        "database or disk is full: the disk is full; nothing was written"
      ),
      (
        .database(SQLiteFailure(message: "disk I/O error", write: .unknown)),
        "disk I/O error while writing; nothing was written"
      ),
      (
        .backup(SQLiteFailure(message: "database or disk is full", write: .diskFull)),
        "cannot back up: database or disk is full: the disk is full; nothing was written"
      ),
      (
        .spool(.notMade(folder: "/h", errno: EACCES)),
        "cannot make a spool file in /h: Permission denied; nothing was stored"
      ),
      (
        .spool(.notWritten(errno: ENOSPC)),
        "cannot write the content's spool file: No space left on device; nothing was stored"
      ),
      (.spool(.notReadBack), "the content's spool file cannot be read back; nothing was stored"),
      (.spool(.changed), "the content's spool file was changed; nothing was stored"),
      (.unencodable(.record), "a record cannot be encoded"),
      (.unencodable(.recordBody), "a record's body cannot be encoded"),
      (.unencodable(.syncRecord), "the sync record cannot be encoded"),
      (.newFileWithoutState, "the new vault file has no state"),
      (
        .headerWithoutChunkHash,
        "the new header does not say how the vault's chunks are hashed; nothing was written"
      ),
    ]
    for (failure, words) in cases {
      let report = ExitStatus.report(.storage(failure))
      XCTAssertEqual(report.code, .failure)
      XCTAssertEqual(report.message, words)
      XCTAssertNil(report.hint)
    }
  }
}
