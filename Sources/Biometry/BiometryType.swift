/// The kind of biometric sensor on the simulated device, as `LABiometryType` models it.
///
/// Raw values are the spellings used by `biosim hardware` and stored in `SensorState.hardware`:
/// `none`, `touch-id`, `face-id`, `optic-id`.
public enum BiometryType: String, CaseIterable, Sendable {
  /// No biometric hardware.
  case none
  /// A fingerprint sensor.
  case touchID = "touch-id"
  /// A face scanner.
  case faceID = "face-id"
  /// An iris scanner.
  case opticID = "optic-id"

  /// Match attempts one evaluation allows before it ends: Touch ID 3, Face ID and Optic ID 2,
  /// none 0 (Apple's prompt behaviour).
  public var attemptsPerEvaluation: Int {
    switch self {
    case .none: 0
    case .touchID: 3
    case .faceID, .opticID: 2
    }
  }

  /// Human-readable name: `Touch ID`, `Face ID`, `Optic ID` or `none`.
  public var displayName: String {
    switch self {
    case .none: "none"
    case .touchID: "Touch ID"
    case .faceID: "Face ID"
    case .opticID: "Optic ID"
    }
  }

  /// The `LABiometryType` raw value (0, 1, 2, 4); one byte of the domain-state input.
  public var code: UInt8 {
    switch self {
    case .none: 0
    case .touchID: 1
    case .faceID: 2
    case .opticID: 4
    }
  }

  /// What the sensor reads, and the prefix of a default template label: `finger`, `face` or
  /// `iris`.
  public var templateWord: String { templateNoun }

  /// Prefix of the default template label: `finger`, `face` or `iris`.
  var templateNoun: String {
    switch self {
    case .none, .touchID: "finger"
    case .faceID: "face"
    case .opticID: "iris"
    }
  }
}
