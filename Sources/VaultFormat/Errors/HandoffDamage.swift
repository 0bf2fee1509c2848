/// What a check of the remote's master-key rotations (the header's handoffs) found
/// (`Damage.handoff`).
public enum HandoffDamage: Equatable, Sendable {
  /// No rotation starts at a key this device holds: it was more than `maximumHandoffs`
  /// rotations ago, or the remote is not this vault's.
  case fromNoKeyHeld(maximumHandoffs: Int)
  /// A rotation does not start where the one before it ends.
  case notConsecutive
  /// A rotation was made by a device this one does not know.
  case unknownSigner
  /// A rotation's signature does not verify under its device's writer key.
  case notSigned
  /// A rotation was authorized neither with the recovery code in force nor made by this device.
  case notAuthorized
  /// The master key sealed to this device is not the one the last rotation commits to.
  case sealedKeyNotRotated
}
