import VaultFormat

/// Why a sync refused the remote, as facts the command line words (beside
/// `VaultError.syncRefused`, whose words are still composed here; they move into cases of this
/// enum one by one).
public enum SyncError: Error, Equatable, Sendable {
  /// The remote's devices are not enrolled with the recovery code (a vault made before release
  /// 0.10.0), so a device cannot join it by cloning.
  case devicesNotEnrolled

  // MARK: Records, state, SQLite, entries

  /// What the remote holds failed an integrity check (`Damage`): a received record, content or
  /// state that does not verify.
  case damaged(Damage)
  /// The vault header the remote carries is malformed (`HeaderFault`).
  case malformedHeader(HeaderFault)
}
