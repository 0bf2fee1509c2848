/// Why a key handoff (`vault(5)` Taking a rotation) gives this device no key, as facts the
/// command line words.
public enum HandoffError: Error, Equatable, Sendable {
  /// The rotated master key is sealed to no key of this device: another device revoked it, or
  /// its PIN was set anew with the recovery code since its last sync.
  case notSealedToThisDevice
}
