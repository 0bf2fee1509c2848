/// Why the simulated sensor refused a call for what the caller gave it (not for its stored
/// state, which is the device state's damage); nothing was asked.
public enum BiometryError: Error, Equatable, Sendable {
  /// An evaluation was asked with an empty reason (the prompt's text), as `LAContext` refuses it.
  case emptyReason
}
