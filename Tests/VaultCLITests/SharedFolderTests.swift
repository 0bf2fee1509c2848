import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat
@testable import VaultSecrets

/// Files vault creates in a shared sticky folder (a backup, a new vault) are its own and 0600.
///
/// Never a file another user planted at a name vault would pick. Runs vault as `nobody` with the
/// "attacker" `daemon`, so it needs root and setpriv (CI has both); skipped otherwise.
final class SharedFolderTests: XCTestCase {
  var shared = ""
  var home = ""

  override func setUpWithError() throws {
    try TestTier.requireSystem("a shell and file modes")
    guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
      throw XCTSkip("needs root and setpriv to act as two users")
    }
    var template = Array("/tmp/vault-shared-XXXXXX".utf8CString)
    _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    shared = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    chmod(shared, 0o1777)
    home = shared + "/nobody-home"
    mkdir(home, 0o700)
    chown(home, 65534, 65534)
  }

  override func tearDown() { try? FileManager.default.removeItem(atPath: shared) }

  /// Runs `script` with sh as root, where `vault` runs the built binary as nobody.
  func run(_ script: String) -> Subprocess.Result {
    let vault =
      "setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=\(home)"
      + " XDG_DATA_HOME=\(home)/data XDG_STATE_HOME=\(home)/state XDG_RUNTIME_DIR=\(home)/run"
      + " VAULT_TEST_KDF=1 \(Sandbox.binDirectory)/vault"
    return Subprocess.run(
      "/bin/sh", ["-c", "set -u; SHARED=\(shared); VAULT='\(vault)'; " + script],
      environment: ["PATH": "/usr/bin:/bin"])
  }

  func owner(_ path: String) -> (uid: uid_t, mode: mode_t)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (info.st_uid, info.st_mode & 0o7777)
  }

  func testABackupNeverLandsInAFilePlantedByAnotherUser() {
    let made = run(
      "mkdir -m 700 \(home)/run; chown nobody \(home)/run;"
        + " printf '246810\\n' | $VAULT init --kdf test --no-biometry --pin-fd 0 2>&1")
    XCTAssertEqual(made.status, 0, made.stdoutText + made.stderrText)
    // The attacker plants the name the old code used, for the pid vault will run as (exec
    // keeps the shell's pid), world-writable.
    let backup = run(
      "sh -c 'install -o daemon -m 0666 /dev/null \"$0.creating-$$\"; exec '\"$VAULT\"' backup"
        + " \"$0\"' \"$SHARED/copy.db\"")
    XCTAssertEqual(backup.status, 0, backup.stderrText)
    let result = owner(shared + "/copy.db")
    XCTAssertEqual(result?.uid, 65534, "the backup belongs to another user")
    XCTAssertEqual(result?.mode, 0o600)
  }

  func testAVaultInASharedFolderIsRefused() {
    XCTAssertEqual(run("mkdir -m 700 \(home)/run; chown nobody \(home)/run").status, 0)
    // In a sticky shared folder another user could plant the journal SQLite opens beside the
    // vault (PATH-journal), and read or undo its changes: no vault lives there.
    let made = run(
      "printf '246810\\n' > \(home)/pin; chown nobody \(home)/pin;"
        + " sh -c 'install -o daemon -m 0666 /dev/null \"$0.creating-$$\"; exec '\"$VAULT\"'"
        + " init --kdf test --no-biometry --vault \"$0\" --pin-fd 3 3<\(home)/pin'"
        + " \"$SHARED/new.db\"")
    XCTAssertEqual(made.status, 19, made.stderrText)
    XCTAssertEqual(
      made.stderrText,
      "vault: error: \(shared) is shared with other users, who could plant the journal SQLite"
        + " keeps beside the vault; keep the vault in a private folder such as"
        + " ~/.local/share/vault; refusing to use it\n")
    XCTAssertNil(owner(shared + "/new.db"))
  }
}
