import Glibc
import VaultCore
import VaultFormat

extension Context {
  /// Refuses `--pin-fd 0` when standard input has another use in this command.
  ///
  /// - Parameter use: what standard input is for, as in `carries the content` or `the editor
  ///   inherits`.
  /// - Throws: `InputRefused` for `--pin-fd 0`.
  func refusePINOnStandardInput(_ use: String) throws {
    if pinFD == 0 {
      throw InputRefused(
        "--pin-fd 0 is standard input, which \(use); give the PIN on another descriptor, such as"
          + " --pin-fd 3 3<pin-file")
    }
  }

  /// Refuses a standard input that is the vault file itself (or its journal beside it): adding
  /// it would read what the add writes, without end.
  ///
  /// - Throws: `InputRefused`.
  func refuseVaultOnStandardInput() throws {
    var input = stat()
    guard fstat(0, &input) == 0, input.st_mode & S_IFMT == S_IFREG else { return }
    for path in [vaultPath, vaultPath + "-journal"] {
      var file = stat()
      if stat(path, &file) == 0 && file.st_dev == input.st_dev && file.st_ino == input.st_ino {
        throw InputRefused(
          "standard input is the vault file itself, which the add would write to; copy it first"
            + " (vault backup FILE) and add the copy")
      }
    }
  }
}
