import Glibc
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// Where `VaultEnvironment` puts the vault and its sessions.
final class EnvironmentTests: XCTestCase {
  /// The account's home folder, as the password database has it.
  var accountHome: String { String(cString: getpwuid(getuid()).pointee.pw_dir) }

  func testAnEmptyOrMissingHOMEMeansTheAccountsHomeFolder() {
    for variables in [["HOME": ""], [:]] {
      let environment = VaultEnvironment(variables: variables)
      XCTAssertEqual(environment.defaultVaultPath, accountHome + "/.local/share/vault/vault.db")
    }
    XCTAssertEqual(
      VaultEnvironment(variables: ["HOME": "/home/a"]).defaultVaultPath,
      "/home/a/.local/share/vault/vault.db")
  }

  func testSessionsLiveInTheRuntimeFolderElseOnDiskUnderTheStateFolder() {
    XCTAssertEqual(
      VaultEnvironment(variables: ["HOME": "/home/a", "XDG_RUNTIME_DIR": "/run/user/7"])
        .sessionDirectory, "/run/user/7/vault")
    XCTAssertEqual(
      VaultEnvironment(variables: ["HOME": "/home/a"]).sessionDirectory,
      "/home/a/.local/state/vault/sessions")
  }
}
