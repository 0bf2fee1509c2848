import VaultCrypto

/// What one record needs of the others, found when it was verified on its own.
///
/// `vault check` verifies every record with `EntryStore.verifyRecord` and then what each needs;
/// a sync verifies the same way only the records it received (`VaultSync.checkReceived`).
package struct VerifiedRecord {
  /// A content version, the metadata that names it and the entry name to report.
  package typealias NamedContent = (version: ContentVersion, metadata: EntryMetadata, name: String)

  /// The record's kind (never `nil`: an unknown kind does not verify).
  package var kind: RecordKind
  /// The content an entry or a kept revision names: its place, its metadata and the name to
  /// report.
  package var content: NamedContent?
  /// The entry (or tombstone) record this one belongs to, and the failure to report when the
  /// vault has none: a kept revision's, a HOTP counter's.
  package var owner: (recordID: [UInt8], orphan: Damage)?

  /// True for the records that own others: entries and tombstones.
  package var isOwner: Bool { kind == .entry || kind == .tombstone }

  /// The failure of `kept`, a kept revision whose entry the vault does not hold.
  package static func orphan(_ kept: EntryStore.KeptRevision) -> Damage {
    .record(.orphanRevision(name: kept.metadata.name, revision: kept.entryRevision))
  }

  /// The failure of a HOTP counter of `entryID`, an entry the vault does not hold.
  package static func orphanCounter(of entryID: [UInt8]) -> Damage {
    .record(.orphanCounter(entryID: entryID))
  }
}

extension EntryStore {
  /// Verifies `row` on its own, as `vault check` does.
  ///
  /// Its box opens as its kind under the vault's key, its body is well formed, and an entry's
  /// or a tombstone's `lookup` is its name's. A journal row is only classified (its signature is
  /// `JournalStore`'s to verify).
  ///
  /// - Returns: what it needs of other records, for the caller to check.
  /// - Throws: `VaultError.integrity` naming the record.
  package func verifyRecord(_ row: RecordRow) throws -> VerifiedRecord {
    func checkIndex(_ name: String) throws {
      let expected = lookup(try EntryName(name))
      guard let stored = row.lookup, constantTimeEqual(stored, expected) else {
        throw VaultError.integrity(.record(.nameIndex(name: name)))
      }
    }
    guard let kind = RecordKind(rawValue: row.kind) else {
      throw VaultError.integrity(.record(.unknownKind(row.kind)))
    }
    var verified = VerifiedRecord(kind: kind)
    switch kind {
    case .entry:
      let found = try open(row)
      try checkIndex(found.metadata.name)
      verified.content = (
        ContentVersion(recordID: row.recordID, revision: found.metadata.contentRevision),
        found.metadata, found.metadata.name
      )
    case .tombstone:
      try checkIndex(try openTombstone(row).body.name)
    case .revision:
      let kept = try openRevision(row)
      let metadata = kept.metadata
      verified.content = (
        ContentVersion(recordID: kept.entryID, revision: metadata.contentRevision), metadata,
        metadata.name
      )
      verified.owner = (kept.entryID, VerifiedRecord.orphan(kept))
    case .settings:
      _ = try openSettings(row)
    case .counter:
      let counter = try WriterCounters(vault: vault, masterKey: masterKey).open(row)
      if let parts = OneTimeCodeCounters.parts(of: counter.name) {
        verified.owner = (parts.entryID, VerifiedRecord.orphanCounter(of: parts.entryID))
      } else if !counter.name.hasPrefix(WriterCounters.name(writer: "")) {
        throw VaultError.integrity(.record(.counterOfUnknownName(recordID: row.recordID)))
      }
    case .sync:
      let opened = try boxes.open(row, kind: .sync, what: "a sync record")
      _ = try SyncRecord(decoding: opened.body)
    case .journal: break
    }
    return verified
  }

  /// Reads every chunk of the content `version` names, so a missing, extra or damaged piece
  /// is found.
  ///
  /// - Returns: how many chunks it has.
  /// - Throws: `VaultError.integrity` naming the entry.
  package func verifyContent(_ content: VerifiedRecord.NamedContent) throws -> Int {
    try streamContent(
      of: content.metadata, recordID: content.version.recordID, name: content.name
    ) { _ in }
    return content.metadata.chunks
  }

  /// Opens every record by its row, not through the name index, and checks each named row's
  /// index, each revision's entry and the content of every version, so a damaged index is
  /// reported rather than read as a missing entry.
  ///
  /// - Returns: the counts of what was verified.
  /// - Throws: `VaultError.integrity` at the first damaged row, naming it.
  public func verifyAll() throws -> VerifiedRecords {
    try vault.reading(masterKey: masterKey) { snapshot in
      let rows = try snapshot.allRows(db: db, rowKey: rowKey)
      try snapshot.verifyChunks(db: db, rowKey: rowKey)
      var verified = VerifiedRecords()
      // Each content version (record id and content revision) once.
      var contents: [ContentVersion: VerifiedRecord.NamedContent] = [:]
      var owners = Set<[UInt8]>()
      var owned: [(recordID: [UInt8], orphan: Damage)] = []
      for row in rows {
        let record = try verifyRecord(row)
        switch record.kind {
        case .entry: verified.entries += 1
        case .tombstone: verified.tombstones += 1
        case .revision: verified.revisions += 1
        case .settings: verified.settings += 1
        case .sync: verified.syncRecords += 1
        case .counter, .journal: break
        }
        if record.isOwner { owners.insert(row.recordID) }
        if let content = record.content { contents[content.version] = content }
        if let owner = record.owner { owned.append(owner) }
      }
      for owner in owned where !owners.contains(owner.recordID) {
        throw VaultError.integrity(owner.orphan)
      }
      for content in contents.values { verified.chunks += try verifyContent(content) }
      let stored = try db.query("SELECT count(*) FROM chunks").first?.first?.integer ?? 0
      guard stored == Int64(verified.chunks) else {
        throw VaultError.integrity(
          .record(.orphanChunks(count: stored - Int64(verified.chunks))))
      }
      return verified
    }
  }
}
