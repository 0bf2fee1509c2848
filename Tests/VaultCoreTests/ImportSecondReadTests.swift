import VaultTestSupport
import XCTest

@testable import VaultCore
@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets

/// From the attack review: the second read of an import must give what the first checked.
///
/// An import reads its source twice (checks, then writes), and the second read was compared with the first by names only, so a file changed in between stored
/// other bytes, another length or another guard than were checked. Now each entry's content,
/// length and guard must be what the first read gave, or the import writes nothing.
final class ImportSecondReadTests: XCTestCase {
  var home: TemporaryHome!

  override func setUp() { home = TemporaryHome() }
  override func tearDown() { home = nil }

  func store() throws -> EntryStore {
    let created = try Vault.create(
      path: home.vaultPath, pin: pin("123400"), kdf: .test, policy: .pinOnly,
      environment: home.environment())
    return EntryStore(vault: created.vault, masterKey: created.masterKey)
  }

  func plan(_ content: String, guarded: Bool = false) throws -> ImportPlan {
    var plan = ImportPlan()
    try plan.addEntry(named: "a", content: secure(content), origin: "line 1", guarded: guarded)
    return plan
  }

  func assertChanged(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line)
  {
    XCTAssertThrowsError(try body(), file: file, line: line) {
      XCTAssertEqual($0 as? ImportError, .sourceGaveOtherItems, file: file, line: line)
    }
  }

  func testOtherBytesOrAnotherGuardTheSecondTimeWriteNothing() throws {
    let store = try store()
    for (content, guarded) in [("other", false), ("alpha", true)] {
      assertChanged {
        _ = try store.importItems(try plan("alpha"), replacing: false, dryRun: false) {
          try $0.entry(named: "a", content: secure(content), guarded: guarded)
        }
      }
    }
    XCTAssertThrowsError(try store.get(EntryName("a")))
    let counts = try store.importItems(try plan("alpha"), replacing: false, dryRun: false) {
      try $0.entry(named: "a", content: secure("alpha"))
    }
    XCTAssertEqual(counts.added, 1)
    XCTAssertEqual(try store.get(EntryName("a")).content.unprotectedBytes, Array("alpha".utf8))
  }

  func testALargeContentWithOtherBytesTheSecondTimeWritesNothing() throws {
    let store = try store()
    let length = EntryStore.streamThreshold + 5000
    let first = [UInt8](repeating: 7, count: length)
    var second = first
    second[length - 1] = 8
    var plan = ImportPlan()
    let digest = plan.entryDigest(length: length, guarded: false)
    first.withUnsafeBytes { digest.update($0) }
    try plan.addEntry(named: "big", length: length, origin: "record 1", digest: digest.finish())
    func source(_ bytes: [UInt8]) -> ContentSource {
      let prefix = SecureBytes(copying: Array(bytes.prefix(EntryStore.streamThreshold + 1)))
      var offset = prefix.count
      return .streamedInWrite(prefix: prefix) { buffer in
        let n = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes {
          buffer.baseAddress?.copyMemory(from: $0.baseAddress! + offset, byteCount: n)
        }
        offset += n
        return n
      }
    }
    assertChanged {
      _ = try store.importItems(plan, replacing: false, dryRun: false) {
        try $0.entry(named: "big", length: length, source: source(second))
      }
    }
    XCTAssertNil(try store.metadata(EntryName("big")))
    _ = try store.importItems(plan, replacing: false, dryRun: false) {
      try $0.entry(named: "big", length: length, source: source(first))
    }
    XCTAssertEqual(try store.metadata(EntryName("big"))?.length, length)
  }
}
