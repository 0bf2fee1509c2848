/// Why the user's gpg gave no plaintext for a password store's file (the `decrypt` of a
/// `pass` or `gopass` source; the command line runs gpg).
public enum GPGFault: Equatable, Sendable {
  /// The file cannot be opened (`errno`).
  case fileNotOpened(errno: Int32)
  /// No pipe could be made for gpg (`errno`).
  case noPipe(errno: Int32)
  /// The plaintext is larger than `limit` bytes.
  case plaintextTooLarge(limit: Int)
  /// gpg's output cannot be read.
  case outputNotRead
  /// gpg exited with `status`; `lastLine` is the last line it wrote on standard error (empty
  /// when none).
  case exited(status: Int32, lastLine: String)
  /// gpg was killed by `signal`; `lastLine` as for `exited`.
  case killed(signal: Int32, lastLine: String)
}
