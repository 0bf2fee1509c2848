/// Why `PasswordStoreReader` refuses a password store's folder or one of its files.
public enum PasswordStoreFault: Equatable, Sendable {
  /// The store's folder `path` cannot be opened (`errno`).
  case storeNotOpened(path: String, errno: Int32)
  /// A file's status cannot be read (`errno`).
  case notInspected(errno: Int32)
  /// A file or folder is a symbolic link, which is not followed.
  case symbolicLink
  /// A folder cannot be opened (`errno`).
  case folderNotOpened(errno: Int32)
  /// A folder cannot be listed (`errno`).
  case folderNotListed(errno: Int32)
  /// A file is an age-encrypted gopass entry.
  case ageEncrypted
  /// A `.gpg` name is not a regular file.
  case notARegularFile
  /// A file's name is not UTF-8.
  case nameNotUTF8
  /// A file's plaintext has 0 bytes.
  case emptyPlaintext
  /// The source's `decrypt` failed with an error that is no `TransferError`, described as
  /// `String(describing:)` gives it.
  case notDecrypted(String)
}
