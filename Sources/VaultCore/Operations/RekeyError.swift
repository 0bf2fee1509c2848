/// Why the master key could not be rotated; nothing was changed.
public enum RekeyError: Error, Equatable, Sendable {
  /// Other devices take the new key by the recovery code in force, and none was given.
  case codeInForceNeeded
  /// The journal holds entries signed by more retired writer keys than the header keeps
  /// (`maximum`, `Header.maximumRetiredWriters`).
  case retiredWritersInUse(maximum: Int)
}
