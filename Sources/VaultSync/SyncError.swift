import VaultFormat

/// Why a sync refused the remote, as facts the command line words (beside
/// `VaultError.syncRefused`, whose words are still composed here; they move into cases of this
/// enum one by one).
public enum SyncError: Error, Equatable, Sendable {
  /// The remote's devices are not enrolled with the recovery code (a vault made before release
  /// 0.10.0), so a device cannot join it by cloning.
  case devicesNotEnrolled

  // MARK: Header, keyslots, devices, files, format 1, biometry

  /// A file the remote holds failed an integrity check (which object, which check).
  case damaged(Damage)
  /// The vault header the remote carries is malformed (which field, why).
  case malformedHeader(HeaderFault)
}
