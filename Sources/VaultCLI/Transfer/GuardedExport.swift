import VaultCore

/// The one fresh check an export asks for all its guarded entries (review of 0.11.0, item 19).
enum GuardedExport {
  /// Asks the check when the key is held (a session, the agent, a success by reuse) and guarded
  /// entries are under `prefix`, before anything is read for the export or written.
  ///
  /// - Returns: true when the export may write guarded entries: the key came from the PIN and
  ///   its match in this command, or the check passed; false when the key is held and none is
  ///   under `prefix` (one that appears by the export's read ends it, nothing written).
  /// - Throws: the check's errors (exit 12 or 13 for a refused or cancelled match).
  static func check(_ context: Context, _ unlocked: UnlockedVault, prefix: String) throws -> Bool {
    guard unlocked.source.withholdsGuarded else { return true }
    let count = try unlocked.entries.listing(prefix: prefix).filter(\.guarded).count
    guard count > 0 else { return false }
    try context.access(unlocked.vault).checkGuardedExport(unlocked, count: count, via: context)
    return true
  }
}
