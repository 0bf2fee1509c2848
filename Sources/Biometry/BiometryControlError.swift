/// Why a `SensorControls` operation (a `biosim` command) was refused; nothing was changed.
public enum BiometryControlError: Error, Equatable, Sendable {
  /// The hardware type is `none`, so nothing can be enrolled.
  case noHardware
  /// No enrolled template has this label.
  case noSuchTemplate(String)
  /// A template with this label is already enrolled.
  case duplicateLabel(String)
  /// A queue count outside 1...100.
  case invalidCount(Int)
  /// A label that is empty, longer than 64 bytes, has control characters or surrounding spaces.
  case invalidLabel(String)

  /// One line for the user, without a program prefix or a final period.
  public var message: String {
    switch self {
    case .noHardware:
      "the simulated device has no biometric hardware; choose one with `biosim hardware`"
    case .noSuchTemplate(let label):
      "no enrolled template is labelled '\(label)'"
    case .duplicateLabel(let label):
      "a template labelled '\(label)' is already enrolled"
    case .invalidCount(let count):
      "the count must be between 1 and \(SensorControls.maximumQueueCount), not \(count)"
    case .invalidLabel(let label):
      "the label \(label.debugDescription) is not valid: use 1 to "
        + "\(SensorControls.maximumLabelBytes) bytes, no control characters, "
        + "no leading or trailing spaces"
    }
  }
}
