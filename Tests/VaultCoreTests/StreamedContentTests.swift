import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// Streamed contents (`vault(5)` Streamed contents): the layout, its checks, and every path that
/// reads or seals a content again.
final class StreamedContentTests: XCTestCase {
  var home: TemporaryHome!
  var environment: VaultEnvironment!

  override func setUp() {
    home = TemporaryHome()
    environment = home.environment()
  }

  override func tearDown() { home = nil }

  func makeStore() throws -> (vault: Vault, store: EntryStore) {
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinOnly,
      environment: environment)
    return (created.vault, EntryStore(vault: created.vault, masterKey: created.masterKey))
  }

  /// `count` bytes of a fixed pattern (not all zero, so padding mistakes show).
  func pattern(_ count: Int, seed: UInt8 = 7) -> SecureBytes {
    let out = SecureBytes(count: count)
    out.withMutableBytes { buffer in
      for index in 0..<count { buffer[index] = UInt8(truncatingIfNeeded: index &* 31) ^ seed }
    }
    return out
  }

  /// The whole content of `name`, from its pieces.
  func streamed(_ store: EntryStore, _ name: String) throws -> (SecureBytes, pieces: Int) {
    let entry = try EntryName(name)
    let metadata = try XCTUnwrap(try store.metadata(entry))
    let out = SecureBytes(count: metadata.length)
    var filled = 0
    var pieces = 0
    try store.stream(entry, revision: nil, expecting: metadata) { piece in
      XCTAssertLessThanOrEqual(piece.count, EntryStore.chunkSize)
      out.withMutableBytes {
        $0.baseAddress!.advanced(by: filled).copyMemory(
          from: piece.baseAddress!, byteCount: piece.count)
      }
      filled += piece.count
      pieces += 1
    }
    XCTAssertEqual(filled, metadata.length)
    return (out, pieces)
  }

  func testALargeContentIsOneStreamReadBackPieceByPiece() throws {
    let (_, store) = try makeStore()
    let length = EntryStore.streamThreshold + 12_345
    let content = pattern(length)
    try store.put(try EntryName("big"), content: content, overwrite: false, guarded: false)
    let metadata = try XCTUnwrap(try store.metadata(try EntryName("big")))
    XCTAssertTrue(metadata.streamed)
    XCTAssertTrue(metadata.isLarge)
    XCTAssertEqual(metadata.length, length)
    // pad(1061121) = 1081344 (a multiple of 2^15): 16 chunks of 64 KiB and one of 32768.
    XCTAssertEqual(Padding.paddedLength(length), 1_081_344)
    XCTAssertEqual(metadata.chunks, 17)
    let (read, pieces) = try streamed(store, "big")
    XCTAssertTrue(read == content)
    XCTAssertEqual(pieces, 17)
    XCTAssertThrowsError(try store.get(try EntryName("big"))) {
      XCTAssertEqual(VaultError($0), .tooLarge(name: "big", length: length))
    }
    let stored = try store.db.query("SELECT length(box) FROM chunks ORDER BY idx").map {
      $0[0].integer ?? 0
    }
    // The first box carries the 24-byte stream header; each adds 17 bytes to its piece.
    XCTAssertEqual(stored.first, 24 + 65_536 + 17)
    XCTAssertEqual(stored[1], 65_536 + 17)
    XCTAssertEqual(stored.last, 32_768 + 17)
    XCTAssertEqual(try store.verifyAll().chunks, 17)
  }

  func testANewVaultHasSixteenKiBPages() throws {
    let (_, store) = try makeStore()
    XCTAssertEqual(try store.db.query("PRAGMA page_size").first?.first?.integer, 16384)
  }

  func testAStreamedSourceIsSealedAsItIsRead() throws {
    let (_, store) = try makeStore()
    let whole = pattern(3 * EntryStore.streamThreshold + 5, seed: 3)
    let prefix = whole.prefix(EntryStore.streamThreshold + 1)
    var offset = prefix.count
    var reads = 0
    try store.put(
      try EntryName("stdin"),
      source: .streamed(
        prefix: prefix,
        read: { buffer in
          reads += 1
          let n = min(buffer.count, 40_000, whole.count - offset)
          whole.withBytes {
            buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: n)
          }
          offset += n
          return n
        }), overwrite: false, guarded: false)
    XCTAssertEqual(reads, 54)  // 2097156 bytes in reads of 40000, and the read that ends
    let (read, _) = try streamed(store, "stdin")
    XCTAssertTrue(read == whole)
  }

  func testASourceReadInsideTheWriteIsSealedTheSame() throws {
    let (_, store) = try makeStore()
    let whole = pattern(EntryStore.streamThreshold + 70_001, seed: 5)
    var offset = EntryStore.streamThreshold + 1
    try store.put(
      try EntryName("file"),
      source: .streamedInWrite(
        prefix: whole.prefix(offset),
        read: { buffer in
          let n = min(buffer.count, whole.count - offset)
          whole.withBytes {
            if let to = buffer.baseAddress, let from = $0.baseAddress {
              to.copyMemory(from: from + offset, byteCount: n)
            }
          }
          offset += n
          return n
        }), overwrite: false, guarded: false)
    XCTAssertTrue(try streamed(store, "file").0 == whole)
    XCTAssertEqual(try store.verifyAll().entries, 1)
  }

  func testAStreamedSourceMustStartBeyondTheThreshold() throws {
    let (_, store) = try makeStore()
    XCTAssertThrowsError(
      try store.put(
        try EntryName("small"), source: .streamed(prefix: pattern(10), read: { _ in 0 }),
        overwrite: false, guarded: false)
    ) {
      XCTAssertEqual(VaultError($0), .invalidInput(.streamedContentStartsShort))
    }
    XCTAssertNil(try store.metadata(try EntryName("small")))
  }

  func testASourceThatFailsWritesNothing() throws {
    let (_, store) = try makeStore()
    try store.put(try EntryName("keep"), content: secure("kept"), overwrite: false, guarded: false)
    let before = try store.db.query("SELECT count(*) FROM chunks").first?.first?.integer
    XCTAssertThrowsError(
      try store.put(
        try EntryName("big"),
        source: .streamed(
          prefix: pattern(EntryStore.streamThreshold + 1),
          read: { _ in throw VaultError.storage(.file(.read, path: "-", errno: EIO)) }),
        overwrite: false, guarded: false)
    ) { XCTAssertEqual(VaultError($0), .storage(.file(.read, path: "-", errno: EIO))) }
    XCTAssertEqual(try store.db.query("SELECT count(*) FROM chunks").first?.first?.integer, before)
    XCTAssertNil(try store.metadata(try EntryName("big")))
    XCTAssertEqual(try store.verifyAll().entries, 1)
  }

  func testATruncatedOrReorderedStreamIsAnIntegrityFailure() throws {
    let (_, store) = try makeStore()
    let content = pattern(2 * EntryStore.streamThreshold)
    try store.put(try EntryName("big"), content: content, overwrite: false, guarded: false)
    let tamperer = try VaultFileTamperer(path: home.vaultPath)
    let count = try XCTUnwrap(try store.metadata(try EntryName("big"))).chunks
    // The last chunk dropped: the count no longer matches.
    try tamperer.execute("DELETE FROM chunks WHERE idx = \(count - 1)")
    XCTAssertThrowsError(try streamed(store, "big")) {
      XCTAssertEqual(
        VaultError($0), .integrity(.content(name: "big", .missingOrExtraChunks)))
    }
  }

  func testSwappedChunksFailAuthentication() throws {
    let (_, store) = try makeStore()
    try store.put(
      try EntryName("big"), content: pattern(2 * EntryStore.streamThreshold), overwrite: false,
      guarded: false)
    let tamperer = try VaultFileTamperer(path: home.vaultPath)
    try tamperer.execute("UPDATE chunks SET idx = 100 WHERE idx = 2")
    try tamperer.execute("UPDATE chunks SET idx = 2 WHERE idx = 3")
    try tamperer.execute("UPDATE chunks SET idx = 3 WHERE idx = 100")
    var delivered = 0
    XCTAssertThrowsError(
      try store.stream(
        try EntryName("big"), revision: nil,
        expecting: try XCTUnwrap(try store.metadata(try EntryName("big")))
      ) { delivered += $0.count }
    ) {
      XCTAssertEqual(
        VaultError($0), .integrity(.sealed(object: "the content of 'big'", .failedAuthentication)))
    }
    XCTAssertEqual(delivered, 2 * EntryStore.chunkSize, "pieces 0 and 1 opened before the swap")
  }

  /// A stream whose first message is tagged final, sealed with the vault's own key: the chunk
  /// count matches and every message opens, so only the tag check finds the early end.
  func testAnEarlyFinalTagIsAnIntegrityFailure() throws {
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinOnly,
      environment: environment)
    let store = EntryStore(vault: created.vault, masterKey: created.masterKey)
    let length = EntryStore.streamThreshold + 1
    try store.put(try EntryName("big"), content: pattern(length), overwrite: false, guarded: false)
    let metadata = try XCTUnwrap(try store.metadata(try EntryName("big")))
    let recordID = try XCTUnwrap(
      try store.db.query("SELECT DISTINCT record_id FROM chunks").first?.first?.blob)
    let boxes = RecordBox(vaultID: created.vault.vaultID, masterKey: created.masterKey)
    let (stream, header) = SecretStream.pushing(key: boxes.streamKey)
    let piece = [UInt8](repeating: 0, count: EntryStore.chunkSize)
    let contentID = try XCTUnwrap(metadata.contentID)
    let forged = piece.withUnsafeBytes {
      header
        + stream.push(
          $0,
          associatedData: boxes.streamAD(
            recordID: recordID, revision: metadata.contentRevision, index: 0,
            contentID: contentID),
          final: true)
    }
    try VaultFileTamperer(path: home.vaultPath).execute(
      "UPDATE chunks SET box = ? WHERE idx = 0", [.blob(forged)])
    XCTAssertThrowsError(try streamed(store, "big")) {
      XCTAssertEqual(
        VaultError($0), .integrity(.content(name: "big", .cutShortOrRunsPastEnd)))
    }
  }

  /// The chunks a rolled-back write sealed (a crash at its commit, a full disk), captured from
  /// the file and put back in place of a later write at the same record id and content
  /// revision: the content id of the later write refuses them, small content or stream.
  func testChunksOfARolledBackWriteDoNotOpenAsALaterOne() throws {
    for (name, first, draft, final) in [
      ("small", secure("old-password"), secure("typo-password"), secure("new-password!")),
      (
        "big", pattern(EntryStore.streamThreshold + 9, seed: 1),
        pattern(EntryStore.streamThreshold + 9, seed: 2),
        pattern(EntryStore.streamThreshold + 9, seed: 3)
      ),
    ] {
      home = TemporaryHome()
      environment = home.environment()
      let (vault, store) = try makeStore()
      let entry = try EntryName(name)
      try store.put(entry, content: first, overwrite: false, guarded: false)
      struct RolledBack: Error {}
      var captured: [[SQLiteDatabase.Value]] = []
      XCTAssertThrowsError(
        try vault.write(masterKey: store.masterKey) { write in
          try store.put(entry, content: draft, overwrite: true, guarded: false, in: write)
          captured = try store.db.query(
            "SELECT \(ChunkRow.selectColumns) FROM chunks WHERE revision = 2")
          throw RolledBack()
        })
      try store.put(entry, content: final, overwrite: true, guarded: false)
      let recordID = try XCTUnwrap(captured.first?[0].blob)
      let tamperer = try VaultFileTamperer(path: home.vaultPath)
      try tamperer.execute(
        "DELETE FROM chunks WHERE record_id = ? AND revision = 2", [.blob(recordID)])
      for row in captured {
        try tamperer.execute(
          "INSERT INTO chunks (record_id, revision, idx, box) VALUES (?, ?, ?, ?)",
          row.map { value -> VaultFileTamperer.Value in
            if let blob = value.blob { return .blob(blob) }
            return .integer(value.integer ?? 0)
          })
      }
      XCTAssertThrowsError(try streamed(store, name)) {
        XCTAssertEqual(
          VaultError($0),
          .integrity(.sealed(object: "the content of '\(name)'", .failedAuthentication)))
      }
    }
  }

  /// A content of more than the threshold in the chunk-box layout (as releases before 0.5.0 wrote
  /// it) streams too, and is refused whole like a stream.
  func testALargeContentInTheOlderLayoutStreams() throws {
    let (vault, store) = try makeStore()
    let content = pattern(EntryStore.streamThreshold + 70_000, seed: 9)
    let recordID = SecureBytes.random(count: 16).unprotectedBytes
    try vault.write(masterKey: store.masterKey) { write in
      for chunk in store.boxes.sealChunks(
        content, recordID: recordID, revision: 1, chunkSize: EntryStore.chunkSize,
        contentID: nil)
      {
        try write.insert(chunk)
      }
      try store.writeEntry(
        EntryStore.Body(
          name: "old", created: "2026-01-01T00:00:00Z", updated: "2026-01-01T00:00:00Z",
          guarded: false, length: content.count, contentRevision: 1),
        recordID: recordID, revision: 1, replacing: nil, in: write)
    }
    let metadata = try XCTUnwrap(try store.metadata(try EntryName("old")))
    XCTAssertFalse(metadata.streamed)
    XCTAssertTrue(metadata.isLarge)
    XCTAssertTrue(try streamed(store, "old").0 == content)
    XCTAssertThrowsError(try store.get(try EntryName("old"))) {
      XCTAssertEqual(VaultError($0), .tooLarge(name: "old", length: content.count))
    }
  }

  func testHistoryRenameOntoAndRotationKeepAStreamExact() throws {
    let (vault, store) = try makeStore()
    let first = pattern(EntryStore.streamThreshold + 3, seed: 1)
    let second = pattern(EntryStore.streamThreshold + 4, seed: 2)
    try store.put(try EntryName("a"), content: first, overwrite: false, guarded: false)
    try store.put(try EntryName("a"), content: second, overwrite: true, guarded: false)
    try store.put(try EntryName("b"), content: secure("small"), overwrite: false, guarded: false)
    // b takes a's versions into its history, each stream sealed again under b's record id.
    try store.move(try EntryName("b"), to: try EntryName("a"), overwrite: true)
    let name = try EntryName("a")
    let large = try store.history(name).filter { ($0.length ?? 0) > EntryStore.streamThreshold }
    // Newest first.
    XCTAssertEqual(large.map(\.length), [second.count, first.count])
    for (version, expected) in zip(large, [second, first]) {
      let metadata = try vault.reading(masterKey: store.masterKey) {
        try store.version(name, revision: version.revision, in: $0).metadata
      }
      XCTAssertTrue(metadata.streamed)
      let out = SecureBytes(count: metadata.length)
      var filled = 0
      try store.stream(name, revision: version.revision, expecting: metadata) { piece in
        out.withMutableBytes {
          $0.baseAddress!.advanced(by: filled).copyMemory(
            from: piece.baseAddress!, byteCount: piece.count)
        }
        filled += piece.count
      }
      XCTAssertTrue(out == expected)
    }
    let verified = try store.verifyAll()
    let recovery = RecoveryCode.generate()
    let rotated = try vault.rekey(
      masterKey: store.masterKey, recoveryCode: recovery)
    let after = EntryStore(vault: vault, masterKey: rotated.masterKey)
    XCTAssertEqual(rotated.chunks, verified.chunks)
    XCTAssertEqual(try after.verifyAll(), verified)
    XCTAssertTrue(try after.get(try EntryName("a")).content == secure("small"))
  }
}
