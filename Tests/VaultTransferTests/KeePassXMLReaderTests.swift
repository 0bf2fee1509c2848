import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultTransfer

final class KeePassXMLReaderTests: XCTestCase {
  func read(_ xml: String) throws -> TransferBatch {
    try KeePassXMLReader.read(.bytes(SecureBytes(copying: Array(xml.utf8))))
  }

  func assertError(
    _ xml: String, _ expected: TransferError, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try read(xml), file: file, line: line) {
      XCTAssertEqual($0 as? TransferError, expected, file: file, line: line)
    }
  }

  /// A document whose root group is `Root`, holding `body`.
  func document(_ body: String, meta: String = "") -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<KeePassFile>\n<Meta>\(meta)</Meta>\n<Root>\n"
      + "<Group><UUID>cm9vdA==</UUID><Name>Root</Name>\n\(body)</Group>\n</Root>\n</KeePassFile>\n"
  }

  func entry(_ strings: [(String, String)], extra: String = "") -> String {
    "<Entry>" + extra
      + strings.map { "<String><Key>\($0.0)</Key><Value>\($0.1)</Value></String>" }.joined()
      + "</Entry>\n"
  }

  func testKeePassXCExportCustomAttributesBecomeFieldsHistoryAndRecycleBinSkipped() throws {
    let batch = try KeePassXMLReader.read(.bytes(Samples.bytes("keepass/export.xml")))
    XCTAssertEqual(
      batch.entries.map(\.name),
      [
        "Top level", "Email/Personal", "Email/Same title", "Email/Same title",
        "Email/Work/Mail, main", "Bank/Card", "Ünïcode/Café ☕",
      ])
    // The lines of the <Entry> tags in the sample (make-samples.sh makes the same layout).
    XCTAssertEqual(
      batch.entries.map(\.location), [55, 117, 160, 203, 308, 373, 496].map(SourceLocation.line))
    XCTAssertEqual(
      batch.entries.map(\.content.text),
      [
        "top-secret\n",
        "\nusername: bob\nurl: https://personal.example.org\n",
        "first\n",
        "second\nusername: other\n",
        "p4ss\"word\nusername: ada\nurl: https://mail.example.org\nline one\n"
          + "line \"two\", with a comma\n",
        "1234-new\nusername: carol\nPIN: 4321\naccount-number: DE00 1234\nmulti: |-\n  line 1\n"
          + "  line 2\notp: otpauth://totp/Bank:carol?secret=JBSWY3DPEHPK3PXP\n"
          + "tags: cards,finance\n",
        "café\n",
      ])
  }

  func testNestedGroupsTheRootsEntriesAndAnEmptyPassword() throws {
    let xml = document(
      entry([("Title", "At root"), ("Password", "r")])
        + "<Group><Name>A</Name><Group><Name>B &amp; C</Name>\n"
        + entry(
          [
            ("Notes", "n1\nn2"), ("Password", ""), ("Title", "Deep"), ("UserName", "u"),
            ("username", "again"), ("empty", ""),
          ], extra: "<Tags>t1</Tags>")
        + "</Group></Group>\n")
    let batch = try read(xml)
    XCTAssertEqual(batch.entries.map(\.name), ["At root", "A/B & C/Deep"])
    XCTAssertEqual(batch.entries.map(\.location), [6, 8].map(SourceLocation.line))
    XCTAssertEqual(
      batch.entries.map(\.content.text),
      ["r\n", "\nusername: u\nusername-2: again\nempty:\ntags: t1\nn1\nn2\n"])
  }

  func testTheRecycleBinIsFoundByItsUUIDAndHistoryIsLeftOut() throws {
    let xml = document(
      "<Group><UUID>YmlubmVk</UUID><Name>Trash can</Name>"
        + entry([("Title", "Gone"), ("Password", "x")])
        + "<Group><Name>Deleted group</Name>" + entry([("Title", "Also gone"), ("Password", "y")])
        + "</Group></Group>\n"
        + entry(
          [("Title", "Kept"), ("Password", "new")],
          extra: "<History>" + entry([("Title", "Kept"), ("Password", "old")]) + "</History>"),
      meta: "<RecycleBinEnabled>True</RecycleBinEnabled><RecycleBinUUID>YmlubmVk</RecycleBinUUID>")
    let batch = try read(xml)
    XCTAssertEqual(batch.entries.map(\.name), ["Kept"])
    XCTAssertEqual(batch.entries.map(\.content.text), ["new\n"])
  }

  func testProtectInMemoryIsPlaintextAndCDATAIsText() throws {
    let xml = document(
      "<Entry><String><Key>Title</Key><Value>T</Value></String>"
        + "<String><Key>Password</Key><Value ProtectInMemory=\"True\">p&lt;w</Value></String>"
        + "<String><Key>Notes</Key><Value><![CDATA[a <b> & c]]></Value></String></Entry>\n")
    XCTAssertEqual(try read(xml).entries.map(\.content.text), ["p<w\na <b> & c\n"])
  }

  func testFaultsNameTheirLine() {
    // A title alone is kept as one empty line (an item with only a name keeps its name).
    XCTAssertEqual(
      try? read(document(entry([("Title", "T"), ("Password", "")]))).entries.map(\.content.text),
      ["\n"])
    assertError(
      document("\n" + entry([("Password", "pw")])),
      TransferError(.item(.noTitle), at: .line(7)))
    assertError(
      document(entry([("Title", "T"), ("Password", "a\nb")])),
      TransferError(.item(.passwordHoldsLineBreak), at: .line(6)))
    assertError(
      document(
        "<Entry>\n<String><Key>Password</Key><Value Protected=\"True\">AAEC</Value></String>"
          + "</Entry>\n"),
      TransferError(.keepassXML(.protectedValue(key: "Password")), at: .line(7)))
    assertError(
      "<?xml version=\"1.0\"?>\n<KeePassFile>\n<Root>\n<Group></Root>\n</KeePassFile>\n",
      TransferError(.keepassXML(.notWellFormed(code: 76)), at: .line(4)))
    assertError(
      "<?xml version=\"1.0\"?>\n<KeePassFile>\n<Root>\n",
      TransferError(.keepassXML(.notWellFormed(code: 5)), at: .line(3)))
    assertError(
      "<?xml version=\"1.0\"?>\n<Database/>\n",
      TransferError(.keepassXML(.otherRoot("Database")), at: .line(2)))
    assertError(
      "", TransferError(.keepassXML(.noKeePassFile)))
    // From the new-user review: a jsonl file given as XML is no empty document.
    assertError(
      "{\"name\": \"a\", \"content\": \"b\"}\n",
      TransferError(.keepassXML(.notWellFormed(code: 4)), at: .line(1)))
    assertError(
      "<?xml version=\"1.0\"?>\n<!DOCTYPE KeePassFile [<!ENTITY e \"x\">]>\n<KeePassFile/>",
      TransferError(.keepassXML(.declaresDocumentType)))
  }

  /// From the attack review: libxml2 printed a refused value's line (a piece of the secret) on
  /// standard error; the error is vault's line alone.
  func testAValueOverLibxml2sLimitIsRefusedWithNothingPrinted() throws {
    let secret = String(repeating: "s", count: 11 << 20)
    let capture = FileManager.default.temporaryDirectory.appendingPathComponent(
      "keepass-stderr-\(getpid())"
    ).path
    let fd = open(capture, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    XCTAssertGreaterThanOrEqual(fd, 0)
    let saved = dup(2)
    dup2(fd, 2)
    assertError(
      document(entry([("Title", "T"), ("Password", secret)])),
      TransferError(.keepassXML(.notWellFormed(code: 2)), at: .line(6)))
    dup2(saved, 2)
    close(saved)
    close(fd)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: capture)).count, 0)
    unlink(capture)
  }

  func testBytesThatAreNotUTF8AreNotWellFormed() {
    let bytes =
      Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<KeePassFile>\n<a>".utf8)
      + [0xFF] + Array("</a></KeePassFile>".utf8)
    XCTAssertThrowsError(try KeePassXMLReader.read(.bytes(SecureBytes(copying: bytes)))) {
      XCTAssertEqual(
        $0 as? TransferError,
        TransferError(.keepassXML(.notWellFormed(code: 9)), at: .line(3)))
    }
  }
}
