#if canImport(Glibc)
  import Glibc
#endif

/// Which file or database operation failed, on what, and the system's reason.
///
/// Thrown as `VaultError.storage`; the command line gives the words (`StorageWords`).
public enum StorageFailure: Equatable, Sendable {
  /// A system call on a file or folder failed: `operation` on `path`, with the `errno` it set.
  case file(FileOperation, path: String, errno: Int32)

  /// `.file(operation, path: path)` with the `errno` the last system call set.
  public static func file(_ operation: FileOperation, path: String) -> StorageFailure {
    .file(operation, path: path, errno: Glibc.errno)
  }

  // MARK: Header, keyslots, devices, files, format 1, biometry

  /// `path` exists and is not a folder, where a folder is to be made.
  case notAFolder(path: String)
  /// The vault header could not be encoded as JSON.
  case headerNotEncodable
  /// The temporary file made beside `path` (to build it) is not this user's, or its mode could
  /// not be set.
  case privateFileNotMade(beside: String)
  /// The file built beside `path` under a temporary name was replaced while it was built;
  /// nothing was made.
  case builtFileReplaced(beside: String)
  /// `failure` happened while `path` was built under the temporary name `temporary`: said of
  /// `path`, as if it had happened there.
  indirect case building(path: String, temporary: String, StorageFailure)
  /// The simulated sensor's state could not be encoded into the device state.
  case sensorStateNotEncodable
  /// Argon2id could not allocate its memory (`mebibytes` MiB).
  case kdfOutOfMemory(mebibytes: UInt64)
  /// Guarded memory of `bytes` bytes could not be had.
  case outOfMemory(bytes: Int)

  // MARK: Core, agent, journal

  /// The session folder `folder` could not be moved out of the way to revoke its sessions
  /// (`rename`, with the `errno` it set).
  case sessionsNotRevoked(folder: String, errno: Int32)
}

/// An operation on a file or folder, named by the verb its failure is reported with.
public enum FileOperation: String, Equatable, Sendable {
  /// Reading a file.
  case read
  /// Writing a file.
  case write
  /// Creating a file or folder.
  case create
  /// Opening a file.
  case open
  /// Taking a file's lock.
  case lock
  /// Reading a path's status (`lstat`, `fstat`).
  case inspect
  /// Following a symbolic link.
  case follow
  /// Making a file in a folder (the path is the folder's).
  case writeIn = "write in"
}
