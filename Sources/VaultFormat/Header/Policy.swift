/// What a vault asks for before it releases its master key.
///
/// Stored in the header as `"pin+biometry"` or `"pin"`; any other value is a malformed header.
public enum Policy: String, Codable, Sendable, CaseIterable {
  /// The PIN and a biometric match whose domain state equals the sealed one.
  case pinAndBiometry = "pin+biometry"
  /// The PIN alone (`vault init --no-biometry`).
  case pinOnly = "pin"

  /// True when a biometric match is needed.
  public var requiresBiometry: Bool { self == .pinAndBiometry }
}

/// Whether biometric unlock works, as recorded in the header's `biometry.state`.
public enum BiometryState: String, Codable, Sendable, CaseIterable {
  /// Sealed to a domain state; a match against it is required.
  case active
  /// Turned off by a mismatch (or a recovery on another device) until re-activation.
  case disabled
}
