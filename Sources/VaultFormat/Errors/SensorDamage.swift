/// What a check of the simulated sensor's state, kept in the device state, found
/// (`Damage.simulatedSensor`).
public enum SensorDamage: Equatable, Sendable {
  /// The sensor's state in the device state does not decode.
  case malformedState
  /// The sensor's queue holds an outcome this build does not know (`outcome`, as stored).
  case unknownOutcome(String)
  /// The counter `field` (as stored, e.g. `os_epoch`) is at its maximum.
  case counterAtMaximum(field: String)
}
