import VaultCore

extension SensorState {
  /// The stored hardware as a `BiometryType`; an unrecognised value reads as `.none`, so a
  /// hand-edited state file fails closed (`biometryNotAvailable`).
  public var biometryType: BiometryType {
    BiometryType(rawValue: hardware) ?? .none
  }

  /// The stored availability as a `SensorAvailability`; an unrecognised value reads as
  /// `.unavailable`, failing closed.
  public var sensorAvailability: SensorAvailability {
    SensorAvailability(rawValue: availability) ?? .unavailable
  }
}
