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
  /// The sensor holds as many templates as its type allows (Touch ID 5, Face ID 2, Optic ID 1).
  case enrollmentFull(BiometryType, limit: Int)
  /// Enrolling needs a device passcode, which is not set.
  case passcodeNotSet
  /// Only a removable (external) sensor can be disconnected or not paired.
  case notExternal(SensorAvailability)
  /// The device cannot be unlocked with biometry now: the error a preflight gives.
  case cannotUnlockDevice(LAError)
}
