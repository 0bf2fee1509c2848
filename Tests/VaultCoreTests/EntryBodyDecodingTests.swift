import Foundation
import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// An entry body is decoded by hand on every read: it gives what the `Codable` decoding of
/// earlier releases gave, for every body a release wrote.
final class EntryBodyDecodingTests: XCTestCase {
  func body(_ json: String) -> EntryStore.Body? {
    EntryStore.Body(decoding: SecureBytes(copying: Array(json.utf8)))
  }

  func testEveryWrittenFormReadsAsCodableReadsIt() throws {
    let full = EntryStore.Body(
      name: "mail/é", created: "2026-01-02T03:04:05Z", updated: "2026-01-02T03:04:06Z",
      guarded: true, length: 1_258_291, contentRevision: 3, changed: "2026-01-02T03:04:06Z",
      change: "renamed", stream: true, contentID: "AAECAwQFBgcICQoLDA0ODw==")
    let bare = EntryStore.Body(
      name: "a", created: "c", updated: "u", guarded: false, length: 1, contentRevision: 1,
      changed: nil, change: nil, stream: nil, contentID: nil)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for written in [full, bare] {
      let bytes = try [UInt8](encoder.encode(written))
      XCTAssertEqual(EntryStore.Body(decoding: SecureBytes(copying: bytes)), written)
      XCTAssertEqual(try JSONDecoder().decode(EntryStore.Body.self, from: Data(bytes)), written)
    }
  }

  func testNullOptionalsAreAbsentAndOtherMembersSkipped() {
    XCTAssertEqual(
      body(
        #"{"name":"a","created":"c","updated":"u","guarded":false,"length":2,"#
          + #""content_revision":1,"stream":null,"later":{"x":[1]}}"#),
      EntryStore.Body(
        name: "a", created: "c", updated: "u", guarded: false, length: 2, contentRevision: 1,
        changed: nil, change: nil, stream: nil, contentID: nil))
  }

  func testAMissingOrMistypedMemberIsNoBody() {
    let base = #""created":"c","updated":"u","guarded":false,"content_revision":1"#
    XCTAssertNil(body("{" + base + "}"))
    XCTAssertNil(body(#"{"name":"a","length":"2","# + base + "}"))
    XCTAssertNil(body(#"{"name":"a","length":2.5,"# + base + "}"))
    XCTAssertNil(body(#"{"name":null,"length":2,"# + base + "}"))
    XCTAssertNil(body(#"{"name":"a","length":2,"stream":"yes","# + base + "}"))
    XCTAssertNil(body(#"["a"]"#))
    XCTAssertNil(body(#"{"name":"a","name":"b","length":2,"# + base + "}"))
    XCTAssertNotNil(body(#"{"name":"a","length":2,"# + base + "}"))
  }
}
