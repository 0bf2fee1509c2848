import Foundation
import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultJournal
@testable import VaultSecrets
@testable import VaultTransfer

/// The jsonl, bitwarden-json and jrnl-json readers on their samples and on each fault.
final class ImportReaderTests: XCTestCase {
  static let fixtures =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/import").path

  func source(_ text: String) -> ImportSource { .bytes(SecureBytes(copying: Array(text.utf8))) }

  func fixture(_ name: String) throws -> ImportSource {
    .bytes(
      SecureBytes(
        copying: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/" + name)))))
  }

  func text(_ bytes: SecureBytes) -> String {
    bytes.withBytes { String(decoding: $0, as: UTF8.self) }
  }

  /// The `TransferError` `reader` refuses `text` with; nil when it accepts it or throws another
  /// error.
  func refusal<Reader: ImportReader>(_ reader: Reader.Type, _ text: String) -> TransferError? {
    do {
      _ = try reader.read(source(text))
      return nil
    } catch {
      return error as? TransferError
    }
  }

  func testJSONLinesEntriesAndLocations() throws {
    let batch = try JSONLinesReader.read(
      source(
        "\n" + #"{"name":"a","content":"x"}"# + "\n\t\r\n"
          + #"{"name":"b","password":"p","fields":{"k":"v"}}"# + "\r\n"))
    XCTAssertEqual(batch.entries.map(\.name), ["a", "b"])
    XCTAssertEqual(batch.entries.map(\.location), [.line(2), .line(4)])
    XCTAssertEqual(batch.entries.map { text($0.content) }, ["x", "p\nk: v\n"])
    XCTAssertEqual(batch.journal.count, 0)
    XCTAssertEqual(
      refusal(JSONLinesReader.self, #"{"name":"a","content":"x"}"# + "\n" + #"{"name":"b""#),
      TransferError(.jsonSyntax(.endsWhereExpected(.commaOrBrace)), at: .line(2)))
  }

  func testStreamingHandsItemsOverOneByOneAndStopsAtTheFault() {
    var seen: [String] = []
    XCTAssertThrowsError(
      try JSONLinesReader.read(
        source(#"{"name":"a","content":"1"}"# + "\n" + #"{"name":"b","content":"2"}"# + "\nnope\n"),
        each: { item in
          if case .entry(let entry) = item { seen.append(entry.name) }
        })
    ) { XCTAssertEqual(($0 as? TransferError)?.location, .line(3)) }
    XCTAssertEqual(seen, ["a", "b"], "the items before the fault were handed over")
  }

  func testBitwardenSampleEveryItemType() throws {
    let batch = try BitwardenJSONReader.read(fixture("bitwarden-export.json"))
    XCTAssertEqual(
      batch.entries.map(\.name),
      [
        "Social/Mastodon", "Wi-Fi at home", "Finance/Banking/Bank letters", "Finance/Banking/Visa",
        "Me", "Deploy key",
      ])
    XCTAssertEqual(batch.entries.map(\.location), (1...6).map { .record($0) })
    let contents = batch.entries.map { text($0.content) }
    XCTAssertEqual(
      contents[0],
      """
      c0rrect-h0rse
      username: ada@example.com
      url: https://mastodon.social/auth/sign_in
      url-2: https://mastodon.example
      url-3: androidapp://org.joinmastodon.android
      otp: otpauth://totp/Mastodon:ada?secret=JBSWY3DPEHPK3PXP&issuer=Mastodon
      Security-question: Blue whale
      API-token: tok_9f8e7d6c5b4a
      2FA-enabled: true
      Login-field: ada@example.com
      Secret-field: c0rrect-h0rse
      Recovery codes are in the safe.

      """)
    XCTAssertEqual(
      contents[1], "\n", "an item with an empty password and nothing else keeps its name")
    XCTAssertEqual(
      contents[2], "\nAccount-number: 12-3456-7890\nAccount opened 2019.\nBranch: High Street.\n")
    XCTAssertEqual(
      contents[3],
      "\ncardholderName: Ada Lovelace\nbrand: Visa\nnumber: 4111111111111111\nexpMonth: 4\nexpYear: 2029\ncode: 123\n"
    )
    XCTAssertEqual(
      contents[4],
      "\ntitle: Ms\nfirstName: Ada\nlastName: Lovelace\naddress1: 12 St James's Square\ncity: London\n"
        + "postalCode: SW1Y 4JH\ncountry: GB\nemail: ada@example.com\nphone: +44 20 7946 0000\n"
        + "username: ada\nFull-name: Ada Lovelace\n")
    XCTAssertEqual(
      contents[5],
      "\nprivateKey: |\n  -----BEGIN OPENSSH PRIVATE KEY-----\n  b3BlbnNzaC1rZXktdjEAAAAA\n"
        + "  -----END OPENSSH PRIVATE KEY-----\n"
        + "publicKey: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIExample deploy@example\n"
        + "keyFingerprint: SHA256:2bXoTzLaBn9vnB7c2V8pEi3E5b0lq2sQzPq0xGJt6Yk\n")
    let fields = try EntryFields(batch.entries[0].content)
    XCTAssertEqual(
      fields.oneTimeCodeURI.map(text),
      "otpauth://totp/Mastodon:ada?secret=JBSWY3DPEHPK3PXP&issuer=Mastodon")
  }

  func testBitwardenFaultsNameTheRecord() {
    func items(_ items: String, folders: String = "[]") -> String {
      #"{"encrypted": false, "folders": "# + folders + #", "items": ["# + items + "]}"
    }
    XCTAssertEqual(
      refusal(BitwardenJSONReader.self, #"{"encrypted": true, "items": []}"#),
      TransferError(.bitwarden(.encrypted), at: .line(1))
    )
    // The password-protected form has `data` and no `items` (from the second new-user review:
    // it was called "not a Bitwarden JSON export").
    XCTAssertEqual(
      refusal(
        BitwardenJSONReader.self,
        #"{"encrypted": true, "passwordProtected": true, "salt": "c2FsdA==", "kdfType": 0,"#
          + #" "kdfIterations": 600000, "encKeyValidation_DO_NOT_EDIT": "x", "data": "y"}"#),
      TransferError(.bitwarden(.encrypted), at: .line(1))
    )
    XCTAssertEqual(
      refusal(BitwardenJSONReader.self, "[]"),
      TransferError(.bitwarden(.notAnExport), at: .line(1)))
    XCTAssertEqual(
      refusal(
        BitwardenJSONReader.self, items(#"{"type": 1, "name": "a"}, {"type": 9, "name": "b"}"#)),
      TransferError(.bitwarden(.unknownType(9)), at: .record(2)))
    XCTAssertEqual(
      refusal(BitwardenJSONReader.self, items(#"{"type": 1, "name": "a", "folderId": "f"}"#)),
      TransferError(.bitwarden(.unknownFolder("f")), at: .record(1)))
    XCTAssertEqual(
      refusal(BitwardenJSONReader.self, items(#"{"type": 2}"#)),
      TransferError(.jsonMember(.missing("name")), at: .record(1)))
    XCTAssertEqual(
      refusal(
        BitwardenJSONReader.self, items(#"{"type": 1, "name": "a", "login": {"password": "x\ny"}}"#)
      ),
      TransferError(.item(.passwordHoldsLineBreak), at: .record(1)))
    XCTAssertEqual(
      refusal(
        BitwardenJSONReader.self, items(#"{"type": 1, "name": "a","# + "\n" + #" "notes": 5}"#)),
      TransferError(.jsonMember(.notAString("notes", .number)), at: .record(1)))
    XCTAssertEqual(
      try BitwardenJSONReader.read(
        source(items(#"{"type": 2, "name": "trash", "deletedDate": "2024-01-01T00:00:00.000Z"}"#))
      ).entries.count, 0, "an item in the trash is left out")
  }

  func testJrnlSampleIntoTheJournalInTheLocalZone() throws {
    setenv("TZ", "America/New_York", 1)
    defer { unsetenv("TZ") }
    let batch = try JrnlJSONReader.read(fixture("jrnl-export.json"))
    XCTAssertEqual(batch.entries.count, 0)
    XCTAssertEqual(
      batch.journal.map(\.stamp.description),
      [
        "2024-03-01T08:15:00-05:00", "2024-03-02T21:40:00-05:00", "2024-03-03T18:30:00-05:00",
        "2024-03-04T07:05:00-05:00",
      ])
    XCTAssertEqual(batch.journal.map(\.location), (1...4).map { .record($0) })
    XCTAssertEqual(
      batch.journal.map { text($0.text) },
      [
        "Started the @garden.\nPlanted tomatoes and basil.",
        "Dinner with @anna and @ben.\nWe talked about the trip to Lisbon; it's booked for May.",
        "Long day at work.\nThe build broke twice, fixed by evening.\nNote to self: @work backups before"
          + " Friday. Café tomorrow — naïve résumé 😀",
        "Starred entry about the @garden.",
      ])
    XCTAssertEqual(JournalTags.keys(in: batch.journal[1].text), ["anna", "ben"])
    // 2024-03-10 02:30 does not exist in New York (the clocks went from 02:00 to 03:00).
    XCTAssertEqual(
      JrnlJSONReader.stamp(date: "2024-03-10", time: "02:30")?.description,
      "2024-03-10T03:30:00-04:00")
    XCTAssertEqual(
      JrnlJSONReader.stamp(date: "2024-07-01", time: "12:00:07")?.description,
      "2024-07-01T12:00:07-04:00")
  }

  func testJrnlFaultsNameTheRecord() {
    XCTAssertEqual(
      refusal(
        JrnlJSONReader.self,
        #"{"entries": [{"title": "t", "date": "2024-02-30", "time": "10:00"}]}"#),
      TransferError(.jrnl(.dateTime(date: "2024-02-30", time: "10:00")), at: .record(1)))
    XCTAssertEqual(
      refusal(
        JrnlJSONReader.self,
        #"{"entries": [{"title": "t", "date": "2024-02-03", "time": "10:00"}, {"title": "", "body": "", "date": "2024-02-03", "time": "10:00"}]}"#
      ),
      TransferError(.jrnl(.empty), at: .record(2)))
    XCTAssertEqual(
      refusal(JrnlJSONReader.self, #"{"entries": [{"title": "t", "time": "10:00"}]}"#),
      TransferError(.jsonMember(.missing("date")), at: .record(1)))
    XCTAssertEqual(
      refusal(JrnlJSONReader.self, #"{"tags": {}}"#),
      TransferError(.jrnl(.notAnExport), at: .line(1)))
  }
}
