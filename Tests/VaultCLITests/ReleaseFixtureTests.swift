import Foundation
import XCTest

@testable import VaultCLI
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// A vault and device state written by release 0.1.0 (committed under `Tests/Fixtures`) still
/// unlocks with its PIN and a match: the domain state, the device secret, the header and the
/// records read exactly as that release wrote them.
final class ReleaseFixtureTests: XCTestCase {
  static let folder = GeneratorTestSupport.packageRoot + "/Tests/Fixtures/release-0.1.0"
  static let release050 = GeneratorTestSupport.packageRoot + "/Tests/Fixtures/release-0.5.0"

  static func makeBox(from folder: String = ReleaseFixtureTests.folder) throws -> Sandbox {
    let box = Sandbox()
    let manager = FileManager.default
    let fixture = folder
    for (file, folder) in [("vault.db", "/data/vault"), ("device.json", "/state/vault")] {
      try manager.createDirectory(
        atPath: box.home + folder, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
      try manager.copyItem(
        atPath: fixture + "/" + file, toPath: box.home + folder + "/" + file)
      // A checkout makes them 0644; vault refuses anything but private files.
      chmod(box.home + folder + "/" + file, 0o600)
    }
    return box
  }

  func testAnActivatedVaultOfTheFirstReleaseStillUnlocks() throws {
    let box = try Self.makeBox()
    let status = box.biosim(["status"])
    XCTAssertTrue(status.stdoutText.contains("domain state:  abee1d1bbcaaa037…"), status.stdoutText)
    // Before its first unlock, status reads it as it is, without the key.
    let before = box.vault(["status"])
    XCTAssertEqual(before.status, 0, before.stderrText)
    XCTAssertTrue(
      before.stdoutText.contains(
        "format:           1 (upgraded to format 2 at the next unlock with the PIN)\n"),
      before.stdoutText)
    box.biosim(["next", "match"])
    // A copy left by a migration killed before its commit is replaced, then removed.
    let copy = box.vaultPath + ".format1"
    XCTAssertTrue(FileManager.default.createFile(atPath: copy, contents: Data("stale".utf8)))
    // Its PIN, 2468, is shorter than a new PIN may be: it still unlocks, and status says so.
    // The first unlock migrates it to format 2 in place.
    let entry = box.vault(["get", "fixture/entry"], pin: ["2468"])
    XCTAssertEqual(entry.status, 0, entry.stderrText)
    XCTAssertEqual(entry.stdoutText, "from the first release\n")
    XCTAssertEqual(entry.errorLines, ["Upgraded the vault to format 2."])
    XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
    XCTAssertEqual(box.tamper { try $0.integer("PRAGMA user_version") }, 2)
    XCTAssertEqual(box.tamper { try $0.integer("SELECT count(*) FROM records") }, 2)
    XCTAssertTrue(box.vault(["status"]).stdoutText.contains("format:           2\n"))
    // A copy left by a migration killed after its commit goes at the next unlock with the PIN.
    XCTAssertTrue(FileManager.default.createFile(atPath: copy, contents: Data("left".utf8)))
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vault(["list"], pin: ["2468"]).status, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
    XCTAssertTrue(
      box.vault(["status"]).stdoutText.contains(
        "warning:          the PIN is shorter than 6 characters; set a longer one with"
          + " 'vault passwd'"))
    box.biosim(["next", "match"])
    let unlocked = box.vault(["unlock", "--raw"], pin: ["2468"])
    XCTAssertEqual(unlocked.status, 0, unlocked.stderrText)
    let session = ["VAULT_SESSION": unlocked.stdoutText.trimmingCharacters(in: .newlines)]
    XCTAssertEqual(box.vault(["list"], env: session).stdoutText, "fixture/entry\n")
    let journal = box.vault(["journal", "show", "cdfb98ee"], env: session)
    XCTAssertEqual(journal.stdoutText, "A journal entry from 0.1.0.\n")
    // Format 1 could not tell who wrote it: it is marked so.
    XCTAssertTrue(
      box.vault(["journal", "list"], env: session).stdoutText.hasSuffix(
        "  (format 1) A journal entry from 0.1.0.\n"))
    XCTAssertEqual(box.vault(["check"], env: session).status, 0)
    let biometry = box.statusJSON()["biometry"] as? [String: Any]
    XCTAssertEqual(biometry?["state"] as? String, "active")

    // The format-1 file put back: this device has seen the vault in format 2, so it is a
    // rollback, refused before any PIN.
    let migrated = try Data(contentsOf: URL(fileURLWithPath: box.vaultPath))
    try FileManager.default.removeItem(atPath: box.vaultPath)
    try FileManager.default.copyItem(atPath: Self.folder + "/vault.db", toPath: box.vaultPath)
    chmod(box.vaultPath, 0o600)
    let old = box.vault(["get", "fixture/entry"], pin: ["2468"])
    XCTAssertEqual(old.status, 17)
    XCTAssertEqual(
      old.errorLines,
      [
        "vault: error: integrity failure: this is a format 1 copy of a vault this device has"
          + " already seen in format 2 (an old copy was put back); nothing was read"
      ])
    try migrated.write(to: URL(fileURLWithPath: box.vaultPath))
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vault(["get", "fixture/entry"], pin: ["2468"]).status, 0)
  }

  func testAnEnrollmentChangeIsStillDetected() throws {
    let box = try Self.makeBox()
    box.biosim(["enroll", "--label", "left-index"])
    box.biosim(["next", "match"])
    XCTAssertEqual(box.vault(["unlock"], pin: ["2468"]).status, 15)
  }

  /// Its recovery code, shown by release 0.1.0 as 32 symbols without a check group, still
  /// recovers, and so does the same code with the check group a new release computes for it.
  func testTheFirstReleasesRecoveryCodeStillRecoversWithOrWithoutACheckGroup() throws {
    let box = try Self.makeBox()
    let code = "KDSB-0TJP-X4FE-WZZT-H4G4-C98N-NB0P-TFVR"
    let old = box.vault(["recover"], pin: [code, "135799"])
    XCTAssertEqual(old.status, 0, old.stderrText)
    XCTAssertEqual(old.errorLines.first, "Upgraded the vault to format 2.")
    // Its check group, computed with Python's hashlib as vault(5) RECOVERY CODE says.
    let check = "TKBT"
    XCTAssertEqual(
      RecoveryCode.checkGroup(
        SecureBytes(copying: Array(code.utf8).filter { $0 != UInt8(ascii: "-") })),
      Array(check.utf8))
    let checked = box.vault(["recover"], pin: [code + "-" + check, "246800"])
    XCTAssertEqual(checked.status, 0, checked.stderrText)
    let typo = box.vault(["recover"], pin: [code + "-TKTB", "246800"])
    XCTAssertEqual(typo.status, 5, typo.stderrText)
  }

  /// The big entry of the 0.5.0 fixture: byte i is (7i + 3) mod 251.
  static let bigContent = (0..<1_258_291).map { UInt8(($0 * 7 + 3) % 251) }

  /// The chunk rule of the fixture's header, as stored (nil: whole rows, before 0.6.0).
  func chunkHash(_ box: Sandbox) -> String? {
    let read: [UInt8]? = box.tamper { try $0.headerBody() }
    guard let body = read,
      let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    else { return nil }
    return object["chunk_hash"] as? String
  }

  /// A vault of release 0.5.0 reads as it is, and its first write changes its chunks'
  /// aggregate to tag hashes and its header to `chunk_hash` "tag", with nothing lost.
  func testTheFirstWriteMovesAVaultOf050ToTagHashedChunks() throws {
    let box = try Self.makeBox(from: Self.release050)
    let pin = ["246810"]
    XCTAssertNil(chunkHash(box))
    let big = box.vault(["get", "big"], pin: pin)
    XCTAssertEqual(big.status, 0, big.stderrText)
    XCTAssertEqual(big.stdout, Self.bigContent)
    XCTAssertEqual(box.vault(["check"], pin: pin).status, 0)
    XCTAssertNil(chunkHash(box), "a read changes nothing")
    let generation = try XCTUnwrap(
      box.tamper { try $0.integer("SELECT max(generation) FROM states") })

    let added = box.vault(["add", "new"], stdin: Array("after 0.5.0\n".utf8), pin: pin)
    XCTAssertEqual(added.status, 0, added.stderrText)
    XCTAssertEqual(chunkHash(box), "tag")
    // The rule change is part of the add's write: one new state.
    XCTAssertEqual(
      box.tamper { try $0.integer("SELECT max(generation) FROM states") }, generation + 1)
    let check = box.vault(["check"], pin: pin)
    XCTAssertEqual(check.status, 0, check.stderrText)
    XCTAssertEqual(box.vault(["get", "big"], pin: pin).stdout, Self.bigContent)
    XCTAssertEqual(box.vault(["get", "small"], pin: pin).stdoutText, "second\n")
    XCTAssertEqual(box.vault(["get", "new"], pin: pin).stdoutText, "after 0.5.0\n")
    XCTAssertEqual(
      box.vault(["get", "small", "--revision", "1"], pin: pin).stdoutText, "first\n")
    XCTAssertEqual(
      box.vault(["journal", "list"], pin: pin).stdoutText.hasSuffix(
        " A journal entry from 0.5.0.\n"), true)
    // Later writes keep it: removing the big entry subtracts tag hashes.
    XCTAssertEqual(box.vault(["purge", "big"], pin: pin).status, 0)
    XCTAssertEqual(box.vault(["check"], pin: pin).status, 0)
    XCTAssertEqual(chunkHash(box), "tag")
  }

  /// A chunk changed in a vault of 0.5.0 is caught by the rule change: the write that would
  /// make it authenticated fails (exit 17) and nothing is written.
  func testAChangedChunkStopsTheRuleChangeAndNothingIsWritten() throws {
    let box = try Self.makeBox(from: Self.release050)
    let pin = ["246810"]
    let generation = try XCTUnwrap(
      box.tamper { try $0.integer("SELECT max(generation) FROM states") })
    box.tamper {
      try $0.replaceBlob(
        "SELECT box FROM chunks WHERE rowid = (SELECT max(rowid) FROM chunks)",
        "UPDATE chunks SET box = ? WHERE rowid = (SELECT max(rowid) FROM chunks)"
      ) { $0[100] ^= 1 }
    }
    let added = box.vault(["add", "new"], stdin: Array("after 0.5.0\n".utf8), pin: pin)
    XCTAssertEqual(added.status, 17, added.stderrText)
    XCTAssertEqual(
      added.errorLines,
      [
        "vault: error: integrity failure: the vault's content chunks are not the ones its state"
          + " authenticates (a chunk was changed, deleted, added or put back)"
      ])
    XCTAssertNil(chunkHash(box))
    XCTAssertEqual(
      box.tamper { try $0.integer("SELECT max(generation) FROM states") }, generation)
    XCTAssertEqual(box.vault(["get", "new"], pin: pin).status, 3)
  }

  /// Under the tag rule a chunk box too short to end in a tag is refused by `check`.
  func testACutChunkIsRefusedUnderTheTagRule() throws {
    let box = Sandbox()
    let session = box.pinOnlySession()
    XCTAssertEqual(box.vault(["add", "x"], stdin: Array("secret\n".utf8), env: session).status, 0)
    XCTAssertEqual(chunkHash(box), "tag")
    box.tamper { try $0.execute("UPDATE chunks SET box = substr(box, 1, 16)") }
    let check = box.vault(["check"], env: session)
    XCTAssertEqual(check.status, 17, check.stderrText)
    XCTAssertEqual(
      check.errorLines,
      [
        "vault: error: integrity failure: the vault's content chunks are not the ones its state"
          + " authenticates (a chunk was changed, deleted, added or put back)"
      ])
    // A write that would remove it cannot subtract its hash: it stops, exit 17.
    let removed = box.vault(["rm", "x"], env: session)
    XCTAssertEqual(removed.status, 0, "rm keeps the content in history")
    let purged = box.vault(["purge", "x"], env: session)
    XCTAssertEqual(purged.status, 17, purged.stderrText)
    XCTAssertEqual(
      purged.errorLines,
      ["vault: error: integrity failure: a content chunk of the vault is too short to be a box"])
  }
}
