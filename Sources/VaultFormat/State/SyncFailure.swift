/// Why a sync could not talk to the remote or git (`VaultError.syncFailed`, exit 21; nothing was
/// merged): the fact, which the command line words.
public enum SyncFailure: Equatable, Sendable {
  /// The vault's devices are not enrolled with its recovery code yet (a vault made before
  /// release 0.10.0).
  case notEnrolled
  /// git's lock file `path` (made `age` seconds ago, when known) is in the way on the remote;
  /// `rotating` when a rotation was being published (nothing was rotated).
  case lockInTheWay(path: String, age: Double?, rotating: Bool)
  /// The remote moved `retries` times while this device merged.
  case remoteKeptMoving(retries: Int)
  /// git did not give a file the sync asked for: `file` is its path or the start of its blob id.
  case fileNotGiven(file: String)
  /// git did not give the state file.
  case stateFileNotGiven
  /// The remote holds no vault yet (no branch `vault`).
  case noVaultBranch
  /// The vault is not set up for sync: no sync repository at `repository`.
  case notSetUp(repository: String)
  /// `git` is not on `PATH`.
  case gitNotFound
  /// `git COMMAND` exited with `status`; `reason` is its first `fatal:` or `error:` line, or
  /// its first line (empty when it printed none).
  case gitFailed(command: String, status: Int32, reason: String)
}
