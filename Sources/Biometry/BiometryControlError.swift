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
}
