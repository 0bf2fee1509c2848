import VaultFormat

/// How one attempt's outcome changes the sensor, and what the evaluation does next.
enum Evaluation {
  /// Consecutive failed matches that lock the sensor in the Apple profile (five, device-wide).
  static let lockoutThreshold = 5
  /// Scans too poor to judge (`retry`) one evaluation accepts before it ends as failed.
  static let retryLimit = SensorState.retryLimit

  /// What follows one attempt.
  enum Step {
    /// No outcome is queued: ask the prompter.
    case ask
    /// A failed match with attempts left.
    case next
    /// A scan to take again: no attempt used.
    case again
    /// A match; carries the domain state at that moment.
    case matched([UInt8])
    /// The evaluation ends with this error.
    case failed(LAError)
    /// The queued answer cannot answer this prompt (a script error); it was dropped.
    case refused(BiometryScriptError)
  }

  /// What is known of the prompt an outcome answers.
  struct Prompt {
    /// The attempt, from 1.
    var attempt: Int
    /// The evaluation's attempt limit.
    var limit: Int
    /// Failed matches so far in this evaluation.
    var failures: Int
    /// `retry` answers so far in this evaluation.
    var retries: Int
    /// The sensor type.
    var type: BiometryType
    /// What the attempt before gave in this evaluation (a failed match or a poor scan); nil at
    /// the first.
    var previous: Outcome? = nil

    /// True when the fallback button shows: after one failed attempt on Touch ID, two on Face ID
    /// and Optic ID (Apple's prompt).
    var fallbackShown: Bool { failures >= (type == .touchID ? 1 : 2) }
  }

  /// Applies `outcome` to `sensor` for `prompt`, at boot time `now`.
  ///
  /// A match clears the failure count; a failed match adds one and locks at the profile's
  /// threshold (Android: 30 s at every fifth); a retry, a cancellation or the fallback change no
  /// counter. Never throws for the outcome itself, so the caller's store update is written before
  /// the evaluation's error is thrown.
  static func record(
    _ outcome: Outcome, _ prompt: Prompt, sensor: inout SensorState, secret: DeviceSecret,
    appID: String, now: Double
  ) -> Step {
    switch outcome {
    case .match:
      sensor.consecutiveFailures = 0
      guard
        let domain = DomainState.compute(sensor: sensor, deviceSecret: secret, appID: appID)
      else { return .failed(.biometryNotEnrolled) }
      return .matched(domain)
    case .noMatch:
      // A failure after none starts a run of its own (wrapping: only its equality is read).
      if sensor.consecutiveFailures == 0 { sensor.failureRun &+= 1 }
      sensor.consecutiveFailures += 1
      let failures = sensor.consecutiveFailures
      let profile = sensor.sensorProfile
      if failures >= profile.permanentThreshold {
        sensor.lockedOut = true
        return .failed(.biometryLockout)
      }
      if profile == .android, failures % SensorProfile.timedEvery == 0 {
        sensor.lockedUntil = now + SensorProfile.timedSeconds
        return .failed(.biometryLockout)
      }
      return prompt.attempt >= prompt.limit ? .failed(.authenticationFailed) : .next
    case .retry:
      return prompt.retries >= retryLimit ? .failed(.authenticationFailed) : .again
    case .fallback:
      return prompt.fallbackShown ? .failed(.userFallback) : .refused(.fallbackNotShown)
    case .cancel: return .failed(.userCancel)
    case .systemCancel: return .failed(.systemCancel)
    case .appCancel, .timeout: return .failed(.appCancel)
    }
  }

  /// Removes and returns the next queued outcome of `sensor` (a `refreshed` state, so every
  /// answer in it is live), or nil when the queue is empty.
  ///
  /// - Throws: `VaultError.integrity` when the queued value is not an outcome (a hand-edited
  ///   state file); the queue is then left as it was.
  static func dequeue(_ sensor: inout SensorState) throws -> Outcome? {
    guard let raw = sensor.queue.first else { return nil }
    guard let outcome = Outcome(rawValue: raw) else {
      throw VaultError.integrity(.simulatedSensor(.unknownOutcome(raw)))
    }
    sensor.queue.removeFirst()
    if !sensor.queuedAt.isEmpty { sensor.queuedAt.removeFirst() }
    return outcome
  }

  /// The next queued outcome without taking it.
  static func peek(_ sensor: SensorState) -> Outcome? {
    sensor.queue.first.flatMap(Outcome.init(rawValue:))
  }
}
