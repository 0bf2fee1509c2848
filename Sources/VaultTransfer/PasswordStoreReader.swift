import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// The `pass` and `gopass` formats: a password-store folder, one GnuPG-encrypted file per
/// entry, as pass(1) and gopass keep them (`~/.password-store`).
///
/// Every regular file whose name ends in `.gpg` is an entry, in every folder below the store;
/// its name is its path relative to the store without `.gpg` (`mail/work.gpg` is `mail/work`),
/// and its content is exactly the plaintext the source's `decrypt` gives for it (the caller
/// runs the user's `gpg`), byte for byte: `KEY: VALUE` lines after the first are fields by the
/// convention, and entries that are not text stay as they are. Entries come in the byte order
/// of their relative paths. Each entry's location is its file.
///
/// Skipped: every file or folder whose name starts with `.` (`.git`, `.gpg-id`, `.extensions`,
/// gopass's `.public-keys` and its templates, `.pass-template`), and other files that do not end
/// in `.gpg` (a README). gopass mounts are other stores, listed in gopass's configuration and
/// kept in folders of their own: they are not followed; import each mounted store's folder by
/// itself. A gopass binary secret (`gopass fscopy`, a `.b64` name in older gopass) is imported as
/// gopass stored it.
///
/// Refused, naming the file: a symbolic link (vault follows none inside a store, so an entry is
/// never read from outside it), a `.gpg` name that is not a regular file, a gopass `.age` file
/// (the age backend, which this does not read), a name that is not UTF-8, a plaintext of 0 bytes
/// (an entry has at least one), and any file `decrypt` fails on. Names that differ only in
/// Unicode normalization are both returned: the bulk import refuses them naming both files.
public enum PasswordStoreReader: ImportReader {
  /// Reads and decrypts every entry of `source` (`.folder` only).
  ///
  /// - Throws: `TransferError` at `.file(path)` for the first file refused or not decrypted, or
  ///   without a location when the folder cannot be read or the source is bytes.
  public static func read(_ source: ImportSource) throws -> TransferBatch {
    guard case .folder(let root, let decrypt) = source else {
      throw TransferError(.source(.fileGiven))
    }
    var files: [String] = []
    try walk(root, into: &files)
    files.sort { $0.precedesInByteOrder($1) }
    var entries: [TransferEntry] = []
    for file in files {
      let at = SourceLocation.file(file)
      let content: SecureBytes
      do {
        content = try decrypt(root + "/" + file)
      } catch let error as TransferError {
        throw TransferError(error.reason, at: at)
      } catch {
        throw TransferError(.passwordStore(.notDecrypted(String(describing: error))), at: at)
      }
      guard content.count > 0 else {
        throw TransferError(.passwordStore(.emptyPlaintext), at: at)
      }
      // Cut by bytes: the name is the path's own bytes, whatever their normalization.
      let name = String(decoding: file.utf8.dropLast(suffix.utf8.count), as: UTF8.self)
      entries.append(TransferEntry(name: name, content: content, location: at))
    }
    return TransferBatch(entries: entries)
  }

  /// The extension of an entry's file.
  static let suffix = ".gpg"

  /// Adds to `files` the relative path of every entry file under `root`, walking folders one
  /// at a time (no recursion) through descriptors opened without following links.
  static func walk(_ root: String, into files: inout [String]) throws {
    let top = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard top >= 0 else {
      throw TransferError(.passwordStore(.storeNotOpened(path: root, errno: errno)))
    }
    var pending: [(fd: Int32, path: String)] = [(top, "")]
    defer { for folder in pending { close(folder.fd) } }
    while let folder = pending.popLast() {
      defer { close(folder.fd) }
      for name in try names(in: folder.fd, path: folder.path) {
        let path = folder.path.isEmpty ? name : folder.path + "/" + name
        var info = stat()
        guard fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
          throw TransferError(.passwordStore(.notInspected(errno: errno)), at: .file(path))
        }
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
          throw TransferError(.passwordStore(.symbolicLink), at: .file(path))
        case S_IFDIR:
          let child = openat(folder.fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
          guard child >= 0 else {
            throw TransferError(.passwordStore(.folderNotOpened(errno: errno)), at: .file(path))
          }
          pending.append((child, path))
        default:
          if name.hasSuffix(".age") {
            throw TransferError(.passwordStore(.ageEncrypted), at: .file(path))
          }
          guard name.hasSuffix(suffix) else { continue }
          guard info.st_mode & S_IFMT == S_IFREG else {
            throw TransferError(.passwordStore(.notARegularFile), at: .file(path))
          }
          files.append(path)
        }
      }
    }
  }

  /// The names in the folder `fd` (at `path` in the store) that are not hidden.
  ///
  /// - Throws: `TransferError` for a name that is not UTF-8 or a folder that cannot be listed.
  static func names(in fd: Int32, path: String) throws -> [String] {
    let copy = dup(fd)
    guard copy >= 0, let stream = fdopendir(copy) else {
      if copy >= 0 { close(copy) }
      throw TransferError(
        .passwordStore(.folderNotListed(errno: errno)), at: .file(path.isEmpty ? "." : path))
    }
    defer { closedir(stream) }
    var out: [String] = []
    while let entry = readdir(stream) {
      let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      guard bytes.first != UInt8(ascii: ".") else { continue }
      guard let name = String(validating: bytes, as: UTF8.self) else {
        let shown = String(decoding: bytes, as: UTF8.self)
        throw TransferError(
          .passwordStore(.nameNotUTF8), at: .file(path.isEmpty ? shown : path + "/" + shown))
      }
      out.append(name)
    }
    return out
  }
}
