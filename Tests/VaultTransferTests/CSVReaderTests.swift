import VaultCore
import XCTest

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
      "a,b\n1,2\n\"open,3\n4\n", TransferError("a quoted field is not closed", at: .line(3)))
    assertError(
      "a,b\n1,\"x\"y\n", TransferError("text after the closing quote of a field", at: .line(2)))
    assertError(
      "a,b\n\"multi\nline\",2\n1,x\"y\n",
      TransferError(
        "a quote inside a field that does not start with one (quote the field and double the"
          + " quote)", at: .line(4)))
    assertError(
      "a,b\n1,2\r3,4\n",
      TransferError("a carriage return without a line feed outside quotes", at: .line(2)))
    assertError(
      "a,b,c\n1,2,3\n\n1,2\n", TransferError("the record has 2 fields, the header 3", at: .line(4)))
    assertError(
      "a,b\n1,2,3\n", TransferError("the record has 3 fields, the header 2", at: .line(2)))
    assertError("", TransferError("the input is empty: a CSV file starts with a header line"))
    assertError(
      "\u{FEFF}\n\r\n", TransferError("the input is empty: a CSV file starts with a header line"))
    assertError(
      "Name,x,name\n", TransferError("the header names the column 'name' twice", at: .line(1)))
    XCTAssertThrowsError(try CSVReader(SecureBytes(copying: [0x61, 0x2C, 0xC3, 0x0A]))) {
      XCTAssertEqual(
        $0 as? TransferError, TransferError("the header is not UTF-8 text", at: .line(1)))
    }
  }
}
