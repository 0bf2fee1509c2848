import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultTransfer

final class CSVReaderTests: XCTestCase {
  func bytes(_ text: String) -> SecureBytes { SecureBytes(copying: Array(text.utf8)) }

  /// Every record's fields as arrays of bytes.
  func rows(_ csv: CSVReader) -> [[[UInt8]]] {
    csv.records.map { record in
      csv.header.indices.map { csv.value(record, $0).unprotectedBytes }
    }
  }

  func assertError(
    _ input: String, _ expected: TransferError, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try CSVReader(bytes(input)), file: file, line: line) {
      XCTAssertEqual($0 as? TransferError, expected, file: file, line: line)
    }
  }

  func testQuotedFieldsWithDoubledQuotesCommasAndBothLineBreaks() throws {
    let csv = try CSVReader(
      bytes("a,b,c\r\n\"x,1\",\"say \"\"hi\"\"\",\"l1\r\nl2\nl3\"\r\nplain,,\"\"\n"))
    XCTAssertEqual(csv.header, ["a", "b", "c"])
    XCTAssertEqual(csv.headerLine, 1)
    XCTAssertEqual(
      rows(csv),
      [
        [Array("x,1".utf8), Array("say \"hi\"".utf8), Array("l1\r\nl2\nl3".utf8)],
        [Array("plain".utf8), [], []],
      ])
    XCTAssertEqual(csv.records.map(\.line), [2, 5])
  }

  func testALastLineWithoutNewlineABOMAndEmptyLines() throws {
    let csv = try CSVReader(SecureBytes(copying: [0xEF, 0xBB, 0xBF] + Array("\nk,v\n\n1,2".utf8)))
    XCTAssertEqual(csv.header, ["k", "v"])
    XCTAssertEqual(csv.headerLine, 2)
    XCTAssertEqual(rows(csv), [[Array("1".utf8), Array("2".utf8)]])
    XCTAssertEqual(csv.records.map(\.line), [4])
  }

  func testATrailingCommaIsAnEmptyLastField() throws {
    let csv = try CSVReader(bytes("a,b\nx,\n"))
    XCTAssertEqual(rows(csv), [[Array("x".utf8), []]])
    XCTAssertTrue(csv.isEmpty(csv.records[0], 1))
  }

  func testNonUTF8BytesPassThroughAndAreReported() throws {
    let csv = try CSVReader(SecureBytes(copying: Array("a,b\n".utf8) + [0xFF, 0x2C, 0x41, 0x0A]))
    XCTAssertEqual(rows(csv), [[[0xFF], [0x41]]])
    XCTAssertFalse(csv.isText(csv.records[0], 0))
    XCTAssertTrue(csv.isText(csv.records[0], 1))
    XCTAssertFalse(csv.isText(csv.records[0]))
  }

  func testColumnsAreFoundWithoutRegardToCase() throws {
    let csv = try CSVReader(bytes("Name,URL\n"))
    XCTAssertEqual(csv.column("name"), 0)
    XCTAssertEqual(csv.column("url"), 1)
    XCTAssertNil(csv.column("notes"))
    XCTAssertEqual(csv.records.count, 0)
  }

  func testErrorsNameTheLineWhereTheRecordStarts() {
    assertError(
      "a,b\n1,2\n\"open,3\n4\n", TransferError(.csv(.quotedFieldNotClosed), at: .line(3)))
    assertError(
      "a,b\n1,\"x\"y\n", TransferError(.csv(.textAfterClosingQuote), at: .line(2)))
    assertError(
      "a,b\n\"multi\nline\",2\n1,x\"y\n",
      TransferError(.csv(.quoteInUnquotedField), at: .line(4)))
    assertError(
      "a,b\n1,2\r3,4\n",
      TransferError(.csv(.bareCarriageReturn), at: .line(2)))
    assertError(
      "a,b,c\n1,2,3\n\n1,2\n", TransferError(.csv(.fieldCount(fields: 2, columns: 3)), at: .line(4))
    )
    assertError(
      "a,b\n1,2,3\n", TransferError(.csv(.fieldCount(fields: 3, columns: 2)), at: .line(2)))
    assertError(
      "a,b\nonly\n", TransferError(.csv(.fieldCount(fields: 1, columns: 2)), at: .line(2)))
    assertError("", TransferError(.csv(.empty)))
    assertError(
      "\u{FEFF}\n\r\n", TransferError(.csv(.empty)))
    assertError(
      "Name,x,name\n", TransferError(.csv(.columnTwice("name")), at: .line(1)))
    XCTAssertThrowsError(try CSVReader(SecureBytes(copying: [0x61, 0x2C, 0xC3, 0x0A]))) {
      XCTAssertEqual(
        $0 as? TransferError, TransferError(.csv(.headerNotText), at: .line(1)))
    }
  }

  /// Mutations of a real export (bytes changed, dropped, doubled) either parse into records of
  /// the header's width whose values can all be copied, or fail with a located `TransferError`.
  func testMutatedInputsParseConsistentlyOrFailWithALine() throws {
    let sample = try Samples.bytes("keepass/export.csv").unprotectedBytes
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    let interesting: [UInt8] = [0x22, 0x2C, 0x0D, 0x0A, 0xFF, 0x00, 0x41]
    var parsed = 0
    for _ in 0..<600 {
      var bytes = sample
      for _ in 0...next(4) {
        let at = next(bytes.count)
        switch next(3) {
        case 0: bytes[at] = interesting[next(interesting.count)]
        case 1: bytes.remove(at: at)
        default: bytes.insert(bytes[at], at: at)
        }
      }
      do {
        let csv = try CSVReader(SecureBytes(copying: bytes))
        parsed += 1
        for record in csv.records {
          XCTAssertEqual(record.fields.count, csv.header.count)
          for column in csv.header.indices { _ = csv.value(record, column) }
        }
      } catch let error as TransferError {
        guard case .csv = error.reason else { return XCTFail("\(error)") }
      }
    }
    // Both outcomes happen, so the loop exercises the parser and its errors.
    XCTAssertGreaterThan(parsed, 30)
    XCTAssertLessThan(parsed, 570)
  }
}
