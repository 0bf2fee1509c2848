import VaultTransfer

#if canImport(Glibc)
  import Glibc
#endif

/// The words of a password store's faults and of gpg's.
enum PasswordStoreWords {
  /// A store's folder or file refused.
  static func phrase(_ fault: PasswordStoreFault) -> String {
    switch fault {
    case .storeNotOpened(let path, let code):
      "cannot open the folder \(path): \(String(cString: strerror(code)))"
    case .notInspected(let code): "cannot read it: \(String(cString: strerror(code)))"
    case .symbolicLink:
      "it is a symbolic link, and vault follows none in a store: put the file or folder it"
        + " points to in its place"
    case .folderNotOpened(let code): "cannot open the folder: \(String(cString: strerror(code)))"
    case .folderNotListed(let code): "cannot list the folder: \(String(cString: strerror(code)))"
    case .ageEncrypted:
      "an age-encrypted gopass entry: vault reads stores encrypted with GnuPG only"
    case .notARegularFile: "it is not a regular file"
    case .nameNotUTF8: "the file name is not UTF-8"
    case .emptyPlaintext: "the entry is empty (its plaintext has 0 bytes)"
    case .notDecrypted(let error): "cannot decrypt it: \(error)"
    }
  }

  /// gpg gave no plaintext.
  static func phrase(_ fault: GPGFault) -> String {
    switch fault {
    case .fileNotOpened(let code): "cannot open it: \(String(cString: strerror(code)))"
    case .noPipe(let code): "cannot make a pipe for gpg: \(String(cString: strerror(code)))"
    case .plaintextTooLarge(let limit):
      "its plaintext is larger than \(limit) bytes, more than vault holds in memory; nothing was"
        + " written"
    case .outputNotRead: "cannot read gpg's output"
    case .exited(let status, let lastLine):
      "gpg could not decrypt it (exited with \(status))\(said(lastLine))"
    case .killed(let signal, let lastLine):
      "gpg could not decrypt it (was killed by signal \(signal))\(said(lastLine))"
    }
  }

  /// `: LINE`, or nothing for an empty line.
  static func said(_ line: String) -> String { line.isEmpty ? "" : ": \(line)" }
}
