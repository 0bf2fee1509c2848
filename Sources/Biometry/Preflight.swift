/// The biometrics-only preflight checks of `canEvaluatePolicy`, first failure wins.
enum Preflight {
  /// The error preflight reports for `sensor` (a `refreshed` state), or nil when biometry can be
  /// evaluated.
  ///
  /// Order (biometry.md §7.4, rows 1 to 7): no hardware, unavailable, not paired, disconnected,
  /// not enrolled, locked out, no passcode.
  static func error(for sensor: SensorState) -> LAError? {
    if sensor.biometryType == .none { return .biometryNotAvailable }
    switch sensor.sensorAvailability {
    case .unavailable: return .biometryNotAvailable
    case .notPaired: return .biometryNotPaired
    case .disconnected: return .biometryDisconnected
    case .available: break
    }
    if sensor.enrolled.isEmpty { return .biometryNotEnrolled }
    if sensor.isLockedOut { return .biometryLockout }
    if !sensor.passcodeSet { return .passcodeNotSet }
    return nil
  }
}
