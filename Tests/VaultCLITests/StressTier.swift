import VaultTestSupport
import XCTest

extension TestTier {
  /// Skips the calling test unless `VAULT_TESTS=all`, naming the tier it belongs to.
  ///
  /// Here, not in VaultTestSupport: that library is built by `swift build -c release` too,
  /// where XCTest is not at hand.
  ///
  /// - Throws: `XCTSkip` in the default tier.
  static func requireStress(_ what: String) throws {
    guard all else { throw XCTSkip("stress tier (\(what)): set VAULT_TESTS=all") }
  }
}
