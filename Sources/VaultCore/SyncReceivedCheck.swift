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
  /// - Throws: `VaultError.integrity` naming the first record that fails (the caller reports
  ///   it as a refused remote, and the write rolls back).
  func checkReceived(_ incoming: IncomingCommit, in write: StateWrite) throws {
    var touched = Set<[UInt8]>()
    var removedOwners = Set<[UInt8]>()
    for change in incoming.records.values {
      if let old = change.old?.row {
        touched.insert(old.recordID)
        let kind = RecordKind(rawValue: old.kind)
        if kind == .entry || kind == .tombstone { removedOwners.insert(old.recordID) }
      }
      if let new = change.new?.row { touched.insert(new.recordID) }
    }
    var rows: [RecordRow] = []
    for bucket in try buckets(holding: touched) {
      rows += try write.rows(inBucket: bucket).filter { touched.contains($0.recordID) }
    }
    var contents: [ContentVersion: VerifiedRecord.NamedContent] = [:]
    var owned: [(recordID: [UInt8], orphan: String)] = []
    for row in rows {
      let record = try store.verifyRecord(row)
      if record.kind == .sync {
        throw VaultError.integrity(
          "the record \(codec.recordName(row.recordID).prefix(8)) is a device's own sync record,"
            + " which no device pushes")
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
