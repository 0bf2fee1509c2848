import Foundation
import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultTransfer

final class PasswordStoreReaderTests: XCTestCase {
  var gnupg: SampleGnuPG?
  var folder: String?

  override func tearDown() {
    gnupg?.finish()
    if let folder { try? FileManager.default.removeItem(atPath: folder) }
    super.tearDown()
  }

  func readSample(_ store: String) throws -> TransferBatch {
    let gnupg = try SampleGnuPG()
    self.gnupg = gnupg
    return try PasswordStoreReader.read(
      .folder(path: Samples.folder + "/" + store, decrypt: { try gnupg.decrypt($0) }))
  }

  /// A new store folder whose files hold their plaintext as it is (`decrypt` reads them).
  func store(_ files: KeyValuePairs<String, [UInt8]>) throws -> String {
    let root = NSTemporaryDirectory() + "vault-store-" + UUID().uuidString
    folder = root
    for (path, bytes) in files {
      let url = URL(fileURLWithPath: root + "/" + path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: url)
    }
    return root
  }

  func readPlain(_ root: String) throws -> TransferBatch {
    try PasswordStoreReader.read(
      .folder(
        path: root,
        decrypt: { SecureBytes(copying: try Data(contentsOf: URL(fileURLWithPath: $0))) }))
  }

  func assertError(_ root: String, _ expected: TransferError, line: UInt = #line) {
    XCTAssertThrowsError(try readPlain(root), line: line) {
      XCTAssertEqual($0 as? TransferError, expected, line: line)
    }
  }

  func testThePassSampleDecryptsByteForByteInPathOrder() throws {
    let batch = try readSample("pass")
    XCTAssertEqual(
      batch.entries.map(\.name),
      [
        "a/b/c/deep", "bin/blob", "crlf/windows", "empty-password", "mail/work",
        "notes/multi line", "unicode/café ☕", "web/example.org",
      ])
    XCTAssertEqual(
      batch.entries.map(\.location),
      [
        "a/b/c/deep.gpg", "bin/blob.gpg", "crlf/windows.gpg", "empty-password.gpg",
        "mail/work.gpg", "notes/multi line.gpg", "unicode/café ☕.gpg", "web/example.org.gpg",
      ].map(SourceLocation.file))
    XCTAssertEqual(
      batch.entries.map { $0.content.unprotectedBytes },
      [
        Array("deep\n".utf8),
        [0xFF, 0xFE, 0x00, 0x01] + Array("binary".utf8) + [0x80],
        Array("pw\r\nuser: win\r\n".utf8),
        Array("\nusername: nobody\n".utf8),
        Array("hunter2\nusername: ada\nurl: https://mail.example.org\n".utf8),
        Array("correct horse\nsecond line\n\nfourth line after a blank\n".utf8),
        Array("pässwörd\n".utf8),
        Array(
          ("s3cret\nlogin: ada@example.org\nurl: https://example.org/login\n"
            + "otp: otpauth://totp/Example:ada?secret=JBSWY3DPEHPK3PXP&issuer=Example\n").utf8),
      ])
    let fields = try EntryFields(batch.entries[4].content)
    XCTAssertEqual(fields.keys, ["password", "username", "url"])
  }

  func testTheGopassSampleDecryptsByteForByte() throws {
    let batch = try readSample("gopass")
    XCTAssertEqual(batch.entries.map(\.name), ["bin/key", "servers/db", "single", "team x/résumé"])
    XCTAssertEqual(
      batch.entries.map { $0.content.unprotectedBytes },
      [
        [0x00, 0x9F, 0x92, 0x96] + Array("raw".utf8),
        Array("Tr0ub4dor&3\nuser: postgres\nhost: db.example.org:5432\n".utf8),
        Array("only-a-password".utf8),
        Array("one\ntwo\nthree\n".utf8),
      ])
  }

  func testHiddenAndOtherFilesAreSkippedAndNormalizationTwinsAreBothReturned() throws {
    let root = try store([
      ".git/objects/x.gpg": [1], ".gpg-id": [2], ".public-keys/k": [3], "a/.pass-template.gpg": [4],
      "README": [5], "a/note.txt": [6], "x.gpg.bak": [7], "a/e\u{301}.gpg": [8],
      "a/\u{E9}.gpg": [9],
      "z.gpg/inner.gpg": [10],
    ])
    let batch = try readPlain(root)
    // Bytes, not strings: Swift's == would take the two spellings of é for one.
    XCTAssertEqual(
      batch.entries.map { Array($0.name.utf8) },
      [Array("a/e\u{301}".utf8), Array("a/\u{E9}".utf8), Array("z.gpg/inner".utf8)])
    XCTAssertEqual(batch.entries.map { $0.content.unprotectedBytes }, [[8], [9], [10]])
  }

  func testSymbolicLinksAreRefused() throws {
    let root = try store(["real.gpg": [1], "dir/in.gpg": [2]])
    XCTAssertEqual(symlink(root + "/real.gpg", root + "/link.gpg"), 0)
    assertError(
      root,
      TransferError(.passwordStore(.symbolicLink), at: .file("link.gpg")))
    unlink(root + "/link.gpg")
    XCTAssertEqual(symlink(root + "/dir", root + "/dir-link"), 0)
    assertError(
      root,
      TransferError(.passwordStore(.symbolicLink), at: .file("dir-link")))
  }

  func testRefusalsNameTheFile() throws {
    assertError(
      try store(["ok.gpg": [1], "sub/empty.gpg": []]),
      TransferError(.passwordStore(.emptyPlaintext), at: .file("sub/empty.gpg")))
    assertError(
      try store(["a/b.age": [1]]),
      TransferError(.passwordStore(.ageEncrypted), at: .file("a/b.age")))
    let fifoRoot = try store(["x.gpg": [1]])
    XCTAssertEqual(mkfifo(fifoRoot + "/pipe.gpg", 0o600), 0)
    assertError(fifoRoot, TransferError(.passwordStore(.notARegularFile), at: .file("pipe.gpg")))
    let latin1 = try store(["ok.gpg": [1]])
    let path =
      (Array((latin1 + "/caf").utf8) + [0xE9] + Array(".gpg".utf8)).map { CChar(bitPattern: $0) }
      + [0]
    let made = creat(path, 0o600)
    XCTAssertGreaterThanOrEqual(made, 0)
    close(made)
    assertError(latin1, TransferError(.passwordStore(.nameNotUTF8), at: .file("caf\u{FFFD}.gpg")))
  }

  /// What a decrypt that has not the key throws.
  static let noSecretKey = TransferError.Reason.gpg(
    .exited(status: 2, lastLine: "gpg: decryption failed: No secret key"))

  func testDecryptFailuresNameTheFileAndAMissingFolderIsRefused() throws {
    let root = try store(["a.gpg": [1], "b.gpg": [2]])
    XCTAssertThrowsError(
      try PasswordStoreReader.read(
        .folder(
          path: root,
          decrypt: { path in
            guard path.hasSuffix("/a.gpg") else { throw TransferError(Self.noSecretKey) }
            return SecureBytes(copying: [1])
          }))
    ) {
      XCTAssertEqual($0 as? TransferError, TransferError(Self.noSecretKey, at: .file("b.gpg")))
    }
    XCTAssertThrowsError(try readPlain(root + "/missing")) {
      XCTAssertEqual(
        $0 as? TransferError,
        TransferError(.passwordStore(.storeNotOpened(path: root + "/missing", errno: ENOENT))))
    }
    XCTAssertThrowsError(try PasswordStoreReader.read(.bytes(SecureBytes(count: 1)))) {
      XCTAssertEqual(
        $0 as? TransferError, TransferError(.source(.fileGiven)))
    }
  }
}
