import VaultFormat

/// A member of a JSON object that a format's reader expects and did not find as it needs it.
public enum JSONMemberFault: Equatable, Sendable {
  /// The required member `name` is missing (or null).
  case missing(String)
  /// The member `name` is of `kind`, not a string.
  case notAString(String, GuardedJSON.Kind)
}
