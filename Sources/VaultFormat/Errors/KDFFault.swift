/// Why the header's Argon2id parameters or a salt are refused (`HeaderFault.kdf`).
public enum KDFFault: Equatable, Sendable {
  /// A salt has `found` bytes, not `expected`.
  case saltLength(expected: Int, found: Int)
  /// The cost `parameter` (`opslimit` or `memlimit`) is `value`, outside libsodium's bounds.
  case outOfBounds(parameter: String, value: UInt64)
  /// The profile `profile` names other values than the header's.
  case profileMismatch(profile: String)
}
