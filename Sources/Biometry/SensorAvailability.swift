/// Whether the simulated sensor can be used right now, stored in `SensorState.availability`.
public enum SensorAvailability: String, CaseIterable, Sendable {
  /// The sensor works.
  case available
  /// The sensor is present but disabled: preflight reports `biometryNotAvailable`.
  case unavailable
  /// A removable sensor is paired but not connected: preflight reports `biometryDisconnected`.
  case disconnected
}
