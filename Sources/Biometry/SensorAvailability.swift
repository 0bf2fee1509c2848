/// Whether the simulated sensor can be used right now, stored in `SensorState.availability`.
public enum SensorAvailability: String, CaseIterable, Sendable {
  /// The sensor works.
  case available
  /// The sensor is present but disabled: preflight reports `biometryNotAvailable`.
  case unavailable
  /// A removable sensor is paired but not connected: preflight reports `biometryDisconnected`.
  case disconnected
  /// A removable sensor is not paired with this device: preflight reports `biometryNotPaired`.
  case notPaired = "not-paired"

  /// True for the states only a removable (external) sensor can be in.
  public var needsExternalSensor: Bool { self == .disconnected || self == .notPaired }
}
