import Foundation
import XCTest

@testable import VaultCore
@testable import VaultFormat
@testable import VaultSecrets

/// `DomainLabel` lists exactly the labels the sources use, so `vault(5)`, which is rendered from
/// the list, names every label the code feeds to a MAC, a box or a keyed hash.
final class DomainLabelTests: XCTestCase {
  /// The package root: three levels above this file.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// Each Swift file under `folder` (relative to the package root, in any subfolder) but
  /// `DomainLabel.swift`, which defines the labels: its path and its text.
  func sources(_ folder: String) throws -> [(path: String, text: String)] {
    let names = try FileManager.default.subpathsOfDirectory(atPath: Self.packageRoot + "/" + folder)
    return try names.sorted().filter {
      $0.hasSuffix(".swift") && !$0.hasSuffix("DomainLabel.swift")
    }.map {
      let path = folder + "/" + $0
      return (path, try String(contentsOfFile: Self.packageRoot + "/" + path, encoding: .utf8))
    }
  }

  /// Every `"vault.….v1"` and `"biosim.….v1"` string literal in `text`, without its quotes.
  func labels(in text: String) throws -> [String] {
    let pattern = try Regex(#""((?:vault|biosim)\.[a-z0-9-]+\.v[0-9]+)""#)
    return text.matches(of: pattern).map { String(text[$0.range].dropFirst().dropLast()) }
  }

  func testTheSourcesUseExactlyTheListedLabels() throws {
    let files = try sources("Sources")
    var users: [String: [String]] = [:]
    for file in files {
      for label in try labels(in: file.text) { users[label, default: []].append(file.path) }
    }
    let listed = Set(DomainLabel.all.map(\.rawValue))
    for (label, paths) in users.sorted(by: { $0.key < $1.key }) {
      if label.hasPrefix("biosim.") {
        // Biometry's own label; BiometryTests checks it against `DomainState.label`.
        XCTAssertTrue(paths.allSatisfy { $0.hasPrefix("Sources/Biometry/") }, "\(label): \(paths)")
      } else {
        XCTAssertTrue(listed.contains(label), "\(label), used in \(paths), is not in DomainLabel")
      }
    }
    for label in DomainLabel.all {
      let reference = try Regex("DomainLabel\\.\(label)(?![A-Za-z0-9_])")
      let used = users[label.rawValue] != nil || files.contains { $0.text.contains(reference) }
      XCTAssertTrue(
        used, "no source uses \(label.rawValue), as a literal or as DomainLabel.\(label)")
    }
  }

  func testTheListHasEachLabelOnceAndSaysWhatItSeparates() {
    XCTAssertEqual(DomainLabel.all, DomainLabel.allCases)
    XCTAssertEqual(Set(DomainLabel.all.map(\.rawValue)).count, DomainLabel.all.count)
    for label in DomainLabel.all {
      XCTAssertNotNil(label.rawValue.wholeMatch(of: /vault\.[a-z0-9-]+\.v[0-9]+/), label.rawValue)
      XCTAssertEqual(label.bytes, Array(label.rawValue.utf8))
      XCTAssertTrue(label.separates.hasSuffix("."), label.rawValue)
    }
  }
}
