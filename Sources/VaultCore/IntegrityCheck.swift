/// What `vault check` verified.
public struct IntegrityReport: Equatable, Sendable {
  /// Ordinary entries whose metadata and every chunk opened.
  public var entries: Int
  /// Journal entries whose sealed box opened and whose binding matched.
  public var journal: Int
  /// Content chunks verified.
  public var chunks: Int
}

/// Opens every record of an unlocked vault, so damage is found now rather than at the next read.
///
/// The header MAC was verified by the unlock. SQLite's `integrity_check`, every entry's metadata
/// and chunks, every journal entry, and the shape of the tables (no row of an unknown kind, no
/// chunk without its entry, no row left over) are checked.
public enum IntegrityCheck {
  /// Verifies the whole vault with `masterKey`.
  ///
  /// - Throws: `VaultError.integrity` at the first record that fails, naming it.
  public static func verify(_ vault: Vault, masterKey: SymmetricKey) throws -> IntegrityReport {
    // SQLite's own check first: damaged pages, and indexes that disagree with their tables (a
    // name index that no longer finds an entry).
    let structure = try vault.db.query("PRAGMA integrity_check").compactMap { $0.first?.string }
    guard structure == ["ok"] else {
      throw VaultError.integrity(
        "the database structure is damaged: \(structure.first ?? "no answer")"
          + (structure.count > 1 ? " (and \(structure.count - 1) more)" : ""))
    }
    let kinds = try vault.db.query(
      "SELECT count(*) FROM entries WHERE kind IS NULL OR kind NOT IN (?, ?)",
      [.integer(EntryStore.kindSecret), .integer(JournalStore.kindJournal)])
    if let unknown = kinds.first?.first?.integer, unknown > 0 {
      throw VaultError.integrity("\(unknown) row(s) of an unknown kind")
    }
    let orphans = try vault.db.query(
      "SELECT count(*) FROM chunks WHERE entry_id NOT IN"
        + " (SELECT entry_id FROM entries WHERE kind = ?)", [.integer(EntryStore.kindSecret)])
    if let count = orphans.first?.first?.integer, count > 0 {
      throw VaultError.integrity("\(count) content chunk(s) belong to no entry")
    }
    let verified = try EntryStore(vault: vault, masterKey: masterKey).verifyAll()
    let journal = try JournalStore(vault: vault, masterKey: masterKey).entries()
    // Every row is an entry or a journal entry that opened: nothing vanishes unseen.
    let rows = try vault.db.query("SELECT count(*) FROM entries").first?.first?.integer ?? 0
    let accounted = Int64(verified.entries + journal.count)
    guard rows == accounted else {
      throw VaultError.integrity("\(rows - accounted) row(s) of the vault cannot be accounted for")
    }
    return IntegrityReport(
      entries: verified.entries, journal: journal.count, chunks: verified.chunks)
  }
}
