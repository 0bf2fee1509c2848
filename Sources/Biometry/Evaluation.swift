import VaultCore

/// How one attempt's outcome changes the sensor, and what the evaluation does next.
enum Evaluation {
  /// Consecutive failed matches that lock the sensor (Apple: five, device-wide).
  static let lockoutThreshold = 5

  /// What follows one attempt.
  enum Step {
    /// No outcome is queued: ask the prompter.
    case ask
    /// A failed match with attempts left.
    case next
    /// A match; carries the domain state at that moment.
    case matched([UInt8])
    /// The evaluation ends with this error.
    case failed(LAError)
  }

  /// Applies `outcome` of attempt `attempt` (of `limit`) to `state`.
  ///
  /// A match clears the failure count; a failed match adds one and locks at the threshold; the
  /// cancellations change no counter. Never throws for the outcome itself, so the caller's store
  /// update is written before the evaluation's error is thrown.
  static func record(
    _ outcome: Outcome, attempt: Int, of limit: Int, sensor: inout SensorState,
    secret: DeviceSecret, appID: String
  ) -> Step {
    switch outcome {
    case .match:
      sensor.consecutiveFailures = 0
      guard
        let domain = DomainState.compute(sensor: sensor, deviceSecret: secret, appID: appID)
      else { return .failed(.biometryNotEnrolled) }
      return .matched(domain)
    case .noMatch:
      sensor.consecutiveFailures += 1
      if sensor.consecutiveFailures >= lockoutThreshold {
        sensor.lockedOut = true
        return .failed(.biometryLockout)
      }
      return attempt >= limit ? .failed(.authenticationFailed) : .next
    case .cancel: return .failed(.userCancel)
    case .systemCancel: return .failed(.systemCancel)
    case .timeout: return .failed(.appCancel)
    }
  }

  /// Removes and returns the next queued outcome of `state`, or nil when the queue is empty.
  ///
  /// - Throws: `VaultError.integrity` when the queued value is not an outcome (a hand-edited
  ///   state file); the queue is then left as it was.
  static func dequeue(_ sensor: inout SensorState) throws -> Outcome? {
    guard let raw = sensor.queue.first else { return nil }
    guard let outcome = Outcome(rawValue: raw) else {
      throw VaultError.integrity(
        "the simulated sensor's queue holds an unknown outcome \(raw.debugDescription)")
    }
    sensor.queue.removeFirst()
    return outcome
  }
}
