import VaultFormat

/// Why a sync refused the remote, as facts the command line words (beside
/// `VaultError.syncRefused`, whose words are still composed here; they move into cases of this
/// enum one by one).
public enum SyncError: Error, Equatable, Sendable {
  /// The remote's devices are not enrolled with the recovery code (a vault made before release
  /// 0.10.0), so a device cannot join it by cloning.
  case devicesNotEnrolled

  // MARK: Core, agent, journal

  /// What the remote holds failed an integrity check of the core (`Damage`): a journal entry, a
  /// record the whole-vault check refuses.
  case damaged(Damage)
}
