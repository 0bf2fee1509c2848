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

extension TestTier {
  /// Skips the calling test unless `VAULT_TESTS=all`: a test of the system tier, whose point is
  /// a property of processes and real programs (`what`: real git, the agent, a terminal, a
  /// signal, descriptors, a shell) rather than what a command prints or stores.
  ///
  /// - Throws: `XCTSkip` in the default tier.
  static func requireSystem(_ what: String) throws {
    guard all else { throw XCTSkip("system tier (\(what)): set VAULT_TESTS=all") }
  }
}
