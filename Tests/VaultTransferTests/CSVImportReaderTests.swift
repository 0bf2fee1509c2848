import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultTransfer

final class CSVImportReaderTests: XCTestCase {
  func read(_ text: String) throws -> TransferBatch {
    try CSVImportReader.read(.bytes(SecureBytes(copying: Array(text.utf8))))
  }

  func assertError(
    _ input: String, _ expected: TransferError, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try read(input), file: file, line: line) {
      XCTAssertEqual($0 as? TransferError, expected, file: file, line: line)
    }
  }

  func testTheSampleGivesEveryRecordInOrderDuplicatesIncluded() throws {
    let batch = try CSVImportReader.read(.bytes(Samples.bytes("csv/entries.csv")))
    XCTAssertEqual(
      batch.entries.map(\.name),
      [
        "mail/work", "web/a, b", "cards/empty-password", "notes/only-notes", "raw/latin1",
        "unicode/café ☕", "mail/work",
      ])
    XCTAssertEqual(
      batch.entries.map(\.location), [2, 5, 8, 9, 12, 14, 15].map(SourceLocation.line))
    XCTAssertEqual(
      batch.entries.map { $0.content.unprotectedBytes },
      [
        Array("hunter2\nusername: ada\nfirst note\n".utf8),
        Array("p\"w\nusername: bob\nurl: https://example.org:8443/\n".utf8),
        Array("\nusername: carol\n".utf8),
        Array("\nsome notes\n".utf8),
        [0x63, 0x61, 0x66, 0xE9, 0x0A],
        Array("s3cret".utf8),
        Array("second\n".utf8),
      ])
    XCTAssertTrue(batch.journal.isEmpty)
  }

  func testBase64ContentsDecodeWrappedOrUnpadded() throws {
    let batch = try CSVImportReader.read(.bytes(Samples.bytes("csv/binary.csv")))
    XCTAssertEqual(batch.entries.map(\.name), ["bin/blob", "text/wrapped", "text/unpadded"])
    XCTAssertEqual(batch.entries.map(\.location), [2, 3, 5].map(SourceLocation.line))
    XCTAssertEqual(
      batch.entries.map { $0.content.unprotectedBytes },
      [[0x00, 0xFF, 0x01, 0x02], Array("hello".utf8), Array("hi".utf8)])
  }

  func testAFieldReplacesTheKeyTheContentHasAndPasswordIsTheFirstLine() throws {
    let batch = try read(
      "name,fields,content\r\nx,\"URL: https://new\r\npassword: pw2\r\n\r\n\",\"pw\nurl: old\n\"\r\n"
    )
    XCTAssertEqual(batch.entries[0].content.text, "pw2\nurl: https://new\n")
  }

  func testHeaderErrors() {
    assertError(
      "name,content,notes\n",
      TransferError(.csvImport(.unknownColumn("notes")), at: .line(1)))
    assertError("content\n", TransferError(.csvImport(.noNameColumn), at: .line(1)))
    assertError(
      "\nname,fields\n",
      TransferError(.csvImport(.noContentColumn), at: .line(2)))
    assertError(
      "name,content,content_b64\n",
      TransferError(.csvImport(.bothContentColumns), at: .line(1)))
  }

  func testRecordErrorsNameTheirLine() {
    assertError(
      "name,content\n\"a\nb\",x\n,y\n", TransferError(.csvImport(.nameEmpty), at: .line(4)))
    assertError(
      "name,content\nok,x\nempty,\n",
      TransferError(.csvImport(.emptyEntry), at: .line(3)))
    assertError(
      "name,content_b64\nb,QQ=A\n",
      TransferError(.csvImport(.contentBase64(.outsideAlphabet)), at: .line(2)))
    assertError(
      "name,content_b64\nb,QUJDR\n",
      TransferError(.csvImport(.contentBase64(.wrongLength)), at: .line(2)))
    assertError(
      "name,content,fields\nf,pw,user name: x\n",
      TransferError(.fields(.notAFieldKey("user name")), at: .line(2)))
    assertError(
      "name,content,fields\nf,pw,url:x\n",
      TransferError(.csvImport(.fieldLineNoBlank), at: .line(2)))
    assertError(
      "name,content,fields\nf,pw,no colon\n",
      TransferError(.csvImport(.fieldLineMalformed), at: .line(2)))
    assertError(
      "name,content,fields\nf,pw,\"a: 1\nA: 2\"\n",
      TransferError(.csvImport(.fieldKeyTwice("A")), at: .line(2)))
    assertError(
      "name,content_b64,fields\nf,AP8=,a: 1\n",
      TransferError(.csvImport(.fieldsNeedText), at: .line(2)))
    let latin1 = SecureBytes(copying: Array("name,content,fields\nf,pw,a: caf".utf8) + [0xE9])
    XCTAssertThrowsError(try CSVImportReader.read(.bytes(latin1))) {
      XCTAssertEqual(
        $0 as? TransferError,
        TransferError(.fields(.valueNotOneLine(key: "a")), at: .line(2)))
    }
  }

  func testBlanksAfterTheColonAreSkipped() throws {
    let batch = try read("name,content,fields\nf,pw,\"a:  \tlead\nb:\"\n")
    XCTAssertEqual(batch.entries[0].content.text, "pw\na: lead\nb: ")
  }

  func testANameThatIsNotUTF8IsRefused() {
    let input = SecureBytes(
      copying: Array("name,content\n".utf8) + [0xC3, 0x28] + Array(",x\n".utf8))
    XCTAssertThrowsError(try CSVImportReader.read(.bytes(input))) {
      XCTAssertEqual(
        $0 as? TransferError, TransferError(.csvImport(.nameNotText), at: .line(2)))
    }
  }

  func testAFolderIsRefused() {
    XCTAssertThrowsError(
      try CSVImportReader.read(.folder(path: "/tmp", decrypt: { _ in SecureBytes(count: 1) }))
    ) {
      XCTAssertEqual(
        $0 as? TransferError, TransferError(.source(.folderGiven(.csv))))
    }
  }
}
