/// One file that differs between two commits of a sync repository: its blob in each (nil where
/// it is absent).
public struct SyncTreeChange: Equatable, Sendable {
  /// The file's path in the tree.
  public var path: String
  /// Its blob id in the older commit, nil when it was added.
  public var oldBlob: String?
  /// Its blob id in the newer commit, nil when it was removed.
  public var newBlob: String?
  /// Its git mode in the newer commit (six octal digits; `100644` for a plain file, which is
  /// all vault writes).
  public var newMode: String

  /// A change of `path` from `oldBlob` to `newBlob`, of mode `newMode` after it.
  public init(path: String, oldBlob: String?, newBlob: String?, newMode: String = "100644") {
    self.path = path
    self.oldBlob = oldBlob
    self.newBlob = newBlob
    self.newMode = newMode
  }
}

/// What `VaultSync` needs of the repository that carries the vault (git, run by vault(1)): the
/// remote's commit, the files of commits and their differences, a new commit, and a push.
///
/// Commits and blobs are named by their ids (hex). Every method throws `VaultError.syncFailed`
/// when the repository or the remote fails.
public protocol SyncRepository: AnyObject {
  /// Fetches the remote's branch.
  ///
  /// - Returns: its commit, nil when the remote has none yet.
  func fetch() throws -> String?
  /// The files of `commit` under any of `folders` (paths that start with a folder and "/"),
  /// with their blob ids.
  func files(of commit: String, under folders: [String]) throws -> [(path: String, blob: String)]
  /// The blob ids of those of `paths` that `commit` has.
  func blobs(of commit: String, paths: [String]) throws -> [String: String]
  /// The files that differ from `old` (nil: the empty tree) to `new`.
  func changes(from old: String?, to new: String) throws -> [SyncTreeChange]
  /// The bytes of each blob of `blobs`, by id.
  func read(_ blobs: [String]) throws -> [String: [UInt8]]
  /// The size in bytes of each blob of `blobs`, by id, read without the bytes.
  func sizes(_ blobs: [String]) throws -> [String: Int]
  /// Makes a commit after `parent` (nil: the first), with every file of the parent (none when
  /// `replacingAll`), less `removing`, with `writing`.
  ///
  /// - Returns: the commit's id.
  func commit(
    after parent: String?, replacingAll: Bool, writing: [(path: String, bytes: [UInt8])],
    removing: [String]
  ) throws -> String
  /// Keeps `commit`, made by `commit(after:…)` and not pushed, from git's garbage collection
  /// (the base of a rotation taken from another device), in place of any kept before.
  func keep(_ commit: String) throws
  /// The commit `keep` kept last, nil when none.
  func kept() throws -> String?
  /// Notes `commit`, made by `commit(after:…)`, as the one this device is about to push (nil:
  /// forgets the note), before the push: a sync killed once its push reached the remote is
  /// then recognised by the next one as this device's own.
  func notePush(_ commit: String?) throws
  /// The commit `notePush` noted last, nil when none.
  func notedPush() throws -> String?
  /// The first parent of `commit`, nil for a commit without one.
  func parent(of commit: String) throws -> String?
  /// True when `ancestor` is `commit` or one of its ancestors (`git merge-base
  /// --is-ancestor`); false also when the repository does not hold `ancestor`.
  func isAncestor(_ ancestor: String, of commit: String) throws -> Bool
  /// Runs `body` holding the repository's sync lock: one sync of a vault at a time on this
  /// device, across processes; another waits for it to end.
  ///
  /// - Throws: `VaultError.storage` when the lock cannot be taken; what `body` throws.
  func exclusively<R>(_ body: () throws -> R) throws -> R
  /// Pushes `commit` to the remote's branch without force.
  ///
  /// - Returns: `.moved` when the remote refused it because its branch moved since `expected`
  ///   (nil: it had none); `.locked` when a lock file of git's on the remote was in the way.
  func push(_ commit: String, over expected: String?) throws -> PushOutcome
}

/// How a push ended, when git did not fail outright.
public enum PushOutcome: Equatable, Sendable {
  /// The remote's branch is the commit now.
  case pushed
  /// The remote's branch moved since the commit was made on it: merge again.
  case moved
  /// A lock file of git's on the remote was in the way (`path` as git named it, `age` its age
  /// in seconds when this device can read it, as on a path or a shared disk): another push
  /// holding it now, or one killed on the remote's side that left it behind.
  case locked(path: String, age: Double?)
}
