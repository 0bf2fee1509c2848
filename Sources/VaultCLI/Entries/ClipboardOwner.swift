import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// Which `--clip` copy the clipboard belongs to, so that each copy's clearing is its own.
///
/// Every copy draws 16 random bytes and writes them to `clipboard` in the session folder
/// (`$XDG_RUNTIME_DIR/vault`, 0600); its clearer gets them with the secret and, when its time
/// is up, clears only while the file still holds them. A later copy of the same secret would
/// otherwise be cleared by the earlier copy's timer, since the clipboard holds the same bytes.
enum ClipboardOwner {
  /// Bytes in a copy's token.
  static let tokenBytes = 16

  /// `clipboard` in the session folder.
  static func path(_ environment: VaultEnvironment) -> String {
    environment.sessionDirectory + "/clipboard"
  }

  /// Makes a new copy the clipboard's owner and returns its token, or `[]` when it cannot be
  /// recorded (its clearer then goes by the clipboard's content alone, as before).
  static func claim(_ environment: VaultEnvironment) -> [UInt8] {
    let token = SecureBytes.random(count: tokenBytes).unprotectedBytes
    do {
      try PrivateFiles.ensurePrivateDirectory(environment.sessionDirectory)
      try PrivateFiles.atomicWrite(token, to: path(environment))
      return token
    } catch {
      return []
    }
  }

  /// False when a later copy has claimed the clipboard since the copy of `token`; true for the
  /// latest copy, and for an empty `token` (a copy that could not record itself).
  static func owns(_ token: [UInt8], _ environment: VaultEnvironment) -> Bool {
    guard !token.isEmpty else { return true }
    guard (try? FileSafety.checkPrivateFile(path(environment))) != nil,
      let recorded = try? PrivateFiles.read(path(environment))
    else { return true }
    return constantTimeEqual(recorded, token)
  }
}
