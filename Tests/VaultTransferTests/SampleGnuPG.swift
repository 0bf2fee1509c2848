import Foundation
import VaultCore
import VaultCrypto

/// The samples' throwaway GnuPG home (a test key without a passphrase), copied to a private
/// folder so gpg-agent's sockets and gpg's files never land in the work tree.
final class SampleGnuPG: Sendable {
  /// The private copy.
  let home: String

  init() throws {
    home = NSTemporaryDirectory() + "vault-gnupg-" + UUID().uuidString
    try FileManager.default.copyItem(atPath: Samples.folder + "/gnupg", toPath: home)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home)
  }

  /// The plaintext of `path`, by `gpg --batch --quiet --decrypt` with this home (read into an
  /// ordinary `Data` first: this is test code, and the samples hold no secret).
  func decrypt(_ path: String) throws -> SecureBytes {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/gpg")
    process.arguments = ["--homedir", home, "--batch", "--quiet", "--decrypt", "--", path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw NSError(domain: "gpg", code: Int(process.terminationStatus))
    }
    return SecureBytes(copying: data)
  }

  /// Stops the agent gpg started for this home and removes the copy.
  func finish() {
    let kill = Process()
    kill.executableURL = URL(fileURLWithPath: "/usr/bin/gpgconf")
    kill.arguments = ["--homedir", home, "--kill", "gpg-agent"]
    try? kill.run()
    kill.waitUntilExit()
    try? FileManager.default.removeItem(atPath: home)
  }
}
