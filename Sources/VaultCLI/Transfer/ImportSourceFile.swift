import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultTransfer

/// The source of `vault import`, a file or standard input (`-`), read whole into guarded memory,
/// or (a `vault` export in a regular file) read in order as often as the import reads it.
public enum ImportSourceFile {
  /// The largest source read (256 MiB): an export past it is refused before it is read whole.
  public static let maximumByteCount = 256 * 1024 * 1024

  /// `maximumByteCount` in words, for messages and the manual.
  public static let maximumText = "256 MiB"

  /// The bytes of `path`, or of standard input for `-`.
  ///
  /// - Throws: `InputRefused` for standard input on a terminal, a folder, or a
  ///   source over `maximumByteCount`; `CommandFailed` when it cannot be opened or read.
  static func read(_ path: String, tooLarge: (String) -> InputRefused = tooLarge) throws
    -> SecureBytes
  {
    if path == "-" {
      guard isatty(0) == 0 else {
        throw InputRefused(
          "standard input is a terminal; give the export as a file, or pipe it to 'vault import"
            + " ... -'")
      }
      return try read(fd: 0, named: "standard input", tooLarge: tooLarge)
    }
    let (fd, info) = try open(path)
    defer { close(fd) }
    if info.st_mode & S_IFMT == S_IFREG && Int(info.st_size) > maximumByteCount {
      throw tooLarge(path)
    }
    return try read(fd: fd, named: path, tooLarge: tooLarge)
  }

  /// `path` opened for reading (close on exec), and what `fstat` says of it.
  ///
  /// - Throws: `InputRefused` for a folder; `CommandFailed` when it cannot be opened.
  static func open(_ path: String) throws -> (fd: Int32, info: stat) {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw CommandFailed("cannot open \(path): \(String(cString: strerror(errno)))")
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      close(fd)
      throw CommandFailed("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    if info.st_mode & S_IFMT == S_IFDIR {
      close(fd)
      throw InputRefused("\(path) is a folder; this format reads a file")
    }
    return (fd, info)
  }

  /// A `vault` export at `path` as a source read in order, never whole, any size: a regular
  /// file (it is read twice, from its start each time, through one descriptor, so both reads
  /// see the same file); standard input and other files are read whole as by `read(_:)`.
  ///
  /// The caller closes `fd` when the import is done (-1 when there is none).
  ///
  /// - Throws: as `read(_:)`.
  static func encrypted(
    _ path: String, passphrase: @escaping @Sendable () throws -> SecureBytes
  ) throws -> (source: ImportSource, fd: Int32) {
    func fromFile(_ fd: Int32, named name: String) -> ImportSource {
      ImportSource.encryptedFile(
        open: {
          guard lseek(fd, 0, SEEK_SET) == 0 else {
            throw CommandFailed(
              "cannot read \(name) again: \(String(cString: strerror(errno)))")
          }
          return reader(fd: fd, named: name)
        }, passphrase: passphrase)
    }
    if path != "-" {
      let (fd, info) = try open(path)
      if info.st_mode & S_IFMT == S_IFREG { return (fromFile(fd, named: path), fd) }
      close(fd)
    } else {
      // A file redirected to standard input is read in pieces like a named one (fd 0 stays).
      var info = stat()
      if fstat(0, &info) == 0 && info.st_mode & S_IFMT == S_IFREG {
        return (fromFile(0, named: "standard input"), -1)
      }
    }
    let source = try read(path) { name in
      InputRefused(
        "\(name) is larger than \(maximumText), the most vault import reads of an export that is"
          + " not a regular file; give it as a file (vault import --from vault FILE), which is"
          + " read in pieces at any size")
    }
    return (.encrypted(source, passphrase: passphrase), -1)
  }

  /// A function that reads `fd` into the buffer it is given (again after `EINTR`), returning
  /// the bytes read, 0 at the end.
  ///
  /// - Throws (from the function): `CommandFailed` naming `name` on a read error.
  static func reader(fd: Int32, named name: String) -> (UnsafeMutableRawBufferPointer) throws
    -> Int
  {
    { buffer in
      while true {
        let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else {
          throw CommandFailed("cannot read \(name): \(String(cString: strerror(errno)))")
        }
        return n
      }
    }
  }

  /// The password-store folder `path` as a source whose files `decrypt` opens.
  ///
  /// - Throws: `InputRefused` when `path` is not a folder (or is `-`); `CommandFailed`
  ///   when it cannot be read.
  static func folder(_ path: String, decrypt: @escaping @Sendable (String) throws -> SecureBytes)
    throws -> ImportSource
  {
    var info = stat()
    guard path != "-", stat(path, &info) == 0 else {
      throw path == "-"
        ? InputRefused("a password store is a folder; give its path, not '-'")
        : CommandFailed("cannot open \(path): \(String(cString: strerror(errno)))")
    }
    guard info.st_mode & S_IFMT == S_IFDIR else {
      throw InputRefused(
        "\(path) is not a folder; pass and gopass read a password-store folder such as"
          + " ~/.password-store")
    }
    return .folder(path: path, decrypt: decrypt)
  }

  static func tooLarge(_ name: String) -> InputRefused {
    InputRefused(
      "\(name) is larger than \(maximumText), the most vault import reads from a plaintext"
        + " source; split it and import the parts (an export made with --to vault is read in"
        + " pieces, at any size)")
  }

  /// Everything `fd` gives until its end, into guarded memory that grows by doubling (the old
  /// buffers are wiped when freed), at most `maximumByteCount` bytes (else `tooLarge(name)`).
  static func read(
    fd: Int32, named name: String, tooLarge: (String) -> InputRefused = tooLarge
  ) throws -> SecureBytes {
    var buffer = SecureBytes(count: 64 * 1024)
    var count = 0
    while true {
      if count == buffer.count {
        guard count < maximumByteCount + 1 else { throw tooLarge(name) }
        do {
          buffer = try buffer.grown(to: min(buffer.count * 2, maximumByteCount + 1))
        } catch {
          throw CommandFailed(
            "\(name) is too large to hold in memory; nothing was written")
        }
      }
      let filled = count
      let n = buffer.withMutableBytes {
        Glibc.read(fd, $0.baseAddress.map { $0 + filled }, $0.count - filled)
      }
      if n < 0 && errno == EINTR { continue }
      if n < 0 {
        throw CommandFailed("cannot read \(name): \(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      count += n
    }
    guard count <= maximumByteCount else { throw tooLarge(name) }
    return buffer.prefix(count)
  }
}
