/// What a check of a device record, its enrollment or this device's own files found
/// (`Damage.device`).
public enum DeviceDamage: Equatable, Sendable {
  /// A device secret has `found` bytes, not 32.
  case secretLength(found: Int)
  /// The master key sealed to this device carries another vault's or device's binding.
  case masterKeyBoundElsewhere
  /// The header has no enrollment key: its devices are not enrolled with the recovery code.
  case notEnrolled
  /// The device record `deviceID` (hex) was not enrolled with the vault's recovery code.
  case recordNotEnrolled(deviceID: String)
  /// The revocation of the device `deviceID` (hex) was not authorized with the vault's recovery
  /// code.
  case revocationNotAuthorized(deviceID: String)
  /// The device state file at `path` does not decode.
  case stateCorrupt(path: String)
}
