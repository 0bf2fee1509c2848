import CPlatform
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// A file of secrets the user asked for (`vault inject --output`, `vault export --output`): mode
/// 0600, complete or absent.
///
/// The bytes go into an unnamed file (`O_TMPFILE`) in the target's folder, which gets its name
/// only when written and synced: a process killed while writing leaves nothing, and without
/// `replacing` the name is taken with `linkat`, which fails when anything is there, so a file
/// made at the path meanwhile is never overwritten. Replacing removes a regular file, then links
/// the new one in its place. Where the file system has no unnamed files, a named temporary file
/// is used, with signals held until it is linked or removed (SIGKILL can still leave it behind
/// there).
enum OutputFile {
  /// Writes `bytes` to `path`, every signal that can be blocked held until it is done.
  ///
  /// - Throws: `InputRefused` when `path` exists and `replacing` is false, or exists
  ///   and is not a regular file; `CommandFailed` on an I/O failure (nothing is left at `path` then).
  static func write(_ bytes: [UInt8], to path: String, replacing: Bool) throws {
    try SignalHold.during {
      try writing(to: path, replacing: replacing) { write in
        try bytes.withUnsafeBytes { try write($0) }
      }
    }
  }

  /// Runs `body` with a function that appends bytes to the new file, then gives the file its
  /// name at `path` (a file made piece by piece, such as an export, in constant memory).
  ///
  /// When `body` throws, nothing is left at `path` and nothing is replaced. The unnamed file
  /// needs no signal held while it is written (a process killed leaves nothing); the signals a
  /// user or a service manager sends are held while it is linked into place, and, where a named
  /// temporary file stands in, from its creation on.
  ///
  /// - Throws: as `write(_:to:replacing:)`; what `body` throws.
  static func writing(
    to path: String, replacing: Bool,
    _ body: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    var info = stat()
    if lstat(path, &info) == 0 {
      guard replacing else {
        throw exists(path)
      }
      guard info.st_mode & S_IFMT == S_IFREG else {
        throw InputRefused("\(path) is not a regular file; refusing to replace it")
      }
    }
    let folder = PrivateFiles.parentFolder(of: path)
    let fd = vault_open_unnamed(folder)
    if fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL) {
      try SignalHold.during(SignalHold.interrupts) {
        try writeNamed(to: path, folder: folder, replacing: replacing, body)
      }
      return
    }
    guard fd >= 0 else { throw failure(path) }
    defer { close(fd) }
    try body { try fill(fd, $0, path: path) }
    guard fsync(fd) == 0 else { throw failure(path) }
    try SignalHold.during(SignalHold.interrupts) {
      if !replacing {
        guard vault_link_unnamed(fd, path) == 0 else {
          if errno == EEXIST {
            throw exists(path)
          }
          throw failure(path)
        }
      } else {
        // The old file goes, then the new one takes its name: never a named copy beside it.
        guard unlink(path) == 0 || errno == ENOENT else { throw failure(path) }
        guard vault_link_unnamed(fd, path) == 0 else {
          if errno == EEXIST {
            throw exists(path)
          }
          throw failure(path)
        }
      }
      PrivateFiles.syncDirectory(folder)
    }
  }

  /// Refuses an output path in a folder that is missing or not writable, or that is one of
  /// vault's own files, which a written file would replace or sit among: the vault file, its
  /// journal and SQLite's other side files (`-wal`, `-shm`), the device state and its lock (by
  /// file, so a link or another name for one that exists is caught, and by name, for one that
  /// does not: SQLite takes a file at its journal's name as its own at the next open), the
  /// device-state and session folders' own names, and anything in them.
  ///
  /// - Throws: `InputRefused` naming what `path` is or why its folder is refused
  ///   (exit 5); nothing was written.
  static func refuseOwnFiles(_ path: String, vaultPath: String, environment: VaultEnvironment)
    throws
  {
    let state = environment.stateDirectory
    let journal = "the vault's journal"
    let own: [(String, String)] = [
      (vaultPath, "the vault file itself"), (vaultPath + "-journal", journal),
      (vaultPath + "-wal", journal), (vaultPath + "-shm", journal),
      (vaultPath + FormatOneMigration.copySuffix, "the copy a format upgrade keeps of the vault"),
      (state + "/device.json", "vault's device state"),
      (state + "/device.lock", "vault's device lock"),
      (state, "vault's device-state folder"),
      (environment.sessionDirectory, "vault's session folder"),
    ]
    var target = stat()
    if stat(path, &target) == 0 {
      for (file, what) in own {
        var info = stat()
        if stat(file, &info) == 0 && info.st_dev == target.st_dev && info.st_ino == target.st_ino {
          throw refusal(path, what)
        }
      }
    }
    // The folder must be there to write in: said before any prompt, not after the PIN.
    let parent = PrivateFiles.parentFolder(of: path)
    var folderInfo = stat()
    guard stat(parent, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR,
      access(parent, W_OK | X_OK) == 0
    else {
      throw InputRefused(
        "\(path) cannot be made: \(parent) is not a folder this user can write in; nothing was"
          + " written")
    }
    guard let resolved = resolvedName(path) else { return }
    for (file, what) in own where resolvedName(file) == resolved { throw refusal(path, what) }
    // A new file in one of vault's private folders (its device state, its sessions).
    guard let folder = realFolder(parent) else { return }
    for (own, what) in [
      (state, "vault's device-state folder"),
      (environment.sessionDirectory, "vault's session folder"),
    ] {
      guard let own = realFolder(own) else { continue }
      if folder == own || folder.hasPrefix(own + "/") { throw refusal(path, "in " + what) }
    }
  }

  /// `path` with its folder resolved (links, `..`), whether or not the file itself exists; nil
  /// when the folder cannot be resolved.
  private static func resolvedName(_ path: String) -> String? {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    let name = trimmed.split(separator: "/").last.map(String.init) ?? String(trimmed)
    guard let folder = realFolder(PrivateFiles.parentFolder(of: String(trimmed))) else {
      return nil
    }
    return (folder == "/" ? "" : folder) + "/" + name
  }

  private static func refusal(_ path: String, _ what: String) -> InputRefused {
    InputRefused(
      "\(path) is \(what), which the output would replace or damage; nothing was written")
  }

  /// The canonical path of the folder `path`, or nil when it cannot be resolved.
  private static func realFolder(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The refusal of a path that exists, without `--force`.
  static func exists(_ path: String) -> InputRefused {
    InputRefused("\(path) exists; give --force to replace it")
  }

  private static func failure(_ path: String) -> CommandFailed {
    CommandFailed("cannot write \(path): \(String(cString: strerror(errno)))")
  }

  /// Writes every byte to `fd`.
  private static func fill(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
    guard let base = bytes.baseAddress else { return }
    var written = 0
    while written < bytes.count {
      let n = Glibc.write(fd, base + written, bytes.count - written)
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw failure(path) }
      written += n
    }
  }

  /// The fallback without unnamed files: a named temporary file, renamed over `path` or linked
  /// to it (which fails when `path` exists), and removed on every failure.
  private static func writeNamed(
    to path: String, folder: String, replacing: Bool,
    _ body: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Void
  ) throws {
    let temporary = "\(folder)/.vault-\(SecureBytes.random(count: 8).unprotectedBytes.hex)"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw failure(path) }
    defer { unlink(temporary) }
    do {
      defer { close(fd) }
      try body { try fill(fd, $0, path: path) }
      guard fsync(fd) == 0 else { throw failure(path) }
    }
    if replacing {
      guard rename(temporary, path) == 0 else { throw failure(path) }
    } else {
      guard link(temporary, path) == 0 else {
        if errno == EEXIST {
          throw exists(path)
        }
        throw failure(path)
      }
    }
    PrivateFiles.syncDirectory(folder)
  }
}
