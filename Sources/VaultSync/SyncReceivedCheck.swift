import VaultFormat
import VaultJournal

extension VaultSync {
  /// Verifies, inside the merge's write and before it commits, every record the remote changed
  /// as `vault check` verifies it (`vault(5)` Merging): each row now stored under a record id
  /// the remote added, changed or removed opens as its kind, an entry's or tombstone's lookup is
  /// its name's, a kept revision and a HOTP counter have their entry, every content they name
  /// reads whole, a journal entry's signature verifies against the merged header's writers,
  /// and a record the remote removed (a purge) leaves no revision or counter without its entry.
  ///
  /// A device that holds the master key can seal records that open but that `vault check`
  /// refuses; taken, they would make `vault check` and `vault rekey` fail on every device.
  /// The cost is that of the change: only the buckets of the records received are read (and
  /// every bucket's counters when the remote purged an entry).
  ///
  /// - Returns: a line for each entry the remote purged (`vault purge`, its tombstone marked
  ///   purged), so that a purge never passes unseen.
  /// - Throws: `SyncError.refused` naming the first record that fails a check of the sync's
  ///   own, `VaultError.integrity` for one that fails a check of `vault check`'s (the caller
  ///   reports it as a refused remote); the write rolls back.
  func checkReceived(_ incoming: IncomingCommit, in write: StateWrite) throws -> [SyncNote] {
    var touched = Set<[UInt8]>()
    var removedOwners = Set<[UInt8]>()
    for change in incoming.records.values {
      if let old = change.old?.row {
        touched.insert(old.recordID)
        let kind = RecordKind(rawValue: old.kind)
        if kind == .entry || kind == .tombstone { removedOwners.insert(old.recordID) }
        if let new = change.new?.row, new.recordID == old.recordID, !new.isStored(as: old) {
          try checkForward(from: old, to: new)
        }
      }
      if let new = change.new?.row { touched.insert(new.recordID) }
    }
    var rows: [RecordRow] = []
    for bucket in try buckets(holding: touched) {
      rows += try write.rows(inBucket: bucket).filter { touched.contains($0.recordID) }
    }
    var contents: [ContentVersion: VerifiedRecord.NamedContent] = [:]
    var owned: [(recordID: [UInt8], orphan: Damage)] = []
    for row in rows {
      let record = try store.verifyRecord(row)
      if record.kind == .sync {
        throw SyncError.refused(.syncRecordPushed(record: codec.recordName(row.recordID)))
      }
      if record.isOwner { removedOwners.remove(row.recordID) }
      if let content = record.content { contents[content.version] = content }
      if let owner = record.owner { owned.append(owner) }
    }
    let header = try Header.parse(write.headerBody)
    _ = try JournalStore(vault: vault, masterKey: masterKey, header: header).folded(rows)
    for owner in owned where try !hasOwner(owner.recordID, in: write) {
      throw VaultError.integrity(owner.orphan)
    }
    for content in contents.values { _ = try store.verifyContent(content) }
    for entryID in removedOwners.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      try checkPurged(entryID, in: write)
    }
    // A counter goes only with its entry (a purge, or a rename onto it that moves it): one
    // removed otherwise would start again from its first value (a HOTP code used again).
    let counters = WriterCounters(vault: vault, masterKey: masterKey)
    for change in incoming.records.values
    where change.new == nil && change.old?.row.kind == RecordKind.counter.rawValue {
      guard let old = change.old?.row else { continue }
      let parts = OneTimeCodeCounters.parts(of: try counters.open(old).name)
      if try parts.map({ try hasOwner($0.entryID, in: write) }) ?? true {
        throw SyncError.refused(.counterRemoved(record: codec.recordName(old.recordID)))
      }
    }
    // A content the remote's earlier version of a record named, left with no record naming it
    // (the record replaced or removed without its content file).
    for change in incoming.records.values {
      guard let old = change.old?.row else { continue }
      for (_, place) in try self.contents(of: old)
      where try !chunkBoxes(place.recordID, revision: place.revision).isEmpty
        && !isReferenced(place, in: write)
      {
        throw SyncError.refused(.contentOrphaned(record: codec.recordName(old.recordID)))
      }
    }
    return try purgeNotes(incoming)
  }

  /// A note for each purge the remote made (a tombstone marked purged since the base), in the
  /// order of the names.
  private func purgeNotes(_ incoming: IncomingCommit) throws -> [SyncNote] {
    var purged: [String] = []
    for change in incoming.records.values {
      guard let new = change.new?.row, new.kind == RecordKind.tombstone.rawValue,
        let body = try? store.openTombstone(new).body, body.purged == true
      else { continue }
      if let old = change.old?.row, old.kind == RecordKind.tombstone.rawValue,
        (try? store.openTombstone(old).body.purged) == true
      {
        continue
      }
      purged.append(body.name)
    }
    // Sorted as the lines `purged: NAME: …` sort: by the name and the colon after it.
    return purged.sorted { $0 + ":" < $1 + ":" }.map { .purgedElsewhere(name: $0) }
  }

  /// Refuses a change of one record, from the remote's base version `old` to `new`, that does
  /// not move it forward.
  ///
  /// Every command that changes an entry, a tombstone, the settings or a journal entry gives it
  /// its next revision, a kept revision never changes, and a counter only grows. A device that
  /// holds the master key could otherwise put back an older, authentic version of a record (a
  /// replay), which the per-record checks accept.
  private func checkForward(from old: RecordRow, to new: RecordRow) throws {
    let name = codec.recordName(old.recordID)
    switch RecordKind(rawValue: new.kind) {
    case .revision:
      throw SyncError.refused(.revisionChanged(record: name))
    case .counter:
      let counters = WriterCounters(vault: vault, masterKey: masterKey)
      guard try counters.open(new).value >= counters.open(old).value else {
        throw SyncError.refused(.counterLowered(record: name))
      }
    default:
      guard new.revision > old.revision else {
        throw SyncError.refused(
          .earlierRevision(record: name, revision: new.revision, after: old.revision))
      }
    }
  }

  /// The buckets whose rows may hold `recordIDs` now.
  ///
  /// Each id's own (a kept revision's, a journal entry's, a counter's), and the bucket of the
  /// stored lookup of each (an entry's or tombstone's, which follows its name). The rows read
  /// from them are verified by the write.
  private func buckets(holding recordIDs: Set<[UInt8]>) throws -> [Int] {
    var buckets = Set<Int>()
    for recordID in recordIDs {
      buckets.insert(Int(recordID[0]))
      if let lookup = try vault.db.query(
        "SELECT lookup FROM records WHERE record_id = ?", [.blob(recordID)]
      ).first?.first?.blob, let first = lookup.first {
        buckets.insert(Int(first))
      }
    }
    return buckets.sorted()
  }

  /// True when the vault holds the entry or tombstone record `recordID`, in its verified bucket.
  private func hasOwner(_ recordID: [UInt8], in write: StateWrite) throws -> Bool {
    try buckets(holding: [recordID]).contains { bucket in
      try write.rows(inBucket: bucket).contains {
        $0.recordID == recordID
          && ($0.kind == RecordKind.entry.rawValue || $0.kind == RecordKind.tombstone.rawValue)
      }
    }
  }

  /// Refuses a purge of `entryID` that left one of its kept revisions or counters behind.
  private func checkPurged(_ entryID: [UInt8], in write: StateWrite) throws {
    if let kept = try store.revisions(of: entryID, in: write.rows(inBucket: Int(entryID[0])))
      .first
    {
      throw VaultError.integrity(VerifiedRecord.orphan(kept))
    }
    let counters = WriterCounters(vault: vault, masterKey: masterKey)
    if try !OneTimeCodeCounters.rows(of: entryID, in: write, counters: counters).isEmpty {
      throw VaultError.integrity(VerifiedRecord.orphanCounter(of: entryID))
    }
  }
}
