import Foundation
import VaultCore
import VaultTestSupport
import VaultTransfer
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// The gpg the pass and gopass imports run: real decryption of the committed samples (their
/// throwaway test key), the file named in every failure, and what the child inherits.
final class GPGDecryptTests: XCTestCase {
  /// `Tests/VaultTransferTests/Samples`.
  static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("VaultTransferTests/Samples").path

  var folder: TemporaryHome!
  var gnupg: String { folder.path + "/gnupg" }

  override func setUpWithError() throws {
    try TestTier.requireSystem("real gpg")
    folder = TemporaryHome(prefix: "vault-gpg-test")
    try FileManager.default.copyItem(atPath: Self.samples + "/gnupg", toPath: gnupg)
    chmod(gnupg, 0o700)
  }

  override func tearDown() {
    guard folder != nil else { return }
    _ = Subprocess.run(
      "/usr/bin/gpgconf", ["--homedir", gnupg, "--kill", "gpg-agent"], environment: [:])
    folder = nil
  }

  func decrypter(_ extra: [String: String] = [:]) throws -> GPGDecrypt {
    let variables = ["HOME": folder.path, "GNUPGHOME": gnupg, "PATH": "/usr/bin:/bin"]
    return try GPGDecrypt(
      environment: VaultEnvironment(variables: variables.merging(extra) { $1 }))
  }

  func testTheSamplesDecryptByteForByteAndTheReaderTakesTheClosureAsItIs() throws {
    let gpg = try decrypter()
    XCTAssertEqual(
      try gpg.decrypt(Self.samples + "/pass/bin/blob.gpg").unprotectedBytes,
      [0xFF, 0xFE, 0x00, 0x01] + Array("binary".utf8) + [0x80])
    let batch = try PasswordStoreReader.read(
      .folder(path: Self.samples + "/gopass", decrypt: try decrypter().decrypt))
    XCTAssertEqual(batch.entries.map(\.name), ["bin/key", "servers/db", "single", "team x/résumé"])
    XCTAssertEqual(
      batch.entries[1].content.unprotectedBytes,
      Array("Tr0ub4dor&3\nuser: postgres\nhost: db.example.org:5432\n".utf8))
  }

  func testFailuresNameTheFileAndSayWhatGPGSaid() throws {
    let missing = folder.path + "/none.gpg"
    XCTAssertThrowsError(try decrypter().decrypt(missing)) {
      XCTAssertEqual(
        $0 as? TransferError,
        TransferError(.gpg(.fileNotOpened(errno: ENOENT)), at: .file(missing)))
    }
    // A link is not followed, and what is checked is what gpg reads: a FIFO swapped in for the
    // file is refused, not handed to gpg (which would wait on it for ever).
    let link = folder.path + "/link.gpg"
    XCTAssertEqual(symlink(Self.samples + "/pass/mail/work.gpg", link), 0)
    XCTAssertThrowsError(try decrypter().decrypt(link)) {
      XCTAssertEqual(
        $0 as? TransferError,
        TransferError(.gpg(.fileNotOpened(errno: ELOOP)), at: .file(link)))
    }
    let fifo = folder.path + "/fifo.gpg"
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    XCTAssertThrowsError(try decrypter().decrypt(fifo)) {
      XCTAssertEqual(
        $0 as? TransferError, TransferError(.passwordStore(.notARegularFile), at: .file(fifo)))
    }
    let empty = folder.path + "/empty-gnupg"
    XCTAssertEqual(mkdir(empty, 0o700), 0)
    let stranger = try decrypter(["GNUPGHOME": empty])
    let file = Self.samples + "/pass/mail/work.gpg"
    XCTAssertThrowsError(try stranger.decrypt(file)) {
      XCTAssertEqual(
        $0 as? TransferError,
        TransferError(
          .gpg(.exited(status: 2, lastLine: "gpg: decryption failed: No secret key")),
          at: .file(file)))
    }
    _ = Subprocess.run(
      "/usr/bin/gpgconf", ["--homedir", empty, "--kill", "gpg-agent"], environment: [:])
    XCTAssertThrowsError(try decrypter(["PATH": folder.path])) {
      XCTAssertEqual(VaultError($0), VaultError.programNotFound("gpg"))
    }
  }

  func testTheChildGetsACleanEnvironmentDescriptors0To2AndItsArguments() throws {
    let bin = folder.path + "/bin"
    let report = folder.path + "/report"
    XCTAssertEqual(mkdir(bin, 0o700), 0)
    let script = """
      #!/bin/sh
      ls -l /proc/self/fd | awk 'NF > 8 { print "fd", $9, $11 }' > "\(report)"
      tr '\\0' '\\n' < /proc/$$/environ | sort >> "\(report)"
      printf 'arg %s\\n' "$@" >> "\(report)"
      printf 'plain\\0text'
      """
    XCTAssertTrue(FileManager.default.createFile(atPath: bin + "/gpg", contents: Data(script.utf8)))
    chmod(bin + "/gpg", 0o700)
    // A descriptor vault holds open without close-on-exec must not reach the child.
    let held = open("/dev/null", O_RDONLY)
    defer { close(held) }
    let gpg = try decrypter([
      "PATH": bin + ":/usr/bin:/bin", "VAULT_SESSION": "token", "VAULT_PATH": "/v", "EDITOR": "vi",
      "SSH_AUTH_SOCK": "/agent", "TERM": "xterm", "LANG": "C.UTF-8",
    ])
    XCTAssertEqual(gpg.program, bin + "/gpg")
    let store = folder.path + "/store.gpg"
    XCTAssertTrue(FileManager.default.createFile(atPath: store, contents: Data("cipher".utf8)))
    let plaintext = try gpg.decrypt(store)
    XCTAssertEqual(plaintext.unprotectedBytes, Array("plain\u{0}text".utf8))
    let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n")
    let inherited = lines.filter { $0.hasPrefix("fd ") && !$0.contains(" /proc/") }
    XCTAssertEqual(inherited.map { $0.split(separator: " ")[1] }, ["0", "1", "2"], "\(lines)")
    XCTAssertEqual(inherited.first.map { String($0) }, "fd 0 \(store)")
    XCTAssertEqual(
      lines.filter { !$0.hasPrefix("fd ") },
      [
        "GNUPGHOME=\(gnupg)", "HOME=\(folder.path)", "LANG=C.UTF-8", "PATH=\(bin):/usr/bin:/bin",
        "TERM=xterm", "arg --batch", "arg --quiet", "arg --decrypt",
      ])
  }
}
