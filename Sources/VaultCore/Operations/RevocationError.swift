/// Why a device could not be revoked; nothing was revoked.
public enum RevocationError: Error, Equatable, Sendable {
  /// The header has enrollments, so a revocation is signed by the recovery code in force, and
  /// none was given.
  case codeInForceNeeded
  /// The header records `maximum` revoked devices already (`Header.maximumRevokedDevices`).
  case revokedDevicesFull(maximum: Int)
  /// The header holds `maximum` retired writer keys already (`Header.maximumRetiredWriters`).
  case retiredWritersFull(maximum: Int)
}
