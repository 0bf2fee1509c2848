import FoundationEssentials
import Glibc
import VaultCrypto

/// Owner-only files and folders, written atomically and durably.
///
/// Folders are 0700 and files 0600 regardless of the umask; a write goes to a fresh temporary file
/// in the same folder (`.NAME.tmp-` and 32 random hex digits, created with `O_EXCL`), is
/// `fsync`ed, renamed over the target, and the folder is `fsync`ed, so a crash leaves either the
/// old or the new content, never a mix. A process killed before its rename leaves its temporary
/// file behind: `removeTemporaries(of:)`, run under the lock every writer takes, removes them.
public enum PrivateFiles {
  /// Creates `path` and its missing parents with mode 0700.
  ///
  /// Folders it creates are 0700 whatever the umask; existing folders are left as they are.
  ///
  /// - Throws: `VaultError.storage` when a component cannot be created.
  public static func ensureDirectory(_ path: String) throws {
    var info = stat()
    if stat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw VaultError.storage(.notAFolder(path: path))
      }
      // An existing folder is the user's (it may be /tmp): never change its mode.
      return
    }
    let parent = parentFolder(of: path)
    if parent != path && parent != "." { try ensureDirectory(parent) }
    if mkdir(path, 0o700) != 0 {
      if errno == EEXIST { return }
      throw VaultError.storage(.file(.create, path: path))
    }
    _ = chmod(path, 0o700)
  }

  /// The folder part of `path`: "." when there is none, "/" for a file at the root.
  ///
  /// Not `NSString.deletingLastPathComponent`, which crashes on some one-character paths in
  /// swift-corelibs-foundation.
  public static func parentFolder(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
  }

  /// A folder that vault owns by name (the device state, the sessions): created 0700 when
  /// missing; an existing one must pass `FileSafety.checkPrivateFolder`.
  ///
  /// - Throws: `VaultError.unsafePermissions` when it is a link, not a folder, another user's, or
  ///   usable by others; `.storage` when it cannot be made.
  public static func ensurePrivateDirectory(_ path: String) throws {
    try ensureDirectory(path)
    try FileSafety.checkPrivateFolder(path)
  }

  /// Replaces `path` with `bytes` atomically and durably, mode 0600; `beforeRename` runs once the
  /// temporary file is complete (a test's crash point).
  ///
  /// - Throws: `VaultError.storage` on any I/O failure; the old file is then left untouched.
  public static func atomicWrite(
    _ bytes: [UInt8], to path: String, beforeRename: () -> Void = {}
  ) throws {
    let folder = parentFolder(of: path)
    let (fd, tempPath) = try createTemporary(beside: path)
    var ok = fchmod(fd, 0o600) == 0
    var written = 0
    while ok && written < bytes.count {
      let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { ok = false } else { written += n }
    }
    ok = ok && fsync(fd) == 0
    close(fd)
    if ok { beforeRename() }
    guard ok, rename(tempPath, path) == 0 else {
      let code = errno
      unlink(tempPath)
      throw VaultError.storage(.file(.write, path: path, errno: code))
    }
    syncDirectory(folder)
  }

  /// The start of the names of `path`'s temporary files: `.NAME.tmp-`, in its folder.
  static func temporaryPrefix(of path: String) -> String {
    let name = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? Substring(path)
    return "." + name + ".tmp-"
  }

  /// Creates a new temporary file beside `path`, named by `temporaryPrefix(of:)` and 16 bytes
  /// from `randombytes_buf` in hex, with `O_CREAT|O_EXCL|O_NOFOLLOW` and mode 0600.
  ///
  /// - Returns: the descriptor, open for writing, and the file's path.
  /// - Throws: `VaultError.storage` when no such file can be created.
  static func createTemporary(beside path: String) throws -> (Int32, String) {
    let folder = parentFolder(of: path)
    let prefix = folder + "/" + temporaryPrefix(of: path)
    var tries = 0
    while true {
      let name = prefix + SecureRandom.bytes(count: 16).hex
      let fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      if fd >= 0 { return (fd, name) }
      tries += 1
      // A name of 128 random bits already taken is no coincidence: a few more, then give up.
      if (errno == EEXIST || errno == EINTR) && tries < 8 { continue }
      throw VaultError.storage(.file(.writeIn, path: folder))
    }
  }

  /// Removes the temporary files of `path` that a killed writer left (`.NAME.tmp-*`) and, with
  /// `legacy`, those of releases up to 0.11.0 (`.tmp-` and six characters, `mkstemp`'s names),
  /// which only `path` was written through in its folder.
  ///
  /// Only under the lock that every writer of `path` holds, so none of them is in use. Best
  /// effort: a file that cannot be removed is left for the next time.
  public static func removeTemporaries(of path: String, legacy: Bool) {
    let folder = parentFolder(of: path)
    let prefix = temporaryPrefix(of: path)
    guard let stream = opendir(folder) else { return }
    defer { closedir(stream) }
    let descriptor = dirfd(stream)
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      let ours = name.hasPrefix(prefix) && name.utf8.count > prefix.utf8.count
      let older = legacy && name.hasPrefix(".tmp-") && name.utf8.count == 11
      if ours || older { unlinkat(descriptor, name, 0) }
    }
  }

  /// `fsync`s a folder so that a rename or unlink in it survives a crash.
  public static func syncDirectory(_ path: String) {
    let dfd = open(path, O_RDONLY | O_DIRECTORY)
    if dfd >= 0 {
      fsync(dfd)
      close(dfd)
    }
  }

  /// Reads a whole file, or nil when it does not exist.
  ///
  /// Through a 16 KiB buffer on the stack (no zeroed heap buffer for the small files every
  /// command reads), wiped before it returns, since such a file may hold the device secret.
  ///
  /// - Throws: `VaultError.storage` when it exists but cannot be read.
  public static func read(_ path: String) throws -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw VaultError.storage(.file(.read, path: path))
    }
    defer { close(fd) }
    var out: [UInt8] = []
    try withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 16) { buffer in
      var used = 0
      defer { if let base = buffer.baseAddress { secureWipe(base, count: used) } }
      while true {
        let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { throw VaultError.storage(.file(.read, path: path)) }
        if n == 0 { break }
        used = max(used, n)
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
      }
    }
    return out
  }

  /// Takes an exclusive `flock` on `path` (created 0600 if missing) for the duration of `body`.
  ///
  /// - Throws: `VaultError.storage` when the lock file cannot be opened; rethrows `body`'s error.
  public static func withExclusiveLock<R>(_ path: String, _ body: () throws -> R) throws -> R {
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw VaultError.storage(.file(.lock, path: path)) }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      if errno != EINTR { throw VaultError.storage(.file(.lock, path: path)) }
    }
    defer { flock(fd, LOCK_UN) }
    return try body()
  }
}
