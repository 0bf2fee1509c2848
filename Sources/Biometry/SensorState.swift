import VaultCrypto
import VaultFormat

/// The simulated biometric device's persistent state: the `sensor` section of the device state,
/// which only this module reads.
///
/// Plain data: the behaviour (preflight, evaluation, controls) lives beside it. The stored key
/// names are fixed: release 0.1.0 wrote the first eight, and the domain state is computed from
/// these values; the keys added since (`queued_at`, `boot_id`, `passcode_set`, `external`,
/// `profile`, `locked_until`, `last_device_unlock`, `keychain`, `failure_run`) may be missing
/// from an older file and take their defaults.
public struct SensorState: Codable, Equatable, Sendable {
  /// One enrolled finger or face.
  public struct Template: Codable, Equatable, Sendable {
    /// Random 16-byte template id, base64.
    public var id: String
    /// A user-chosen label such as `right-index`.
    public var label: String
    /// When it was enrolled, ISO 8601 UTC.
    public var enrolledAt: String

    enum CodingKeys: String, CodingKey {
      case id, label
      case enrolledAt = "enrolled_at"
    }

    /// Creates a template record.
    public init(id: String, label: String, enrolledAt: String) {
      self.id = id
      self.label = label
      self.enrolledAt = enrolledAt
    }
  }

  /// `none`, `touch-id`, `face-id` or `optic-id`.
  public var hardware: String = "touch-id"
  /// `available`, `unavailable`, `disconnected` or `not-paired`.
  public var availability: String = "available"
  /// The enrolled set.
  public var enrolled: [Template] = []
  /// Increases by one on every enrollment change; never decreases.
  public var enrollmentGeneration: UInt64 = 1
  /// Increases on `biosim os-upgrade` only.
  public var osEpoch: UInt32 = 1
  /// Consecutive failed matches across evaluations.
  public var consecutiveFailures: Int = 0
  /// Names the current run of consecutive failed matches.
  ///
  /// One more each time a failed match starts a run (the count leaves 0) and each time
  /// `force-lockout` sets the count, so an app that noted the run of its own failures can tell a
  /// lockout they made from one made elsewhere. 0 in a file from before release 0.12.0.
  public var failureRun: UInt64 = 0
  /// True after the failures that lock the sensor until the device credential (the PIN) is
  /// verified: five in the Apple profile, twenty in the Android one.
  public var lockedOut: Bool = false
  /// Scripted outcomes, answered first-in first-out.
  public var queue: [String] = []
  /// When each answer of `queue` was queued: CLOCK_BOOTTIME seconds of boot `bootID`.
  ///
  /// An answer without a time (a file of release 0.8 or earlier) is stale.
  public var queuedAt: [Double] = []
  /// The boot that `queuedAt`, `lockedUntil` and `lastDeviceUnlock` were measured in; a new
  /// boot makes them all stale.
  public var bootID: String?
  /// Whether the device has a passcode (the device credential); biometry needs one.
  public var passcodeSet: Bool = true
  /// True for a removable sensor (a keyboard with Touch ID), the only kind that can be
  /// disconnected or not paired.
  public var external: Bool = false
  /// `apple` or `android`: which platform's lockout rules apply.
  public var profile: String = "apple"
  /// End of an Android timed lockout, CLOCK_BOOTTIME seconds of boot `bootID`; nil when none.
  public var lockedUntil: Double?
  /// When the device was last unlocked with biometry at its lock screen (`biosim unlock-device`),
  /// CLOCK_BOOTTIME seconds of boot `bootID`: the anchor of the reuse window.
  public var lastDeviceUnlock: Double?
  /// Ids of the keychain items stored "when passcode set, this device only".
  ///
  /// Removing the passcode deletes them all. Nil in a file from before release 0.9.0, which had no keychain:
  /// its items count as present while a passcode is set (`holdsKeychainItem`), so an older
  /// file never reads as a removed passcode.
  public var keychain: [String]?

  /// The current run of consecutive failed matches: its name and length.
  public var run: FailureRun { FailureRun(run: failureRun, failures: consecutiveFailures) }

  /// True when the keychain item `id` is stored: listed, or (in a file from before the
  /// keychain) a passcode is set.
  public func holdsKeychainItem(_ id: String) -> Bool {
    keychain.map { $0.contains(id) } ?? passcodeSet
  }

  /// A new device: touch-id hardware, available, a passcode set, nothing enrolled.
  public init() {}

  /// Decodes a stored sensor, refusing values no control or evaluation could have written.
  ///
  /// - Throws: `DecodingError.dataCorrupted` for a failure count outside 0...2³¹−1, a time that
  ///   is not finite and non-negative, or more times than queued answers.
  public init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    hardware = try c.decode(String.self, forKey: .hardware)
    availability = try c.decode(String.self, forKey: .availability)
    enrolled = try c.decode([Template].self, forKey: .enrolled)
    enrollmentGeneration = try c.decode(UInt64.self, forKey: .enrollmentGeneration)
    osEpoch = try c.decode(UInt32.self, forKey: .osEpoch)
    consecutiveFailures = try c.decode(Int.self, forKey: .consecutiveFailures)
    lockedOut = try c.decode(Bool.self, forKey: .lockedOut)
    queue = try c.decode([String].self, forKey: .queue)
    queuedAt = try c.decodeIfPresent([Double].self, forKey: .queuedAt) ?? []
    bootID = try c.decodeIfPresent(String.self, forKey: .bootID)
    passcodeSet = try c.decodeIfPresent(Bool.self, forKey: .passcodeSet) ?? true
    external = try c.decodeIfPresent(Bool.self, forKey: .external) ?? false
    profile = try c.decodeIfPresent(String.self, forKey: .profile) ?? "apple"
    lockedUntil = try c.decodeIfPresent(Double.self, forKey: .lockedUntil)
    lastDeviceUnlock = try c.decodeIfPresent(Double.self, forKey: .lastDeviceUnlock)
    keychain = try c.decodeIfPresent([String].self, forKey: .keychain)
    failureRun = try c.decodeIfPresent(UInt64.self, forKey: .failureRun) ?? 0
    let times = queuedAt + [lockedUntil, lastDeviceUnlock].compactMap { $0 }
    guard (0...Int(Int32.max)).contains(consecutiveFailures),
      times.allSatisfy({ $0.isFinite && $0 >= 0 }), queuedAt.count <= queue.count
    else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "sensor values out of bounds"))
    }
  }

  /// `counter` plus one.
  ///
  /// - Throws: `VaultError.integrity` naming `field` when it is at its maximum (only a damaged
  ///   state file gets there).
  static func increment<T: FixedWidthInteger>(_ counter: inout T, _ field: String) throws {
    let (next, overflow) = counter.addingReportingOverflow(1)
    guard !overflow else {
      throw VaultError.integrity(.simulatedSensor(.counterAtMaximum(field: field)))
    }
    counter = next
  }

  enum CodingKeys: String, CodingKey {
    case hardware, availability, enrolled, queue, external, profile, keychain
    case enrollmentGeneration = "enrollment_generation"
    case osEpoch = "os_epoch"
    case consecutiveFailures = "consecutive_failures"
    case failureRun = "failure_run"
    case lockedOut = "locked_out"
    case queuedAt = "queued_at"
    case bootID = "boot_id"
    case passcodeSet = "passcode_set"
    case lockedUntil = "locked_until"
    case lastDeviceUnlock = "last_device_unlock"
  }
}
