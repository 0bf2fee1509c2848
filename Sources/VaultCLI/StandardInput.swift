import VaultCore

extension Context {
  /// Refuses `--pin-fd 0` when standard input has another use in this command.
  ///
  /// - Parameter use: what standard input is for, as in `carries the content` or `the editor
  ///   inherits`.
  /// - Throws: `VaultError.invalidInput` for `--pin-fd 0`.
  func refusePINOnStandardInput(_ use: String) throws {
    if pinFD == 0 {
      throw VaultError.invalidInput(
        "--pin-fd 0 is standard input, which \(use); give the PIN on another descriptor, such as"
          + " --pin-fd 3 3<pin-file")
    }
  }
}
