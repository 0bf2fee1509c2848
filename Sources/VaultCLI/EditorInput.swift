import VaultCore

/// The editor reads standard input: it must never be the PIN's descriptor.
enum EditorInput {
  /// - Throws: `VaultError.invalidInput` for `--pin-fd 0` in a command that starts an editor.
  static func refusePINOnStandardInput(_ context: Context) throws {
    if context.pinFD == 0 {
      throw VaultError.invalidInput(
        "--pin-fd 0 is standard input, which the editor inherits; give the PIN on another"
          + " descriptor, such as --pin-fd 3 3<pin-file")
    }
  }
}
