/// A source of the wrong kind for its format's reader (`TransferError.Reason.source`).
public enum SourceFault: Equatable, Sendable {
  /// The format `format` reads a file, and a folder was given.
  case folderGiven(ImportFormat)
  /// A password store (`pass`, `gopass`) is a folder, and a file was given.
  case fileGiven
  /// The `vault` format is encrypted, and no passphrase came with it.
  case passphraseMissing
}
