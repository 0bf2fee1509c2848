import Biometry
import Foundation
import Testing
import VaultFormat

/// Biometry's one domain-separation label, which `vault(5)` lists, is the only one its sources use.
@Suite struct BiometryLabelTests {
  @Test func theSourcesUseOnlyTheExportedLabel() throws {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    let folder = root + "/Sources/Biometry"
    let pattern = try Regex(#""biosim\.[a-z0-9-]+\.v[0-9]+""#)
    var found: Set<String> = []
    for name in try FileManager.default.contentsOfDirectory(atPath: folder)
    where name.hasSuffix(".swift") {
      let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
      for match in text.matches(of: pattern) {
        found.insert(String(text[match.range].dropFirst().dropLast()))
      }
    }
    #expect(found == [DomainState.label])
  }
}
