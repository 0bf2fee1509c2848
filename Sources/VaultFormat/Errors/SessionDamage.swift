/// What a held key found about the vault file it was unlocked for (an integrity failure,
/// `VaultError.integrity(.session(…))`, which the command line tells from a locked vault).
public enum SessionDamage: Equatable, Sendable {
  /// The key the agent holds for this file (a plain hold or a session's grant) still verifies
  /// the file's newest state under the vault id it was unlocked for, yet the header names
  /// another: the header's vault id changed since (the file was edited or damaged).
  case vaultIDChanged
}
