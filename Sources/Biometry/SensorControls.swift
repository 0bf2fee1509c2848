import FoundationEssentials
import Glibc
import VaultCrypto
import VaultFormat

/// The simulator's controls (`biosim` commands): each is one read-modify-write of the device
/// store under its lock.
///
/// Every method throws `VaultError` when the device store cannot be read or written, and changes
/// nothing when it throws.
public struct SensorControls: Sendable {
  /// Largest `count` accepted by `queue(_:count:)`.
  public static let maximumQueueCount = 100
  /// Largest template label, in UTF-8 bytes.
  public static let maximumLabelBytes = 64

  private let store: DeviceStore
  private let clock: Clock

  /// Controls for the sensor in `store`; `clock` timestamps enrollments.
  public init(store: DeviceStore, clock: Clock) {
    self.store = store
    self.clock = clock
  }

  /// Replaces the sensor with one of `type`, as a different device model would; `external`
  /// makes it a removable one (a keyboard with Touch ID), the only kind that can be disconnected
  /// or not paired.
  ///
  /// A change of type wipes the enrollment (bumping the generation when it was not empty) and
  /// clears the failure count and lockout; a built-in sensor is always connected and paired.
  /// Choosing the current type and kind changes nothing.
  public func setHardware(_ type: BiometryType, external: Bool = false) throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      if !external, sensor.sensorAvailability.needsExternalSensor {
        sensor.availability = SensorAvailability.available.rawValue
      }
      sensor.external = external && type != .none
      guard sensor.hardware != type.rawValue else { return }
      sensor.hardware = type.rawValue
      if !sensor.enrolled.isEmpty {
        sensor.enrolled = []
        try SensorState.increment(&sensor.enrollmentGeneration, "enrollment_generation")
      }
      sensor.consecutiveFailures = 0
      sensor.lockedOut = false
      sensor.lockedUntil = nil
      sensor.lastDeviceUnlock = nil
    }
  }

  /// Sets whether the sensor is available, disabled, disconnected or not paired; enrollment is
  /// kept.
  ///
  /// - Throws: `BiometryControlError.notExternal` for `disconnected` or `not-paired` on a
  ///   built-in sensor.
  public func setAvailability(_ availability: SensorAvailability) throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      if availability.needsExternalSensor, !sensor.external {
        throw BiometryControlError.notExternal(availability)
      }
      sensor.availability = availability.rawValue
    }
  }

  /// Enrolls a new finger, face or iris and bumps the enrollment generation.
  ///
  /// - Parameter label: A unique label; nil picks the first free `finger-N`, `face-N` or `iris-N`
  ///   (N from 1) for the hardware type.
  /// - Returns: The new template, with a random 16-byte base64 id and the current UTC time.
  /// - Throws: `BiometryControlError.noHardware` when the type is `none`, `.passcodeNotSet`
  ///   without a device passcode, `.enrollmentFull` at the type's limit, `.invalidLabel` or
  ///   `.duplicateLabel` for a bad label.
  @discardableResult
  public func enroll(label: String?) throws -> SensorState.Template {
    if let label { try Self.validate(label: label) }
    let enrolledAt = Timestamp.utc(clock.wallNow)
    return try store.updateSensor(clock: clock) { sensor, _ in
      let type = sensor.biometryType
      guard type != .none else { throw BiometryControlError.noHardware }
      guard sensor.passcodeSet else { throw BiometryControlError.passcodeNotSet }
      let limit = SensorState.enrollmentLimit(type)
      guard sensor.enrolled.count < limit else {
        throw BiometryControlError.enrollmentFull(type, limit: limit)
      }
      let taken = Set(sensor.enrolled.map(\.label))
      let chosen: String
      if let label {
        guard !taken.contains(label) else { throw BiometryControlError.duplicateLabel(label) }
        chosen = label
      } else {
        var index = 1
        while taken.contains("\(type.templateNoun)-\(index)") { index += 1 }
        chosen = "\(type.templateNoun)-\(index)"
      }
      let id = SecureBytes.random(count: 16).unprotectedBytes
      let template = SensorState.Template(
        id: Data(id).base64EncodedString(), label: chosen, enrolledAt: enrolledAt)
      sensor.enrolled.append(template)
      try SensorState.increment(&sensor.enrollmentGeneration, "enrollment_generation")
      return template
    }
  }

  /// Removes the template labelled `label` and bumps the enrollment generation.
  ///
  /// - Throws: `BiometryControlError.noSuchTemplate` when no template has that label.
  public func unenroll(label: String) throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      guard let index = sensor.enrolled.firstIndex(where: { $0.label == label }) else {
        throw BiometryControlError.noSuchTemplate(label)
      }
      sensor.enrolled.remove(at: index)
      try SensorState.increment(&sensor.enrollmentGeneration, "enrollment_generation")
    }
  }

  /// Removes every template; bumps the generation when anything was enrolled.
  public func unenrollAll() throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      guard !sensor.enrolled.isEmpty else { return }
      sensor.enrolled = []
      try SensorState.increment(&sensor.enrollmentGeneration, "enrollment_generation")
    }
  }

  /// Appends `count` copies of `outcome` to the sensor's first-in first-out answer queue, each
  /// valid for `SensorState.answerValidity` seconds.
  ///
  /// - Throws: `BiometryControlError.invalidCount` unless `count` is in 1...100.
  public func queue(_ outcome: Outcome, count: Int) throws {
    guard (1...Self.maximumQueueCount).contains(count) else {
      throw BiometryControlError.invalidCount(count)
    }
    let now = clock.bootNow
    try store.updateSensor(clock: clock) { sensor, _ in
      sensor.queue.append(contentsOf: Array(repeating: outcome.rawValue, count: count))
      sensor.queuedAt.append(contentsOf: Array(repeating: now, count: count))
    }
  }

  /// Drops every queued answer.
  ///
  /// - Returns: How many live answers were dropped.
  @discardableResult
  public func clearQueue() throws -> Int {
    try store.updateSensor(clock: clock) { sensor, _ in
      defer {
        sensor.queue = []
        sensor.queuedAt = []
      }
      return sensor.queue.count
    }
  }

  /// Locks the sensor as failures elsewhere would, until the device credential: failures 5 (20
  /// in the Android profile), locked out, in a failure run of its own (`failureRun`), so no app
  /// takes the lockout for its own failures'.
  public func forceLockout() throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      sensor.failureRun &+= 1
      sensor.consecutiveFailures = sensor.sensorProfile.permanentThreshold
      sensor.lockedOut = true
    }
  }

  /// Records that the device credential (the passcode at the lock screen, or the vault PIN) was
  /// verified: the failure count goes to 0, whether it had reached a lockout or not, and any
  /// lockout ends (biometry.md §7.5 step 7; Android's strong authentication does the same).
  public func clearLockout() throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      sensor.consecutiveFailures = 0
      sensor.lockedOut = false
      sensor.lockedUntil = nil
    }
  }

  /// Sets or removes the device passcode.
  ///
  /// Removing it deletes every keychain item stored "when passcode set, this device only" and,
  /// unless `keepEnrollment`, the enrollment (bumping the generation), as iOS requires a passcode
  /// for biometry and Android invalidates its keys when the secure lock screen goes.
  public func setPasscode(_ set: Bool, keepEnrollment: Bool = false) throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      guard sensor.passcodeSet != set else { return }
      sensor.passcodeSet = set
      guard !set else { return }
      sensor.keychain = []
      sensor.lastDeviceUnlock = nil
      if !keepEnrollment, !sensor.enrolled.isEmpty {
        sensor.enrolled = []
        try SensorState.increment(&sensor.enrollmentGeneration, "enrollment_generation")
      }
    }
  }

  /// Chooses the lockout rules: `apple` or `android`; the failure count and lockout start over.
  public func setProfile(_ profile: SensorProfile) throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      guard sensor.profile != profile.rawValue else { return }
      sensor.profile = profile.rawValue
      sensor.consecutiveFailures = 0
      sensor.lockedOut = false
      sensor.lockedUntil = nil
    }
  }

  /// Unlocks the device at its lock screen with a matching finger or face: the anchor of the
  /// reuse window (`touchIDAuthenticationAllowableReuseDuration`); as any match, it clears the
  /// failure count.
  ///
  /// - Throws: `BiometryControlError.cannotUnlockDevice` when biometry cannot be used now (no
  ///   hardware, unavailable, nothing enrolled, locked out, no passcode).
  public func unlockDevice() throws {
    let now = clock.bootNow
    try store.updateSensor(clock: clock) { sensor, _ in
      if let error = Preflight.error(for: sensor) {
        throw BiometryControlError.cannotUnlockDevice(error)
      }
      sensor.lastDeviceUnlock = now
      sensor.consecutiveFailures = 0
    }
  }

  /// Simulates a major OS upgrade: the OS epoch grows by one, so every domain state changes while
  /// the enrollment does not.
  public func osUpgrade() throws {
    try store.updateSensor(clock: clock) { sensor, _ in
      try SensorState.increment(&sensor.osEpoch, "os_epoch")
    }
  }

  /// Makes a brand-new device: a new random 32-byte device secret, a fresh sensor (touch-id,
  /// available, nothing enrolled, generation 1) and no PIN attempt records.
  public func reset() throws {
    try store.replace { current in
      var state = DeviceState.fresh()
      // What belongs to vaults rather than to the device survives an erase when readable.
      state.journalKeys = current?.journalKeys ?? [:]
      return state
    }
  }

  /// The sensor's state now: expired answers, an ended timed lockout and an old device unlock
  /// left out.
  public func status() throws -> SensorState {
    try store.readSensor(clock: clock).sensor
  }

  /// Checks a user-chosen template label.
  ///
  /// - Throws: `BiometryControlError.invalidLabel` when empty, over 64 UTF-8 bytes, containing a
  ///   control character, or starting or ending with white space.
  public static func validate(label: String) throws {
    let bad =
      label.isEmpty || label.utf8.count > maximumLabelBytes
      || label.unicodeScalars.contains { $0.properties.generalCategory == .control }
      || label.first?.isWhitespace == true || label.last?.isWhitespace == true
    if bad { throw BiometryControlError.invalidLabel(label) }
  }
}
