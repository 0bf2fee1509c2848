/// Why the vault header could not be read: which field is missing, unknown or out of bounds.
///
/// Thrown as `VaultError.malformedHeader`; the command line gives the words (`HeaderWords`).
public enum HeaderFault: Equatable, Sendable {
  // MARK: Records, state, SQLite, entries

  /// The base64 field `field` does not decode, or not to the length it must have.
  case invalidBase64(field: String)
}
