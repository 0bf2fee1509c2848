/// What is wrong with a record or content file of the sync repository.
///
/// The sync repository's files are specified in `vault(5)` SYNC REPOSITORY, so their damage is
/// a `Damage` of the vault's stored bytes: a sync reports it as a refused remote when the file
/// came from the remote, and as an integrity failure when it is the base this device synced.
public enum SyncFileDamage: Equatable, Sendable {
  /// The file opened, but what it holds is not laid out as vault writes it.
  case malformed
  /// The file ends before the lengths it states.
  case truncated
  /// The record it holds is of a kind no device syncs (a sync record, or no known kind): the
  /// kind's number.
  case unsyncedKind(Int64)
  /// The record it holds is not at the path its record id and bucket give.
  case anotherRecord
}

/// What is wrong with the state file of the sync repository (`vault(5)` SYNC REPOSITORY).
///
/// A `Damage` for the same reason as `SyncFileDamage`: the state file is one of the vault's
/// stored files.
public enum SyncStateDamage: Equatable, Sendable {
  /// It has no magic, or its public part is too long or does not parse.
  case notAStateFile
  /// Its public part names another vault.
  case anotherVault
  /// Its sealed body opened but does not parse.
  case malformed
}
