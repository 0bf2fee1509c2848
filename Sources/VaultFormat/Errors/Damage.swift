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

  // MARK: Sync

  /// A record or content file of the sync repository, at `path` in its tree, is damaged.
  case syncFile(path: String, SyncFileDamage)
  /// The sync repository's state file is damaged or belongs to another vault.
  case syncState(SyncStateDamage)
  /// A content a record of the vault names has no chunks in the vault (met when a sync pushes
  /// it).
  case contentWithoutChunks
  /// A HOTP counter record opened, but its body holds no counter value (met when a sync merges
  /// it).
  case malformedCounter
}
