/// Why a sync failed or refused the remote, as facts the command line words.
public enum SyncError: Error, Equatable, Sendable {
  /// The remote's devices are not enrolled with the recovery code (a vault made before release
  /// 0.10.0), so a device cannot join it by cloning.
  case devicesNotEnrolled
  /// The sync remote was refused: which check it failed (`SyncRefusal`); nothing was merged.
  case refused(SyncRefusal)
  /// The sync state file's JSON could not be encoded.
  case stateNotEncodable
  /// A master-key rotation's sync found nothing to push (a rotation always pushes the whole
  /// tree under the new key).
  case rotationLeftNothingToPush
}
