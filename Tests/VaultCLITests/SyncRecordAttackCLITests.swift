import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultSync

/// Records that open under the master key but that `vault check` refuses, pushed by a device
/// that holds the key (third attack review, H1), are refused by the sync that receives them.
///
/// Taken, each made `vault check`, and so `vault rekey` and `vault sync revoke --rekey`, fail
/// with exit 17 on every device: the key holder could not be shut out. The attacking device is
/// A, played in this process with the library; the attacked one, B, runs `vault sync`.
final class SyncRecordAttackCLITests: XCTestCase {
  var pair: SyncPair!

  override func setUpWithError() throws {
    try TestTier.requireSystem("real git")
    pair = SyncPair()
    pair.inStep()
  }

  override func tearDown() { pair = nil }

  /// Writes `change` into A's vault in one write, with A's store, and pushes it with A's
  /// `vault sync`.
  private func forgeOnA(_ change: (Vault, SymmetricKey, EntryStore, StateWrite) throws -> Void)
    throws
  {
    let (vault, key) = try pair.openA()
    let store = EntryStore(vault: vault, masterKey: key)
    try vault.write(masterKey: key) { try change(vault, key, store, $0) }
    let pushed = pair.syncA()
    XCTAssertEqual(pushed.status, 0, pushed.stderrText)
  }

  /// B's sync is refused with `reason`, and B's vault still passes `vault check`.
  private func assertRefusedAtB(
    _ reason: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    pair.assertSyncBRefused(reason, file: file, line: line)
    let checked = pair.read(pair.b, ["check"])
    XCTAssertEqual(checked.status, 0, checked.stderrText, file: file, line: line)
  }

  func testARevisionLeftWithoutItsEntryIsRefused() throws {
    pair.add(pair.a, "mail/work", Array("second".utf8))
    XCTAssertEqual(pair.syncA().status, 0)
    XCTAssertEqual(pair.syncB().status, 0)
    try forgeOnA { _, _, store, write in
      try write.delete(try store.foundForWrite(try EntryName("mail/work"), write).row)
    }
    assertRefusedAtB("revision 1 of 'mail/work' belongs to no entry")
  }

  /// Takes out of the remote, as a key holder with push access would, the one file under
  /// `folder` that its last commit added, with a state file that sums the files left.
  private func removeFileTheLastCommitAdded(under folder: String) throws {
    let (vault, key) = try pair.openA()
    let codec = SyncFiles(vaultID: vault.vaultID, masterKey: key)
    let pair = self.pair!
    pair.tamperRemote { work in
      let added = pair.git(
        ["diff", "--name-only", "--diff-filter=A", "HEAD~1", "HEAD", "--", folder], in: work
      ).stdoutText.split(separator: "\n").map(String.init)
      XCTAssertEqual(added.count, 1)
      let path = try XCTUnwrap(added.first)
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: work + "/" + path)))
      try FileManager.default.removeItem(atPath: work + "/" + path)
      let stateURL = URL(fileURLWithPath: work + "/" + SyncFiles.statePath)
      var state = try SyncStateFile.open([UInt8](Data(contentsOf: stateURL)), codec: codec)
      var files = try XCTUnwrap(Aggregate(bytes: state.files))
      files.subtract(codec.hash(path: path, bytes: bytes))
      state.files = files.bytes
      try Data(try state.encoded(with: codec)).write(to: stateURL)
    }
  }

  /// An entry whose content file a key holder took out of the remote: the entry names chunks
  /// the vault does not hold.
  func testAnEntryWhoseContentIsMissingIsRefused() throws {
    pair.add(pair.a, "mail/work", Array("second".utf8))
    XCTAssertEqual(pair.syncA().status, 0)
    try removeFileTheLastCommitAdded(under: SyncFiles.contentsFolder)
    assertRefusedAtB("the content of 'mail/work' has missing or extra chunks")
  }

  /// Attack review: an edit whose kept revision a key holder took out of the remote.
  ///
  /// The receiving device replaced its version and kept the content only that version named, which
  /// `vault check` then refused ("content chunk(s) belong to no entry or revision").
  func testAnEditWithoutItsKeptRevisionIsRefused() throws {
    pair.add(pair.a, "mail/work", Array("second".utf8))
    XCTAssertEqual(pair.syncA().status, 0)
    try removeFileTheLastCommitAdded(under: SyncFiles.recordsFolder)
    let (vault, key) = try pair.openA()
    let recordID = try vault.write(masterKey: key) { write in
      try EntryStore(vault: vault, masterKey: key).foundForWrite(try EntryName("mail/work"), write)
        .row.recordID
    }
    let name = SyncFiles(vaultID: vault.vaultID, masterKey: key).recordName(recordID).prefix(8)
    assertRefusedAtB(
      "a content of record \(name) belongs to no entry or revision (a record that named it was"
        + " changed or removed without it)")
  }

  /// Attack review: an earlier, authentic version of an entry put back by a key holder.
  ///
  /// Pushed in a commit that descends from the last one (with a vector of its own), it was taken: the edit
  /// was gone from the entry and its history, and `vault check` failed on every device.
  func testAnEarlierVersionOfARecordPutBackIsRefused() throws {
    let (vault, key) = try pair.openA()
    let store = EntryStore(vault: vault, masterKey: key)
    let earlier = try vault.write(masterKey: key) {
      try store.foundForWrite(try EntryName("mail/work"), $0).row
    }
    pair.add(pair.b, "mail/work", Array("edited on B".utf8))
    XCTAssertEqual(pair.syncB().status, 0)
    XCTAssertEqual(pair.syncA().status, 0)
    let (current, currentKey) = try pair.openA()
    try current.write(masterKey: currentKey) { write in
      let found = try EntryStore(vault: current, masterKey: currentKey)
        .foundForWrite(try EntryName("mail/work"), write)
      XCTAssertEqual(found.row.revision, 2)
      try write.delete(found.row)
      var replayed = earlier
      replayed.rowid = nil
      try write.insert(replayed)
    }
    XCTAssertEqual(pair.syncA().status, 0)
    let name = SyncFiles(vaultID: vault.vaultID, masterKey: key).recordName(earlier.recordID)
    assertRefusedAtB(
      "it put back an earlier version of the record \(name.prefix(8)) (revision 1 after 2)")
    XCTAssertEqual(pair.read(pair.b, ["get", "mail/work"]).stdoutText, "edited on B")
  }

  /// `mail/work` at its next revision under the lookup of another name, pushed by A.
  private func forgeNameNotItsIndex() throws {
    try forgeOnA { _, _, store, write in
      let found = try store.foundForWrite(try EntryName("mail/work"), write)
      var moved = try store.sealEntry(
        found.body, recordID: found.row.recordID, revision: found.row.revision + 1,
        after: found.hlc)
      moved.lookup = store.lookup(try EntryName("bank"))
      try write.delete(found.row)
      try write.insert(moved)
    }
  }

  func testAnEntryUnderAnotherNamesLookupIsRefused() throws {
    try forgeNameNotItsIndex()
    assertRefusedAtB("the name index of 'mail/work' is damaged")
  }

  func testAJournalEntryWhoseSignatureFailsIsRefused() throws {
    try forgeOnA { vault, _, _, write in
      let entryID = SecureBytes.random(count: 16).unprotectedBytes
      let record = try SignedJournalRecord(
        vaultID: vault.vaultID, entryID: entryID,
        writerID: try XCTUnwrap(vault.localDevice).deviceIDBytes, sequence: 99, revision: 1,
        stamp: .local(1_700_000_000), text: SecureBytes(copying: Array("forged".utf8)))
      let publicKey = try [UInt8](
        base64: vault.header.journalPublicKey, count: 32, field: "journal_public_key")
      let box = record.encode(signingWith: Signing.generate()).withBytes {
        SealedBox.seal($0, to: publicKey)
      }
      try write.insert(
        RecordRow(
          recordID: entryID, lookup: nil, kind: RecordKind.journal.rawValue, revision: 1, box: box))
    }
    assertRefusedAtB("a journal entry's writer signature does not verify")
  }

  func testACounterOfNoEntryIsRefused() throws {
    let entryID = [UInt8](repeating: 0x3c, count: 16)
    try forgeOnA { vault, key, _, write in
      try OneTimeCodeCounters.store(
        .init(name: "hotp:" + entryID.hex + ":" + String(repeating: "0", count: 32), value: 7),
        replacing: nil, in: write, counters: WriterCounters(vault: vault, masterKey: key))
    }
    assertRefusedAtB("the one-time code counter of record 3c3c3c3c belongs to no entry")
  }

  func testARecordOfAnUnknownKindIsRefused() throws {
    let recordID = [0x7e] + [UInt8](repeating: 1, count: 15)
    var path = ""
    try forgeOnA { vault, key, _, write in
      let row = RecordRow(
        recordID: recordID, lookup: nil, kind: 42, revision: 1,
        box: [UInt8](repeating: 9, count: 200))
      path = SyncFiles(vaultID: vault.vaultID, masterKey: key).recordPath(row)
      try write.insert(row)
    }
    assertRefusedAtB("the sync file \(path) holds a record of a kind that is not synced (42)")
  }

  /// A clone verifies every record as `vault check` does: a new device does not take what a
  /// sync refuses, and leaves no vault file behind.
  func testACloneOfARemoteWithARecordTheCheckRefusesIsRefused() throws {
    try forgeNameNotItsIndex()
    let third = Sandbox()
    let cloned = third.vault(
      ["sync", "clone", pair.remote], pin: [pair.recoveryCode, SyncPair.pinB])
    XCTAssertEqual(cloned.status, 17, cloned.stderrText)
    XCTAssertEqual(
      cloned.errorLines.last,
      "vault: error: the sync remote was refused: the name index of 'mail/work' is damaged;"
        + " nothing was merged")
    XCTAssertFalse(FileManager.default.fileExists(atPath: third.vaultPath))
    XCTAssertFalse(FileManager.default.fileExists(atPath: third.vaultPath + ".sync"))
  }

  /// A remote whose branch was replaced by a commit that does not descend from the one B
  /// synced, though its state file (here the very one of the head, so its version vector and
  /// files pass) says nothing was lost: a fork, refused by git's ancestry, which no key forges.
  func testARemoteThatDoesNotDescendFromTheBaseIsRefused() throws {
    let base = pair.head
    pair.add(pair.a, "mail/home", Array("second".utf8))
    XCTAssertEqual(pair.syncA().status, 0)
    let tree = pair.git(["rev-parse", "vault^{tree}"]).stdoutText
      .trimmingCharacters(in: .newlines)
    let fork = pair.git(
      ["-c", "user.name=x", "-c", "user.email=x@x", "commit-tree", tree, "-m", "vault sync"]
    ).stdoutText.trimmingCharacters(in: .newlines)
    XCTAssertEqual(pair.git(["update-ref", "refs/heads/vault", fork]).status, 0)
    pair.assertSyncBRefused(
      "it is older than commit \(base.prefix(12)), which this device synced (the remote was rolled"
        + " back or forked)")
  }

  /// Re-check review: a HOTP counter's record removed while its entry stays: the counter would
  /// start again from the first value, and a code already used would be given again.
  func testACounterRemovedWithoutItsEntryIsRefused() throws {
    var counterID: [UInt8] = []
    try forgeOnA { vault, key, store, write in
      let entry = try store.foundForWrite(try EntryName("mail/work"), write).row.recordID
      let counters = WriterCounters(vault: vault, masterKey: key)
      let name = "hotp:" + entry.hex + ":" + String(repeating: "0", count: 32)
      try OneTimeCodeCounters.store(
        .init(name: name, value: 3), replacing: nil, in: write, counters: counters)
      counterID = counters.recordID(name)
    }
    XCTAssertEqual(pair.syncB().status, 0)
    var path = ""
    try forgeOnA { vault, key, _, write in
      let row = try XCTUnwrap(try write.unnamedRecord(counterID))
      path = SyncFiles(vaultID: vault.vaultID, masterKey: key).recordName(counterID)
      try write.delete(row)
    }
    assertRefusedAtB(
      "it removed the counter record \(path.prefix(8)) without its entry (a counter only grows)")
  }

  /// Re-check review: the rotation links of the state file's public part (what a device behind
  /// a rotation reads without the key) edited apart from the header: a device that took it
  /// passed it on, and the devices behind the next rotation were locked out.
  func testAStateFileWhosePublicPartIsNotItsHeadersIsRefused() throws {
    let (vault, key) = try pair.openA()
    let codec = SyncFiles(vaultID: vault.vaultID, masterKey: key)
    let deviceID = try XCTUnwrap(vault.localDevice).deviceID
    pair.tamperRemote { work in
      let url = URL(fileURLWithPath: work + "/" + SyncFiles.statePath)
      var state = try SyncStateFile.open([UInt8](Data(contentsOf: url)), codec: codec)
      let link = KeyHandoff(
        deviceID: deviceID, previous: KeyHandoff.commitment(key, vaultID: vault.vaultID).base64,
        next: [UInt8](repeating: 7, count: 32).base64,
        writerKey: [UInt8](repeating: 8, count: 32).base64,
        signature: [UInt8](repeating: 9, count: 64).base64,
        enrollmentKey: [UInt8](repeating: 10, count: 32).base64, authorization: nil)
      state.publicPart.handoff = SyncStateFile.Handoff(links: [link], masterBoxes: [])
      try Data(try state.encoded(with: codec)).write(to: url)
    }
    assertRefusedAtB(
      "its state file's public part is not its header's (the rotation links, the master boxes or"
        + " the recovery slot differ)")
  }
}
