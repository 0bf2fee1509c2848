import Foundation
import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultSync

/// The files of a sync repository (`vault(5)` SYNC REPOSITORY): each opens only at its own
/// path, in its own vault, under its own key, and a version vector orders states.
final class SyncFilesTests: XCTestCase {
  let master = SymmetricKey(SecureBytes(copying: Array(0...31)))
  let vaultID = try! VaultID([UInt8](repeating: 2, count: 16))
  var files: SyncFiles { SyncFiles(vaultID: vaultID, masterKey: master) }
  let row = RecordRow(
    recordID: [UInt8](repeating: 1, count: 16), lookup: [UInt8](repeating: 9, count: 32),
    kind: RecordKind.entry.rawValue, revision: 3, box: Array(repeating: 7, count: 300))

  func testARecordFileOpensOnlyAtItsPathInItsVault() throws {
    let (path, bytes) = files.sealRecord(row)
    XCTAssertTrue(path.hasPrefix("records/09/"), path)
    XCTAssertEqual(bytes.count, 16 + 1 + 32 + 1 + 8 + 300 + 40)
    XCTAssertTrue(try files.openRecord(path: path, bytes: bytes).isStored(as: row))
    let moved = "records/0a/" + path.split(separator: "/")[2]
    XCTAssertThrowsError(try files.openRecord(path: moved, bytes: bytes))
    let other = SyncFiles(vaultID: try VaultID([UInt8](repeating: 3, count: 16)), masterKey: master)
    XCTAssertThrowsError(try other.openRecord(path: path, bytes: bytes))
    var flipped = bytes
    flipped[40] ^= 1
    XCTAssertThrowsError(try files.openRecord(path: path, bytes: flipped))
    // A sync record is never a file.
    var sync = row
    sync.kind = RecordKind.sync.rawValue
    sync.lookup = nil
    let sealed = files.sealRecord(sync)
    XCTAssertThrowsError(try files.openRecord(path: sealed.path, bytes: sealed.bytes)) {
      XCTAssertEqual(VaultError($0), .integrity(.syncFile(path: sealed.path, .unsyncedKind(7))))
    }
  }

  func testAContentFileNamesItsPlaceAndAddsUp() throws {
    let content = SyncFiles.Content(
      recordID: row.recordID, contentID: [UInt8](repeating: 4, count: 16), revision: 2,
      boxes: [Array(repeating: 5, count: 100), Array(repeating: 6, count: 30)])
    let path = files.contentPath(
      recordID: content.recordID, revision: 2, contentID: content.contentID)
    let bytes = files.sealContent(content, path: path)
    XCTAssertEqual(try files.openContent(path: path, bytes: bytes), content)
    XCTAssertThrowsError(try files.openContent(path: path, bytes: bytes.dropLast())) {
      XCTAssertEqual(VaultError($0), .integrity(.syncFile(path: path, .truncated)))
    }
    XCTAssertThrowsError(try files.openContent(path: path, bytes: bytes + [0])) {
      XCTAssertEqual(VaultError($0), .integrity(.syncFile(path: path, .malformed)))
    }
    let elsewhere = files.contentPath(recordID: content.recordID, revision: 3, contentID: nil)
    XCTAssertThrowsError(
      try files.openContent(path: elsewhere, bytes: files.sealContent(content, path: elsewhere))
    ) {
      XCTAssertEqual(VaultError($0), .integrity(.syncFile(path: elsewhere, .malformed)))
    }
  }

  func testTheStateFileIsBoundToItsPublicPartAndVault() throws {
    let state = SyncStateFile(
      publicPart: .init(
        vaultID: vaultID, kdf: KDFParameters.test,
        recovery: RecoverySlot(
          salt: "AAAAAAAAAAAAAAAAAAAAAA==", wrapped: "x", verifier: nil, tag: nil)),
      header: Array("{}".utf8), headerMAC: Array(repeating: 1, count: 32),
      files: Array(repeating: 2, count: 32),
      vector: VersionVector(["ab" + String(repeating: "0", count: 30): 3]))
    let bytes = try state.encoded(with: files)
    XCTAssertEqual(try SyncStateFile.open(bytes, codec: files), state)
    XCTAssertEqual(try SyncStateFile.readPublic(bytes), state.publicPart)
    // The public part is authenticated with the body.
    let at = try XCTUnwrap(bytes.firstRange(of: Array("\"wrapped\":\"x\"".utf8)))
    var edited = bytes
    edited[at.upperBound - 2] = UInt8(ascii: "y")
    XCTAssertThrowsError(try SyncStateFile.open(edited, codec: files))
    let other = SyncFiles(vaultID: try VaultID([UInt8](repeating: 3, count: 16)), masterKey: master)
    XCTAssertThrowsError(try SyncStateFile.open(bytes, codec: other)) {
      XCTAssertEqual(VaultError($0), .integrity(.syncState(.anotherVault)))
    }
    XCTAssertThrowsError(try SyncStateFile.readPublic(Array("VAULTSYN".utf8) + [2])) {
      XCTAssertEqual(VaultError($0), .integrity(.syncState(.notAStateFile)))
    }
  }

  func testAVersionVectorIncludesOnlyWhatItCounted() {
    let a = String(repeating: "a", count: 32)
    let b = String(repeating: "b", count: 32)
    let seen = VersionVector([a: 2, b: 1])
    XCTAssertTrue(VersionVector([a: 2, b: 1]).includes(seen))
    XCTAssertTrue(VersionVector([a: 3, b: 1]).includes(seen))
    XCTAssertFalse(VersionVector([a: 1, b: 5]).includes(seen))
    XCTAssertFalse(VersionVector([a: 2]).includes(seen))
    XCTAssertTrue(seen.includes(VersionVector()))
    XCTAssertEqual(seen.advanced(by: b), VersionVector([a: 2, b: 2]))
    XCTAssertFalse(VersionVector(["A": 1]).isWellFormed)
    XCTAssertFalse(VersionVector([a: 0]).isWellFormed)
  }
}
