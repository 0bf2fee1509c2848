import VaultCrypto

/// One entry as an export sees it, inside the export's read: its metadata, and its current
/// content read whole or piece by piece.
///
/// Valid only inside the body of `EntryStore.exporting`, whose read transaction its reads join.
public struct ExportedEntry {
  /// The current version's metadata (name, times, guard, length).
  public let metadata: EntryMetadata
  let store: EntryStore
  let recordID: [UInt8]

  /// The content in guarded memory.
  ///
  /// - Throws: `VaultError.tooLarge` for a large entry (`metadata.isLarge`); `.integrity` when a
  ///   chunk fails.
  public func content() throws -> SecureBytes {
    try store.content(of: metadata, recordID: recordID, name: metadata.name)
  }

  /// Hands the content to `deliver` piece by piece (`EntryStore.chunkSize` bytes at most, from
  /// guarded memory that is reused for the next piece), small or large.
  ///
  /// - Throws: `VaultError.integrity` when a chunk fails (pieces already handed over are not the
  ///   content then); what `deliver` throws.
  public func stream(_ deliver: (UnsafeRawBufferPointer) throws -> Void) throws {
    try store.streamContent(
      of: metadata, recordID: recordID, name: metadata.name, deliver: deliver)
  }
}

/// What an export reads: the entries it may read and the guarded ones it leaves out.
public struct ExportSelection {
  /// The entries under the prefix, sorted by name (UTF-8 byte order).
  public let entries: [ExportedEntry]
  /// The names of guarded entries under the prefix left out (their reads need a fresh check),
  /// sorted.
  public let guardedLeftOut: [String]
}

extension EntryStore {
  /// Runs `body` with every current entry whose name starts with `prefix` (bytes of its NFC
  /// form, as `list`), inside one verified read, so that everything `body` reads (contents, the
  /// journal) comes from one state: other writers wait until it returns.
  ///
  /// Kept revisions and tombstones are not exported. Unless `includeGuarded` (the key came from
  /// the PIN in this command), guarded entries are left out and named in `guardedLeftOut`.
  ///
  /// - Throws: `VaultError.integrity` when a record or the state fails authentication; what
  ///   `body` throws.
  public func exporting<R>(
    prefix: String, includeGuarded: Bool, _ body: (ExportSelection) throws -> R
  ) throws -> R {
    let normalized = Array(prefix.canonicallyComposed.utf8)
    return try vault.reading(masterKey: masterKey) { snapshot in
      var entries: [ExportedEntry] = []
      var left: [String] = []
      for row in try snapshot.allRows(db: db, rowKey: rowKey)
      where row.kind == RecordKind.entry.rawValue {
        let found = try open(row)
        guard found.metadata.name.utf8.starts(with: normalized) else { continue }
        if found.metadata.guarded && !includeGuarded {
          left.append(found.metadata.name)
          continue
        }
        entries.append(ExportedEntry(metadata: found.metadata, store: self, recordID: row.recordID))
      }
      let byName: (String, String) -> Bool = {
        $0.precedesInByteOrder($1)
      }
      return try body(
        ExportSelection(
          entries: entries.sorted { byName($0.metadata.name, $1.metadata.name) },
          guardedLeftOut: left.sorted(by: byName)))
    }
  }
}
