import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultTransfer

/// An entry to export made of plain bytes, streamed in pieces of `EntryStore.chunkSize` as the
/// vault streams a content.
struct TestEntry: ExportableEntry {
  var name: String
  var bytes: [UInt8]
  var created = "2026-01-02T03:04:05Z"
  var updated = "2026-02-03T04:05:06Z"
  var guarded = false

  init(_ name: String, _ text: String, guarded: Bool = false) {
    self.init(name, bytes: Array(text.utf8), guarded: guarded)
  }

  init(_ name: String, bytes: [UInt8], guarded: Bool = false) {
    self.name = name
    self.bytes = bytes
    self.guarded = guarded
  }

  var length: Int { bytes.count }

  func content() throws -> SecureBytes {
    guard !isLarge else { throw VaultError.tooLarge(name: name, length: length) }
    return SecureBytes(copying: bytes)
  }

  func stream(_ deliver: (UnsafeRawBufferPointer) throws -> Void) throws {
    var start = 0
    while start < bytes.count {
      let end = min(start + EntryStore.chunkSize, bytes.count)
      try bytes[start..<end].withUnsafeBytes { try deliver($0) }
      start = end
    }
  }
}

/// Export helpers for the writer tests.
enum ExportTest {
  /// A content of `count` bytes of every value in turn, larger than the threshold when asked.
  static func pattern(_ count: Int) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7) }
  }

  /// Ids 00…00, 01…01, … for the formats that need them.
  static func counter() -> () -> [UInt8] {
    var next: UInt8 = 0
    return {
      defer { next &+= 1 }
      return [UInt8](repeating: next, count: 16)
    }
  }

  /// What `format` writes for `entries` (and `journal`), with the test KDF and counted ids.
  static func write(
    _ format: ExportFormat, _ entries: [any ExportableEntry], journal: [TransferJournalEntry] = [],
    passphrase: String = "correct horse battery staple"
  ) throws -> (bytes: [UInt8], summary: ExportSummary) {
    var out: [UInt8] = []
    let options = ExportOptions(
      passphrase: try ExportPassphrase(utf8: SecureBytes(copying: Array(passphrase.utf8))),
      kdf: .test, identifier: counter())
    let summary = try Exporter.write(
      format, entries: entries, journal: journal, options: options
    ) { out.append(contentsOf: $0) }
    return (out, summary)
  }

  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
