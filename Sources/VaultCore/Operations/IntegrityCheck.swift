import VaultCrypto
import VaultFormat
import VaultJournal

/// What `vault check` verified.
public struct IntegrityReport: Equatable, Sendable {
  /// Ordinary entries whose metadata and every chunk opened.
  public var entries: Int
  /// Kept revisions of entries whose body and content opened.
  public var revisions: Int = 0
  /// Tombstones of removed entries.
  public var removed: Int = 0
  /// Journal entries whose sealed box opened, whose binding matched and whose writer's
  /// signature verified.
  public var journal: Int
  /// Content chunks verified.
  public var chunks: Int
  /// The generation of the state verified.
  public var generation: Int64
  /// Per writer (hex device id), the journal sequence numbers never received.
  ///
  /// Entries removed from the file before they were folded, or writes killed before they were
  /// stored. Reported, not refused: a crash leaves them too.
  public var missing: [(writer: String, ranges: [ClosedRange<UInt64>])] = []

  /// Equal when every count, the generation and every gap are.
  public static func == (lhs: IntegrityReport, rhs: IntegrityReport) -> Bool {
    (lhs.entries, lhs.revisions, lhs.removed, lhs.journal, lhs.chunks, lhs.generation)
      == (rhs.entries, rhs.revisions, rhs.removed, rhs.journal, rhs.chunks, rhs.generation)
      && lhs.missing.map(\.writer) == rhs.missing.map(\.writer)
      && lhs.missing.map(\.ranges) == rhs.missing.map(\.ranges)
  }
}

/// Opens every record of an unlocked vault, so damage is found now rather than at the next read.
///
/// The header MAC and the state were verified by the unlock. SQLite's `integrity_check`, the
/// aggregate of every bucket and of the chunks against the state, every entry's metadata and
/// chunks, every journal entry and its signature, every counter, the pending journal rows, and
/// the shape of the tables (no row of a kind this format does not write, no row left over) are
/// checked.
public enum IntegrityCheck {
  /// Verifies the whole vault with `masterKey`.
  ///
  /// - Throws: `VaultError.integrity` at the first record that fails, naming it.
  ///
  /// - Parameter refusingPending: false to let pending journal rows no authorized writer signed
  ///   pass (a rotation carries them over, still refused by `check`).
  public static func verify(
    _ vault: Vault, masterKey: SymmetricKey, refusingPending: Bool = true
  ) throws -> IntegrityReport {
    // SQLite's own check first: damaged pages, and indexes that disagree with their tables (a
    // name index that no longer finds an entry).
    let structure = try vault.db.query("PRAGMA integrity_check").compactMap { $0.first?.string }
    guard structure == ["ok"] else {
      throw VaultError.integrity(.tables(.structure(findings: structure)))
    }
    let written = RecordKind.allCases.map(\.rawValue)
    let kinds = try vault.db.query(
      "SELECT count(*) FROM records WHERE kind IS NULL OR kind NOT IN ("
        + written.map { _ in "?" }.joined(separator: ", ") + ")", written.map { .integer($0) })
    if let unknown = kinds.first?.first?.integer, unknown > 0 {
      throw VaultError.integrity(.tables(.unwrittenKinds(count: unknown)))
    }
    let verified = try EntryStore(vault: vault, masterKey: masterKey).verifyAll()
    let journal = try JournalStore(vault: vault, masterKey: masterKey)
    let contents = try journal.contents()
    if refusingPending, let refused = contents.unverified.first {
      throw VaultError.integrity(
        .pendingJournalEntryRefused(
          hexID: refused.hexID, reason: refused.reason, others: contents.unverified.count - 1))
    }
    let folded = contents.entries.filter { !$0.pending }.count
    let counters =
      try vault.db.query(
        "SELECT count(*) FROM records WHERE kind = ?", [.integer(RecordKind.counter.rawValue)]
      ).first?.first?.integer ?? 0
    // Every row is a record of a kind that opened: nothing vanishes unseen.
    let rows = try vault.db.query("SELECT count(*) FROM records").first?.first?.integer ?? 0
    let accounted =
      Int64(
        verified.entries + verified.tombstones + verified.revisions + verified.settings
          + verified.syncRecords + folded)
      + counters
    guard rows == accounted else {
      throw VaultError.integrity(.tables(.unaccountedRows(count: rows - accounted)))
    }
    return IntegrityReport(
      entries: verified.entries, revisions: verified.revisions, removed: verified.tombstones,
      journal: contents.entries.count, chunks: verified.chunks,
      generation: vault.stateGeneration ?? 0, missing: contents.missing)
  }
}
