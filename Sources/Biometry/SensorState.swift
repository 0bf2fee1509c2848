import VaultCore

/// The simulated biometric device's persistent state: the `sensor` section of the device state,
/// which only this module reads.
///
/// Plain data: the behaviour (preflight, evaluation, controls) lives beside it. The stored key
/// names are fixed: release 0.1.0 wrote them, and the domain state is computed from these values.
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
  /// `available`, `unavailable` or `disconnected`.
  public var availability: String = "available"
  /// The enrolled set.
  public var enrolled: [Template] = []
  /// Increases by one on every enrollment change; never decreases.
  public var enrollmentGeneration: UInt64 = 1
  /// Increases on `biosim os-upgrade` only.
  public var osEpoch: UInt32 = 1
  /// Consecutive failed matches across evaluations.
  public var consecutiveFailures: Int = 0
  /// True after five consecutive failures until the PIN (device credential) is verified.
  public var lockedOut: Bool = false
  /// Scripted outcomes, answered first-in first-out.
  public var queue: [String] = []

  /// A new device: touch-id hardware, available, nothing enrolled.
  public init() {}

  /// Decodes a stored sensor, refusing a failure count no evaluation could have reached.
  ///
  /// - Throws: `DecodingError.dataCorrupted` for a count outside 0...2³¹−1.
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
    guard (0...Int(Int32.max)).contains(consecutiveFailures) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "failure count out of bounds"))
    }
  }

  /// `counter` plus one.
  ///
  /// - Throws: `VaultError.integrity` naming `field` when it is at its maximum (only a damaged
  ///   state file gets there).
  static func increment<T: FixedWidthInteger>(_ counter: inout T, _ field: String) throws {
    let (next, overflow) = counter.addingReportingOverflow(1)
    guard !overflow else {
      throw VaultError.integrity("the simulated sensor's \(field) is at its maximum")
    }
    counter = next
  }

  enum CodingKeys: String, CodingKey {
    case hardware, availability, enrolled, queue
    case enrollmentGeneration = "enrollment_generation"
    case osEpoch = "os_epoch"
    case consecutiveFailures = "consecutive_failures"
    case lockedOut = "locked_out"
  }
}
