import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultTransfer

/// `keepass-csv` and `1password-csv` on their samples and on the faults each must refuse.
final class ExportCSVReaderTests: XCTestCase {
  func input(_ text: String) -> ImportSource { .bytes(SecureBytes(copying: Array(text.utf8))) }

  func contents(_ batch: TransferBatch) -> [String] { batch.entries.map(\.content.text) }

  func assertError<R: ImportReader>(
    _ reader: R.Type, _ text: String, _ expected: TransferError, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTAssertThrowsError(try R.read(input(text)), file: file, line: line) {
      XCTAssertEqual($0 as? TransferError, expected, file: file, line: line)
    }
  }

  func testKeePassXCExportGroupsBecomeFoldersAndTheRecycleBinIsSkipped() throws {
    let batch = try KeePassCSVReader.read(.bytes(Samples.bytes("keepass/export.csv")))
    XCTAssertEqual(
      batch.entries.map(\.name),
      [
        "Top level", "Email/Personal", "Email/Same title", "Email/Same title",
        "Email/Work/Mail, main", "Bank/Card", "Ünïcode/Café ☕",
      ])
    XCTAssertEqual(batch.entries.map(\.location), [2, 3, 4, 5, 6, 8, 9].map(SourceLocation.line))
    XCTAssertEqual(
      contents(batch),
      [
        "top-secret\n",
        "\nusername: bob\nurl: https://personal.example.org\n",
        "first\n",
        "second\nusername: other\n",
        "p4ss\"word\nusername: ada\nurl: https://mail.example.org\nline one\n"
          + "line \"two\", with a comma\n",
        "1234-new\nusername: carol\notp: otpauth://totp/Card:carol?secret=JBSWY3DPEHPK3PXP"
          + "&period=30&digits=6&issuer=Card\n",
        "café\n",
      ])
  }

  func testKeePassUnknownColumnsBecomeFieldsAfterTheKnownOnesWithABOMAndCRLF() throws {
    let batch = try KeePassCSVReader.read(
      input(
        "\u{FEFF}\"Group\",\"Title\",\"Custom: one\",\"Password\",\"Username\",\"URL\",\"Notes\"\r\n"
          + "\"Root\",\"A\",\"x\",\"pw\",\"u\",\"\",\"n\"\r\n"
          + "\"Root/Recycle Bin/Old group\",\"B\",\"\",\"pw\",\"\",\"\",\"\"\r\n"
          + "\"Root/Recycle Binder\",\"C\",\"\",\"pw\",\"\",\"\",\"\"\r\n"))
    XCTAssertEqual(batch.entries.map(\.name), ["A", "Recycle Binder/C"])
    XCTAssertEqual(contents(batch), ["pw\nusername: u\nCustom-one: x\nn\n", "pw\n"])
  }

  func testKeePassFaultsNameTheirLine() {
    let header = "\"Group\",\"Title\",\"Username\",\"Password\",\"URL\",\"Notes\"\n"
    assertError(
      KeePassCSVReader.self, "\"Group\",\"Title\",\"Password\"\n",
      TransferError(.exportCSV(.missingColumn("Username", format: .keepassCSV)), at: .line(1)))
    assertError(
      KeePassCSVReader.self, header + "\"Root\",\"\",\"u\",\"pw\",\"\",\"\"\n",
      TransferError(.item(.noTitle), at: .line(2)))
    // A title alone is kept as one empty line.
    XCTAssertEqual(
      try? KeePassCSVReader.read(
        .bytes(SecureBytes(copying: Array((header + "\"Root\",\"t\",\"\",\"\",\"\",\"\"\n").utf8)))
      ).entries.map { $0.content.unprotectedBytes }, [[0x0A]])
    assertError(
      KeePassCSVReader.self, header + "\"Root\",\"t\",\"\",\"a\nb\",\"\",\"\"\n",
      TransferError(.item(.passwordHoldsLineBreak), at: .line(2)))
    let latin1 = SecureBytes(
      copying: Array((header + "\"Root\",\"caf").utf8) + [0xE9]
        + Array("\",\"\",\"pw\",\"\",\"\"\n".utf8))
    XCTAssertThrowsError(try KeePassCSVReader.read(.bytes(latin1))) {
      XCTAssertEqual(
        $0 as? TransferError,
        TransferError(.exportCSV(.recordNotText), at: .line(2)))
    }
    XCTAssertThrowsError(
      try KeePassCSVReader.read(.folder(path: "/", decrypt: { _ in SecureBytes(count: 1) }))
    ) {
      XCTAssertEqual(
        $0 as? TransferError, TransferError(.source(.folderGiven(.keepassCSV))))
    }
  }

  func testOnePasswordExportFromItsDocumentedColumns() throws {
    let batch = try OnePasswordCSVReader.read(.bytes(Samples.bytes("1password/export.csv")))
    XCTAssertEqual(
      batch.entries.map(\.name),
      ["Forum", "Bank", "Wi-Fi", "Shared/Team login", "Café ☕", "Forum"])
    XCTAssertEqual(batch.entries.map(\.location), [2, 3, 5, 6, 7, 8].map(SourceLocation.line))
    XCTAssertEqual(
      contents(batch),
      [
        "three\nusername: snowfox\nurl: https://forum.example.org\n",
        "p,w\"1\nusername: wendy\nurl: https://bank.example.com/login\n"
          + "otp: otpauth://totp/Bank:wendy?secret=JBSWY3DPEHPK3PXP&issuer=Bank\n"
          + "tags: finance;personal\nBranch: 42\r\ncall first\n",
        "correct horse battery\nArchived network\n",
        "\nusername: team@example.com\nurl: https://team.example.com\ntags: work\n",
        "pässwörd\nusername: ünï\n",
        "four\nusername: snowfox2\nurl: https://forum2.example.org\n",
      ])
  }

  func testOnePasswordNeedsOnlyTitleAndPasswordAndKeepsOtherColumns() throws {
    let batch = try OnePasswordCSVReader.read(input("title,password,Member ID\nGym,,A-17\n"))
    XCTAssertEqual(contents(batch), ["\nMember-ID: A-17\n"])
    assertError(
      OnePasswordCSVReader.self, "Title,Username\n",
      TransferError(.exportCSV(.missingColumn("Password", format: .onePasswordCSV)), at: .line(1)))
    XCTAssertEqual(
      try? OnePasswordCSVReader.read(
        .bytes(SecureBytes(copying: Array("Title,Password,Notes\n\"a\nb\",pw,\nx,,\n".utf8)))
      ).entries.map { $0.content.unprotectedBytes }, [Array("pw\n".utf8), [0x0A]])
  }

  func testOnePasswordWithABOMAndBytesThatAreNotUTF8() throws {
    let batch = try OnePasswordCSVReader.read(
      input("\u{FEFF}Title,Password\r\n\"Bank\",\"pw\"\r\n"))
    XCTAssertEqual(batch.entries.map(\.name), ["Bank"])
    XCTAssertEqual(contents(batch), ["pw\n"])
    let latin1 = SecureBytes(copying: Array("Title,Password\nA,caf".utf8) + [0xE9, 0x0A])
    XCTAssertThrowsError(try OnePasswordCSVReader.read(.bytes(latin1))) {
      XCTAssertEqual(
        $0 as? TransferError,
        TransferError(.exportCSV(.recordNotText), at: .line(2)))
    }
  }
}
