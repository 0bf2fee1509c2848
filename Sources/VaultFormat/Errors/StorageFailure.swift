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

  // MARK: Records, state, SQLite, entries

  /// SQLite could not open (or create) the database file at `path`; `message` is SQLite's
  /// (`sqlite3_errmsg`, or `out of memory` when it made no connection).
  case databaseNotOpened(path: String, message: String)
  /// A SQLite statement failed (`SQLiteFailure`); the transaction was rolled back.
  case database(SQLiteFailure)
  /// SQLite's online backup into a new file failed (`SQLiteFailure`).
  case backup(SQLiteFailure)
  /// The spool file of a streamed content failed (`SpoolFailure`); nothing was stored.
  case spool(SpoolFailure)
  /// A value the vault writes could not be encoded as JSON.
  case unencodable(EncodedValue)
  /// A new vault file was built, and its first write left no state.
  case newFileWithoutState
  /// A write's new header does not say the rule its chunks' aggregate was summed by; nothing
  /// was written.
  case headerWithoutChunkHash

}

/// A failed SQLite call: SQLite's message and, for a failed write, its likely cause.
public struct SQLiteFailure: Equatable, Sendable {
  /// Why a write failed, as far as the system says (SQLite keeps no errno for a short write).
  public enum WriteCause: Equatable, Sendable {
    /// The file reached the process's file-size limit (`ulimit -f`) of `bytes`.
    case fileSizeLimit(bytes: UInt64)
    /// The file system of the vault's folder has less than 1 MiB free.
    case diskFull
    /// Neither: the write failed for a reason the system does not tell.
    case unknown
  }

  /// SQLite's message (`sqlite3_errmsg`).
  public let message: String
  /// For a failed write, its likely cause; nil for any other failure.
  public let write: WriteCause?

  /// The failure SQLite described as `message`, a write that failed for `write` when given.
  public init(message: String, write: WriteCause? = nil) {
    self.message = message
    self.write = write
  }
}

/// How the spool file of a streamed content failed (`ContentSpool`).
public enum SpoolFailure: Equatable, Sendable {
  /// It could not be made in `folder` (the `errno` of `open`).
  case notMade(folder: String, errno: Int32)
  /// It could not be written (the `errno` of `write`).
  case notWritten(errno: Int32)
  /// It could not be read back.
  case notReadBack
  /// A box length read back is longer than any the spool writes: the file was changed.
  case changed
}

/// A value the vault encodes as JSON before sealing it.
public enum EncodedValue: Equatable, Sendable {
  /// A record's JSON (`JSONEncoder.encodedBytes`).
  case record
  /// A record's body (`EntryStore.encode`).
  case recordBody
  /// A device's sync record.
  case syncRecord
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
