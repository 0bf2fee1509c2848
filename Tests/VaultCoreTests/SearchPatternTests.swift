import XCTest

@testable import VaultCore
@testable import VaultSecrets

/// `vault grep -F -i`: a fixed string matched without regard to case, across scripts.
final class SearchPatternTests: XCTestCase {
  func matches(_ pattern: String, _ line: String) throws -> Bool {
    let search = try SearchPattern(pattern, fixed: true, ignoreCase: true)
    return Array(line.utf8).withUnsafeBytes { search.matches($0) }
  }

  func testCaseInsensitiveFixedStringsFoldSigmaSharpSAndAccents() throws {
    XCTAssertTrue(try matches("ΟΔΟΣ", "η οδος εδω"))
    XCTAssertTrue(try matches("STRASSE", "die straße"))
    XCTAssertTrue(try matches("straße", "DIE STRASSE"))
    XCTAssertTrue(try matches("ÉTÉ", "un été"))
    XCTAssertTrue(try matches("hunter2", "pw: HUNTER2"))
    XCTAssertFalse(try matches("hunter3", "pw: HUNTER2"))
    XCTAssertFalse(try matches("ete", "un été"))
  }
}
