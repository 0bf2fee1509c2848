import CPlatform
import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// The private folder one edit decrypts into: `vault-edit-<pid>-<start>-XXXXXX`, mode 0700, on a
/// RAM-backed file system, holding one 0600 file and whatever the editor adds beside it.
///
/// The name carries the owner's process id and start time (field 22 of `/proc/<pid>/stat`), so a
/// later run can tell a folder whose owner died (SIGKILL, power loss of a laptop that suspends to
/// RAM) from one in use, even after the process id was reused, and remove it.
final class EditFolder {
  static let prefix = "vault-edit-"
  static let tmpfsMagic = 0x0102_1994
  static let ramfsMagic = 0x8584_58F6

  /// The folder's absolute path.
  let path: String

  private init(path: String) { self.path = path }

  /// Where the folder goes: `$XDG_RUNTIME_DIR`, else `/dev/shm`, whichever is a folder on tmpfs
  /// or ramfs; with `allowDisk` and neither, `$TMPDIR` or `/tmp`.
  ///
  /// - Throws: `InputRefused` when there is no RAM-backed folder and `allowDisk` is
  ///   false.
  static func root(_ environment: VaultEnvironment, allowDisk: Bool) throws -> String {
    for candidate in memoryRoots(environment) where isRAMBacked(candidate) {
      return candidate
    }
    let disk = diskRoot(environment)
    guard allowDisk else {
      throw InputRefused(
        "no RAM-backed folder for the plaintext ($XDG_RUNTIME_DIR and /dev/shm are missing or"
          + " not tmpfs); --allow-disk-temp uses \(disk), where it may reach the disk")
    }
    return disk
  }

  private static func memoryRoots(_ environment: VaultEnvironment) -> [String] {
    let runtime = environment.variables["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
    return (runtime.map { [$0] } ?? []) + ["/dev/shm"]
  }

  private static func diskRoot(_ environment: VaultEnvironment) -> String {
    environment.variables["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
  }

  /// True when `path` is a writable folder on tmpfs or ramfs.
  static func isRAMBacked(_ path: String) -> Bool {
    guard access(path, W_OK | X_OK) == 0 else { return false }
    let type = vault_fs_type(path)
    return type == tmpfsMagic || type == ramfsMagic
  }

  /// The file that says an edit folder may be left over, and where: each folder's root is added
  /// to it (one absolute path a line) and its time touched before the folder is made; removed by
  /// `removeStale` once none is found, so that the other commands (each runs `removeStale`) look
  /// in no folder at all.
  static func markerPath(_ environment: VaultEnvironment) -> String {
    environment.stateDirectory + "/edit-folders"
  }

  /// How old the marker must be (seconds) before `removeStale` may remove it: an edit touches
  /// it just before making its folder, which a scan in between would not see yet.
  static let markerGrace = 60

  /// Creates a fresh folder under `root` (`mkdtemp`, mode 0700), after touching the marker.
  ///
  /// - Throws: `CommandFailed` when the marker or the folder cannot be created.
  static func create(in root: String, environment: VaultEnvironment) throws -> EditFolder {
    try PrivateFiles.ensurePrivateDirectory(environment.stateDirectory)
    let marker = markerPath(environment)
    let line = Array((root + "\n").utf8)
    let listed = recordedRoots(marker).contains(root)
    let fd = open(marker, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0, listed || Glibc.write(fd, line, line.count) == line.count,
      futimens(fd, nil) == 0
    else {
      if fd >= 0 { close(fd) }
      throw CommandFailed("cannot write \(marker): \(errnoText())")
    }
    close(fd)
    let identity = processIdentity(getpid()) ?? "0"
    var template = Array("\(root)/\(prefix)\(getpid())-\(identity)-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkdtemp($0) } ?? nil
    }
    guard made != nil else {
      throw CommandFailed("cannot create a private folder in \(root): \(errnoText())")
    }
    let path = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    _ = chmod(path, 0o700)
    return EditFolder(path: path)
  }

  /// Writes `content` to a new 0600 file `name` in the folder and returns its path.
  ///
  /// - Throws: `CommandFailed` on failure.
  func write(_ content: SecureBytes, name: String) throws -> String {
    let file = path + "/" + name
    let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw CommandFailed("cannot create \(file): \(errnoText())") }
    defer { close(fd) }
    var offset = 0
    while offset < content.count {
      let done = offset
      let n = content.withBytes {
        Glibc.write(fd, $0.baseAddress.map { $0 + done }, $0.count - done)
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw CommandFailed("cannot write \(file): \(errnoText())") }
      offset += n
    }
    return file
  }

  /// The file's content after editing, in guarded memory, or nil when the editor removed it.
  ///
  /// - Throws: `CommandFailed` when it cannot be read or is not a regular file.
  func read(_ file: String) throws -> SecureBytes? {
    // Non-blocking, so a FIFO the editor left in its place opens at once and is refused below
    // instead of waiting for a writer forever (reads of a regular file are unaffected).
    let fd = open(file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    if fd < 0 && errno == ENOENT { return nil }
    guard fd >= 0 else { throw CommandFailed("cannot read \(file): \(errnoText())") }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      throw CommandFailed("\(file) is no longer a regular file")
    }
    return try LineReader.readAll(
      fd: fd, atMost: EntryStore.streamThreshold, what: "the text the editor saved")
  }

  /// Removes the folder and everything in it.
  func remove() {
    _ = vault_remove_tree(path)
  }

  /// Removes every `vault-edit-*` folder of this user whose owning process has ended.
  ///
  /// Looks under each place an edit folder can be made here and each root the marker lists, and
  /// only while the marker says one may be there (one `lstat` otherwise); removes the marker when
  /// it finds none of this user's left, the marker is older than `markerGrace`, and it did not
  /// change during the scan. Never fails: a folder that cannot be judged is left alone, and keeps
  /// the marker.
  static func removeStale(_ environment: VaultEnvironment) {
    let marker = markerPath(environment)
    var mark = stat()
    guard lstat(marker, &mark) == 0 else { return }
    let started = time(nil)
    var remaining = false
    // The roots the edits used (a command run with another environment looks there too), and
    // this environment's.
    let roots = Set(
      recordedRoots(marker) + memoryRoots(environment) + [diskRoot(environment)])
    for root in roots {
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else {
        continue
      }
      for name in names where name.hasPrefix(prefix) {
        let path = root + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR,
          info.st_uid == getuid()
        else { continue }
        if !isStale(name) || vault_remove_tree(path) != 0 { remaining = true }
      }
    }
    guard !remaining && mark.st_mtim.tv_sec < started - markerGrace else { return }
    // An edit that began meanwhile touched it (or added its root): it stays.
    var now = stat()
    guard lstat(marker, &now) == 0, now.st_ino == mark.st_ino, now.st_size == mark.st_size,
      now.st_mtim.tv_sec == mark.st_mtim.tv_sec, now.st_mtim.tv_nsec == mark.st_mtim.tv_nsec
    else { return }
    unlink(marker)
  }

  /// The absolute roots listed in the marker (at most its first 64 KiB).
  private static func recordedRoots(_ marker: String) -> [String] {
    guard let bytes = (try? PrivateFiles.read(marker)) ?? nil else { return [] }
    return String(decoding: bytes.prefix(64 * 1024), as: UTF8.self)
      .split(separator: "\n").map(String.init).filter { $0.hasPrefix("/") }
  }

  /// True when the folder name's owner (`<pid>-<start>`) is no longer running.
  private static func isStale(_ name: String) -> Bool {
    let parts = name.dropFirst(prefix.count).split(separator: "-")
    guard parts.count == 3, let pid = pid_t(parts[0]), pid > 0 else { return false }
    if let identity = processIdentity(pid) { return identity != parts[1] }
    return kill(pid, 0) != 0 && errno == ESRCH
  }

  /// The start time of process `pid` in clock ticks after boot, or nil when it cannot be read.
  static func processIdentity(_ pid: pid_t) -> String? {
    guard let bytes = (try? PrivateFiles.read("/proc/\(pid)/stat")) ?? nil else { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    guard let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    return fields.count > 19 ? String(fields[19]) : nil
  }
}

private func errnoText() -> String { String(cString: strerror(errno)) }
