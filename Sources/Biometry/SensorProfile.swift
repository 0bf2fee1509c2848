/// Which platform's lockout rules the simulated sensor follows (`biosim profile`).
public enum SensorProfile: String, CaseIterable, Sendable {
  /// Apple's: five consecutive failed matches lock biometry until the device credential.
  case apple
  /// Android's (AOSP's `LockoutFrameworkImpl`): every fifth consecutive failure locks for 30 s
  /// (`ERROR_LOCKOUT`, 7), the twentieth until the device credential (`ERROR_LOCKOUT_PERMANENT`,
  /// 9).
  case android

  /// Consecutive failures that lock until the device credential: 5 (Apple), 20 (Android).
  public var permanentThreshold: Int {
    switch self {
    case .apple: 5
    case .android: 20
    }
  }

  /// Every this many consecutive failures an Android timed lockout starts (5).
  public static let timedEvery = 5
  /// Length of an Android timed lockout, in seconds (30).
  public static let timedSeconds = 30.0
}
