#if canImport(Glibc)
  import Glibc
#endif

/// The ownership and modes vault requires of what it reads and writes, checked as ssh checks a
/// private key: a vault file, the device state or a session that other users could read or
/// replace is refused (`VaultError.unsafePermissions`, exit 19) with the `chmod` that fixes it.
public enum FileSafety {
  /// A folder vault owns by name (the device state, the sessions): a real folder (not a symbolic
  /// link), owned by this user, with no permission for group or others.
  ///
  /// - Throws: `VaultError.unsafePermissions` otherwise; `.storage` when it cannot be inspected.
  public static func checkPrivateFolder(_ path: String) throws {
    let info = try inspect(path, following: false)
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw VaultError.unsafePermissions(UnsafePath(path, .notAFolder))
    }
    guard info.st_uid == geteuid() else {
      throw VaultError.unsafePermissions(UnsafePath(path, .otherUser))
    }
    guard info.st_mode & 0o077 == 0 else {
      throw VaultError.unsafePermissions(UnsafePath(path, .folderUsableByOthers))
    }
  }

  /// A private file (the vault, the device state, a session): after following a symbolic link,
  /// a regular file owned by this user with no permission for group or others, in a folder (the
  /// link's and the file's) that no other user can write to.
  ///
  /// - Throws: `VaultError.unsafePermissions` otherwise; `.storage` when it cannot be inspected.
  public static func checkPrivateFile(_ path: String) throws {
    let link = try inspect(path, following: false)
    try checkFolder(PrivateFiles.parentFolder(of: path))
    var real = path
    if link.st_mode & S_IFMT == S_IFLNK {
      // Every link of a chain is checked where it lies: one in a folder others can write could
      // be pointed elsewhere (verification review of issue 38).
      var current = path
      for _ in 0..<40 {
        var hop = stat()
        guard lstat(current, &hop) == 0 else {
          throw VaultError.storage(.file(.follow, path: path))
        }
        guard hop.st_mode & S_IFMT == S_IFLNK else { break }
        guard let target = linkTarget(current) else {
          throw VaultError.storage(.file(.follow, path: path))
        }
        current =
          target.hasPrefix("/") ? target : PrivateFiles.parentFolder(of: current) + "/" + target
        try checkFolder(PrivateFiles.parentFolder(of: current))
      }
      guard let resolved = realpath(path, nil) else {
        throw VaultError.storage(.file(.follow, path: path))
      }
      real = String(cString: resolved)
      free(resolved)
      try checkFolder(PrivateFiles.parentFolder(of: real))
    }
    let info = try inspect(real, following: true)
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw VaultError.unsafePermissions(UnsafePath(real, .notARegularFile))
    }
    guard info.st_uid == geteuid() else {
      throw VaultError.unsafePermissions(UnsafePath(real, .otherUser))
    }
    guard info.st_mode & 0o077 == 0 else {
      throw VaultError.unsafePermissions(UnsafePath(real, .fileUsableByOthers))
    }
  }

  /// A folder holding a private file: owned by this user or root, and not writable by group or
  /// others, sticky or not: in a shared folder such as /tmp another user can plant a file at a
  /// name SQLite will open beside the vault (its rollback journal), and read or undo changes.
  ///
  /// - Throws: `VaultError.unsafePermissions` otherwise.
  public static func checkFolder(_ path: String) throws {
    let info = try inspect(path, following: true)
    guard info.st_uid == geteuid() || info.st_uid == 0 else {
      throw VaultError.unsafePermissions(UnsafePath(path, .otherUser))
    }
    guard info.st_mode & S_ISVTX == 0 || info.st_mode & 0o022 == 0 else {
      throw VaultError.unsafePermissions(UnsafePath(path, .sharedFolder))
    }
    guard info.st_mode & 0o022 == 0 else {
      throw VaultError.unsafePermissions(UnsafePath(path, .folderWritableByOthers))
    }
  }

  /// A program vault hands a secret to (the `pinentry` of `UserConfig`), as gpg-agent trusts its
  /// `pinentry-program`: after following symbolic links, a regular file owned by this user or
  /// root that group and others cannot write, in folders up to `/` each owned by this user or
  /// root and writable by no one else unless sticky (as `/tmp`, where no one else can rename or
  /// remove it).
  ///
  /// - Returns: the program's real path.
  /// - Throws: `VaultError.unsafePermissions` otherwise; `.storage` when it cannot be inspected
  ///   (it does not exist).
  @discardableResult
  public static func checkTrustedProgram(_ path: String) throws -> String {
    try checkTrustedProgram(path, interpreterDepth: 0)
  }

  private static func checkTrustedProgram(_ path: String, interpreterDepth: Int) throws -> String {
    // Every symbolic link on the way is this user's or root's: a link another user owns (in a
    // sticky /tmp) could be pointed elsewhere between this check and the run.
    try checkLinksOnPath(path, depth: 0)
    guard let resolved = realpath(path, nil) else {
      throw VaultError.storage(.file(.follow, path: path))
    }
    let real = String(cString: resolved)
    free(resolved)
    let info = try inspect(real, following: true)
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw VaultError.unsafePermissions(UnsafePath(real, .notARegularFile))
    }
    guard info.st_uid == geteuid() || info.st_uid == 0 else {
      throw VaultError.unsafePermissions(UnsafePath(real, .otherUser))
    }
    guard info.st_mode & 0o022 == 0 else {
      throw VaultError.unsafePermissions(UnsafePath(real, .programWritableByOthers))
    }
    var folder = PrivateFiles.parentFolder(of: real)
    while true {
      let info = try inspect(folder, following: true)
      guard info.st_uid == geteuid() || info.st_uid == 0 else {
        throw VaultError.unsafePermissions(UnsafePath(folder, .otherUser))
      }
      guard info.st_mode & 0o022 == 0 || info.st_mode & S_ISVTX != 0 else {
        throw VaultError.unsafePermissions(UnsafePath(folder, .folderWritableByOthers))
      }
      let parent = PrivateFiles.parentFolder(of: folder)
      if parent == folder { break }
      folder = parent
    }
    // A script runs its interpreter, which sees what the script is given: the same rule.
    if let interpreter = try interpreter(of: real) {
      guard interpreterDepth < 4 else {
        throw VaultError.unsafePermissions(UnsafePath(interpreter, .notARegularFile))
      }
      _ = try checkTrustedProgram(interpreter, interpreterDepth: interpreterDepth + 1)
    }
    return real
  }

  /// Refuses a symbolic link on `path` (any component, and each link's target in turn) that is
  /// owned by a user other than this one and root.
  ///
  /// - Throws: `VaultError.unsafePermissions`; `.storage` past 40 links.
  private static func checkLinksOnPath(_ path: String, depth: Int) throws {
    guard depth < 40 else { throw VaultError.storage(.file(.follow, path: path)) }
    var prefix = ""
    for component in path.split(separator: "/") {
      prefix += "/" + component
      var info = stat()
      guard lstat(prefix, &info) == 0 else { return }
      guard info.st_mode & S_IFMT == S_IFLNK else { continue }
      guard info.st_uid == geteuid() || info.st_uid == 0 else {
        throw VaultError.unsafePermissions(UnsafePath(prefix, .otherUser))
      }
      var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink(prefix, &target, target.count - 1)
      guard length > 0 else { throw VaultError.storage(.file(.follow, path: prefix)) }
      let text = String(
        decoding: target.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let absolute = text.hasPrefix("/") ? text : PrivateFiles.parentFolder(of: prefix) + "/" + text
      try checkLinksOnPath(absolute, depth: depth + 1)
    }
  }

  /// The interpreter a `#!` line at the start of the file at `path` names, or nil.
  private static func interpreter(of path: String) throws -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw VaultError.storage(.file(.read, path: path)) }
    defer { close(fd) }
    var head = [UInt8](repeating: 0, count: 256)
    let count = read(fd, &head, head.count)
    guard count > 2, head[0] == UInt8(ascii: "#"), head[1] == UInt8(ascii: "!") else {
      return nil
    }
    let line = head[2..<count].prefix { $0 != 10 }
    let words = line.split { $0 == 32 || $0 == 9 }
    guard let first = words.first else { return nil }
    return String(decoding: first, as: UTF8.self)
  }

  /// The folder of a vault file: as `checkFolder`, and not readable by group or others either
  /// (they would see the vault's name and its journal's comings and goings).
  ///
  /// - Throws: `VaultError.unsafePermissions` otherwise.
  public static func checkVaultFolder(_ path: String) throws {
    try checkFolder(path)
    let info = try inspect(path, following: true)
    guard info.st_mode & 0o077 == 0 || info.st_uid == 0 && path == "/" else {
      throw VaultError.unsafePermissions(UnsafePath(path, .folderReadableByOthers))
    }
  }

  /// What the symbolic link at `path` points to, as written in it; nil when it cannot be read.
  private static func linkTarget(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func inspect(_ path: String, following: Bool) throws -> stat {
    var info = stat()
    guard (following ? stat(path, &info) : lstat(path, &info)) == 0 else {
      throw VaultError.storage(.file(.inspect, path: path))
    }
    return info
  }
}
