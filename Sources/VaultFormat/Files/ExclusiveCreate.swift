import FoundationEssentials
import Glibc
import VaultCrypto

extension Vault {
  /// Runs `body`, returning its result and the seconds of CPU time this process spent in it
  /// (`CLOCK_PROCESS_CPUTIME_ID`: what a guess costs one core, whatever else the machine does).
  package static func timed<R>(_ body: () throws -> R) rethrows -> (R, Double) {
    func now() -> Double {
      var spec = timespec()
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
      return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
    let start = now()
    let result = try body()
    return (result, now() - start)
  }

  /// Builds a file under a temporary name beside `path` with `build`, and links it into place
  /// only when complete: a failure leaves nothing, and an existing file is never overwritten.
  ///
  /// The temporary name is unpredictable and created with `O_CREAT | O_EXCL | O_NOFOLLOW`, mode
  /// 0600, owned by this user; after `build` it must still be that same file (device and inode),
  /// so no file another user planted or swapped in a shared folder is ever used or published.
  ///
  /// - Throws: `VaultError.vaultExists` when `path` exists, `.storage` on failure.
  package static func createExclusively(_ path: String, build: (String) throws -> Void) throws {
    let folder = PrivateFiles.parentFolder(of: path)
    let name = String(path.split(separator: "/").last ?? "vault")
    let temporary =
      (folder == "." ? "" : (folder == "/" ? "/" : folder + "/")) + "." + name + ".creating-"
      + SecureBytes.random(count: 12).unprotectedBytes.hex
    let fd = Glibc.open(temporary, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw VaultError.storage(.file(.create, path: path)) }
    defer { close(fd) }
    var created = stat()
    guard fstat(fd, &created) == 0, created.st_uid == geteuid(), fchmod(fd, 0o600) == 0 else {
      unlink(temporary)
      throw VaultError.storage(.privateFileNotMade(beside: path))
    }
    do {
      try build(temporary)
    } catch {
      unlink(temporary)
      // A failure of the build is said of `path`, not of the temporary name.
      switch VaultError(error) {
      case .storage(let failure)?:
        throw VaultError.storage(.building(path: path, temporary: temporary, failure))
      default: throw error
      }
    }
    var built = stat()
    guard lstat(temporary, &built) == 0, built.st_mode & S_IFMT == S_IFREG,
      built.st_dev == created.st_dev, built.st_ino == created.st_ino, built.st_uid == geteuid()
    else {
      throw VaultError.storage(.builtFileReplaced(beside: path))
    }
    guard link(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      if code != EEXIST { throw VaultError.storage(.file(.create, path: path, errno: code)) }
      throw VaultError.vaultExists(path)
    }
    unlink(temporary)
    PrivateFiles.syncDirectory(folder)
  }
}
