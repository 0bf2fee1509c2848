/// Which key of the vault's header does not match what opened it or what this device recorded.
///
/// Thrown as `VaultError.integrity(.keys(…))`: each is an edit of the header, or of the device
/// state, that a key or a record kept elsewhere tells.
public enum KeyDamage: Equatable, Sendable {
  /// The header was edited since this device last authenticated it.
  case editedSinceAuthenticated
  /// The header's KDF parameters or keyslots do not match this device's record (its slot tag).
  case keyslotsEdited
  /// The master key sealed to this device does not open (its `master_box` was edited).
  case masterBoxEdited
  /// The header's enrollment key is not the recovery code's (the recovery slot was edited by
  /// whoever held the master key).
  case enrollmentKeyNotRecoveryCodes
  /// The recovery slot opens to another key than the vault's master key.
  case recoverySlotHoldsAnotherKey
  /// This device's writer key (device state) is not the one its record in the header names.
  case writerKeyNotHeaders
  /// The header's journal key differs from the one this device last authenticated.
  case journalKeyDiffers
}
