import VaultCore

/// The biometrics-only preflight checks of `canEvaluatePolicy`, first failure wins.
enum Preflight {
  /// The error preflight reports for `sensor`, or nil when biometry can be evaluated.
  ///
  /// Order (§7.4 rows 1, 2, 4, 5, 6): no hardware, unavailable, disconnected, not enrolled,
  /// locked out.
  static func error(for sensor: SensorState) -> LAError? {
    if sensor.biometryType == .none { return .biometryNotAvailable }
    switch sensor.sensorAvailability {
    case .unavailable: return .biometryNotAvailable
    case .disconnected: return .biometryDisconnected
    case .available: break
    }
    if sensor.enrolled.isEmpty { return .biometryNotEnrolled }
    if sensor.lockedOut { return .biometryLockout }
    return nil
  }
}
