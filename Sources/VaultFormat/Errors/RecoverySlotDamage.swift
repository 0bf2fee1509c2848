/// What a check of the recovery slot found (`Damage.recoverySlot`).
public enum RecoverySlotDamage: Equatable, Sendable {
  /// The code matches the slot's verifier but not its tag: the slot or the KDF parameters were
  /// edited.
  case editedUnderRightCode
  /// The slot's box did not open under a code its verifier accepted.
  case failedAuthentication
}
