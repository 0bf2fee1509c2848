extension SensorState {
  /// How long a queued answer waits for a prompt, in seconds (120): an answer no prompt took by
  /// then is dropped, as the iOS Simulator's menu answers only the prompt on screen.
  public static let answerValidity = 120.0
  /// Scans too poor to judge (`retry`) one prompt accepts; one more ends it as failed (10).
  public static let retryLimit = 10
  /// The longest reuse window of a device unlock, in seconds (300,
  /// `LATouchIDAuthenticationMaximumAllowableReuseDuration`).
  public static let maximumReuse = 300.0
  /// Templates one sensor holds: Touch ID five fingers, Face ID one appearance and one
  /// alternate, Optic ID one enrollment of the eyes.
  public static func enrollmentLimit(_ type: BiometryType) -> Int {
    switch type {
    case .none: 0
    case .touchID: 5
    case .faceID: 2
    case .opticID: 1
    }
  }

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

  /// The stored profile; an unrecognised value reads as `.apple`, whose lockout is the stricter.
  public var sensorProfile: SensorProfile {
    SensorProfile(rawValue: profile) ?? .apple
  }

  /// True while biometry is locked: until the credential, or during an Android timed lockout.
  ///
  /// Call on a `refreshed` state, whose ended timed lockout is already cleared.
  public var isLockedOut: Bool { lockedOut || lockedUntil != nil }

  /// Seconds left of an Android timed lockout at boot time `now`; nil when there is none.
  public func timedLockoutLeft(now: Double) -> Double? {
    lockedUntil.map { max(0, $0 - now) }
  }

  /// The queued answers still waiting at boot time `now`, each with the seconds it has left.
  public func pendingAnswers(now: Double) -> [(outcome: String, secondsLeft: Double)] {
    zip(queue, queuedAt).map { ($0, max(0, $1 + Self.answerValidity - now)) }
  }

  /// This state with what time has ended removed, at CLOCK_BOOTTIME `now` of boot `bootID`.
  ///
  /// Queued answers older than `answerValidity` (or without a time, or from another boot) are
  /// dropped; an Android timed lockout that ended is cleared; a device unlock older than the
  /// longest reuse window is forgotten. A state from another boot keeps no boot-clock time.
  public func refreshed(now: Double, bootID current: String) -> SensorState {
    var state = self
    if state.bootID != current {
      state.queue = []
      state.queuedAt = []
      state.lockedUntil = nil
      state.lastDeviceUnlock = nil
      state.bootID = current
    }
    func live(_ at: Double) -> Bool { at <= now && now - at <= Self.answerValidity }
    // Answers without a time (older files) are the first ones; they are stale.
    let untimed = state.queue.count - state.queuedAt.count
    var kept: [(String, Double)] = []
    for (index, outcome) in state.queue.enumerated() where index >= untimed {
      let at = state.queuedAt[index - untimed]
      if live(at) { kept.append((outcome, at)) }
    }
    state.queue = kept.map(\.0)
    state.queuedAt = kept.map(\.1)
    if let until = state.lockedUntil, now >= until || until - now > SensorProfile.timedSeconds {
      state.lockedUntil = nil
    }
    if let unlocked = state.lastDeviceUnlock,
      unlocked > now || now - unlocked > Self.maximumReuse
    {
      state.lastDeviceUnlock = nil
    }
    return state
  }
}
