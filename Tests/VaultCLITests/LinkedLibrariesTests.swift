import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultSecrets

/// The built `vault` and `biosim` load no Foundation beyond `FoundationEssentials`: not
/// Foundation itself, its internationalization or ICU, whose loading and conformance tables
/// every command would pay for at its start (bench/README.md).
final class LinkedLibrariesTests: XCTestCase {
  override func setUpWithError() throws {
    try TestTier.requireSystem("the built binaries' libraries")
  }

  /// The file names of the shared libraries `ldd` says `binary` loads.
  func loadedLibraries(_ binary: String) -> [String] {
    let result = Subprocess.run("/usr/bin/ldd", [binary], environment: ["PATH": "/usr/bin:/bin"])
    XCTAssertEqual(result.status, 0, result.stderrText)
    return result.stdoutText.split(separator: "\n").compactMap {
      $0.split(whereSeparator: \.isWhitespace).first.map {
        String($0.split(separator: "/").last ?? $0)
      }
    }
  }

  func testNeitherBinaryLoadsFoundationOrICU() {
    for name in ["vault", "biosim"] {
      let libraries = loadedLibraries(Sandbox.binDirectory + "/" + name)
      XCTAssertTrue(libraries.contains("libsodium.so.23"), "\(name): \(libraries)")
      XCTAssertEqual(
        libraries.filter { $0.hasPrefix("libFoundation") || $0.contains("ICU") },
        libraries.contains("libswiftCore.so") ? ["libFoundationEssentials.so"] : [],
        "\(name): \(libraries)")
    }
  }
}
