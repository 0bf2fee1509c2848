/// What the biometric side of a vault is, as far as can be told without its key.
public enum BiometryStatus: Equatable, Sendable {
  /// A PIN-only vault.
  case off
  /// The policy needs biometry, and it was never activated.
  case notActivated
  /// Sealed to a domain state.
  case active(since: String)
  /// Disabled (in the header, or on this device before the header could say so).
  case disabled(since: String, reason: String)
}
