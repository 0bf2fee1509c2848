import Biometry
import Foundation
import VaultCore
import XCTest

@testable import VaultCLI
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultManualGenerator
@testable import VaultSecrets

/// `vault(5)` is rendered from the constants the code uses: its schema is `Schema.v2`, its list of
/// domain labels is `DomainLabel.all` and Biometry's label, and every page uses every value given.
final class FormatPageTests: XCTestCase {
  /// The package root: three levels above this file.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  func page(_ path: String) throws -> String {
    let files = try GeneratedFiles.all(packageRoot: Self.packageRoot)
    return try XCTUnwrap(files.first { $0.path == path }?.contents, path)
  }

  func testTheSchemaIsTheOneTheCoreCreates() throws {
    let page = try page("man/vault.5")
    let shown = PlaceholderValues.schema()
    XCTAssertEqual(
      shown.split(whereSeparator: \.isWhitespace), Schema.v2.split(whereSeparator: \.isWhitespace))
    let example = shown.components(separatedBy: "\n").map { Roff.line(Roff.escape($0)) }
    XCTAssertTrue(page.contains(".EX\n" + example.joined(separator: "\n") + "\n.EE\n"))
  }

  func testEveryDomainLabelIsListedWithWhatItSeparates() throws {
    let page = try page("man/vault.5")
    let section = try XCTUnwrap(
      page.components(separatedBy: ".SH ").first { $0.hasPrefix("\"DOMAIN SEPARATION\"") })
    let biosim = DomainState.label
    let labels = DomainLabel.all.map(\.rawValue) + [biosim]
    let lines = section.components(separatedBy: "\n")
    let tags = lines.indices.dropFirst().filter { lines[$0 - 1] == ".TP" }.map { lines[$0] }
    XCTAssertEqual(tags, labels.map { "\"" + Roff.escape($0) + "\"" })
    for label in DomainLabel.all {
      XCTAssertTrue(section.contains(Roff.prose(label.separates)), label.rawValue)
    }
  }

  func testSubkeysAndProfilesEachHaveAPlaceholderThePageUses() {
    let values = PlaceholderValues.format()
    for subkey in Subkey.allCases {
      let name = "subkey-" + PlaceholderValues.kebab(String(describing: subkey))
      XCTAssertEqual(values[name], .text("subkey(\(subkey.id), \"\(subkey.context)\")"))
    }
    for profile in KDFParameters.userProfiles + [.test] {
      XCTAssertNotNil(values["kdf-" + profile.profile], profile.profile)
    }
    XCTAssertEqual(PlaceholderValues.labelPlaceholder("vault.pin-kek.v1"), "label-pin-kek")
    XCTAssertEqual(PlaceholderValues.labelPlaceholder("biosim.domain.v1"), "label-biosim-domain")
  }
}
