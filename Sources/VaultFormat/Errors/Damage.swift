/// What an integrity check found: which stored object failed which check.
///
/// Every case names the object (a record by its id, an entry by its name, a file by its path)
/// and the check it failed; the command line gives the words (`DamageWords`). Thrown as
/// `VaultError.integrity`.
public enum Damage: Equatable, Sendable {
  // MARK: Transfer

  /// The content of the entry `name`, read for an export, has `read` bytes, not the `stored`
  /// length its metadata records.
  case exportedContent(name: String, stored: Int, read: Int)
}
