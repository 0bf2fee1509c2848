/// Which check a session file (`vault(5)` SESSIONS) failed, or the vault id it was issued for.
///
/// Session files are the agent module's, and their format is specified with the vault's: a
/// damaged one is an integrity failure (`VaultError.integrity(.session(…))`), which the unlock
/// tells from a locked vault.
public enum SessionDamage: Equatable, Sendable {
  /// A session was issued for this vault file under another vault id: the header's vault id
  /// changed since (the file was edited or damaged).
  case vaultIDChanged
  /// The session file at `path` (nil when not known) is not a well-formed record.
  case malformed(path: String?)
  /// The session file at `path` holds another vault's id.
  case anotherVaultsID(path: String)
  /// The box of the session file at `path` does not open: it was edited or damaged.
  case failedAuthentication(path: String)
}
