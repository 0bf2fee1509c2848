import Foundation
import VaultCore
import XCTest

@testable import VaultCrypto
@testable import VaultFormat
@testable import VaultSecrets
@testable import VaultTransfer

/// The plaintext writers: exact bytes for small vaults, and what their readers read back.
final class ExportWriterTests: XCTestCase {
  func testJSONLinesEscapeTextAndGiveOtherBytesInBase64() throws {
    let entries: [any ExportableEntry] = [
      TestEntry("a\"b\\/c", "pw\nuser: x\n"),
      TestEntry("bin", bytes: [0xFF, 0x00, 0x41]),
      TestEntry("crlf", "pw\r\nk: v\r\n\t\u{7F}\u{1B}"),
      TestEntry("empty-password", "\nusername: a\n"),
      TestEntry("nul", bytes: [0x61, 0x00, 0x62]),
      TestEntry("ünï", "☕"),
    ]
    let (bytes, summary) = try ExportTest.write(.jsonl, entries)
    XCTAssertEqual(summary, ExportSummary(entries: 6))
    XCTAssertEqual(
      ExportTest.text(bytes),
      #"""
      {"name":"a\"b\\/c","content":"pw\nuser: x\n"}
      {"name":"bin","content_b64":"/wBB"}
      {"name":"crlf","content":"pw\r\nk: v\r\n\t\u007f\u001b"}
      {"name":"empty-password","content":"\nusername: a\n"}
      {"name":"nul","content":"a\u0000b"}
      {"name":"ünï","content":"☕"}

      """#)
    // Read by the JSON of another implementation (Foundation), as the spec of the import side
    // reads it: `content` is the content's UTF-8, `content_b64` its base64.
    for (line, entry) in zip(ExportTest.text(bytes).split(separator: "\n"), entries) {
      let object = try XCTUnwrap(
        JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
      XCTAssertEqual(object["name"], entry.name)
      let content =
        try object["content"].map { Array($0.utf8) }
        ?? GuardedBase64.decode(
          SecureBytes(copying: Array(try XCTUnwrap(object["content_b64"]).utf8))
        )
        .unprotectedBytes
      XCTAssertEqual(content, (entry as? TestEntry)?.bytes, entry.name)
    }
  }

  func testBase64CarriesBytesAcrossPiecesOfAnySize() throws {
    let data = ExportTest.pattern(1 + 1 + 1 + 2 + 5 + 65539 + 7)
    for sizes in [[1, 1, 1, 2, 5, 65539, 7], [65556], [2, 65553, 1], [4, 4, 65548]] {
      var out: [UInt8] = []
      let buffer = OutputBuffer { out.append(contentsOf: $0) }
      var encoder = Base64Encoder()
      var start = 0
      for size in sizes {
        try data[start..<start + size].withUnsafeBytes { try encoder.encode($0, into: buffer) }
        start += size
      }
      try encoder.finish(into: buffer)
      try buffer.flush()
      XCTAssertEqual(ExportTest.text(out), Data(data).base64EncodedString(), "\(sizes)")
    }
  }

  func testALargeContentIsStreamedAsBase64InJSONLinesAndCSV() throws {
    let large = ExportTest.pattern(EntryStore.streamThreshold + 10)
    let entries: [any ExportableEntry] = [TestEntry("big", bytes: large), TestEntry("small", "s")]
    let encoded = Data(large).base64EncodedString()
    let (jsonl, _) = try ExportTest.write(.jsonl, entries)
    XCTAssertEqual(
      ExportTest.text(jsonl),
      "{\"name\":\"big\",\"content_b64\":\"\(encoded)\"}\n{\"name\":\"small\",\"content\":\"s\"}\n")
    let (csv, _) = try ExportTest.write(.csv, entries)
    XCTAssertEqual(ExportTest.text(csv), "name,content_b64\r\nbig,\(encoded)\r\nsmall,cw==\r\n")
    let batch = try CSVImportReader.read(.bytes(SecureBytes(copying: csv)))
    XCTAssertEqual(batch.entries.map { $0.content.unprotectedBytes }, [large, [0x73]])
  }

  func testCSVQuotesWhatMustBeQuotedAndReadsBackByteForByte() throws {
    let text: [any ExportableEntry] = [
      TestEntry("a,b", "pw\r\nnote \"q\"\n"),
      TestEntry("mail/work", "hunter2\nusername: ada\n"),
      TestEntry("plain", "x y"),
      TestEntry("ünï", "\n\r"),
    ]
    let (bytes, summary) = try ExportTest.write(.csv, text)
    XCTAssertEqual(summary, ExportSummary(entries: 4))
    XCTAssertEqual(
      ExportTest.text(bytes),
      "name,content\r\n\"a,b\",\"pw\r\nnote \"\"q\"\"\n\"\r\nmail/work,\"hunter2\nusername: ada\n\"\r\n"
        + "plain,x y\r\nünï,\"\n\r\"\r\n")
    let batch = try CSVImportReader.read(.bytes(SecureBytes(copying: bytes)))
    XCTAssertEqual(batch.entries.map(\.name), text.map(\.name))
    XCTAssertEqual(
      batch.entries.map { $0.content.unprotectedBytes },
      text.map { ($0 as? TestEntry)?.bytes ?? [] })

    let mixed: [any ExportableEntry] = [
      TestEntry("bin", bytes: [0xFF, 0x00, 0x0D]), TestEntry("nul", bytes: [0x61, 0x00]),
      TestEntry("t", "x"),
    ]
    let (encoded, _) = try ExportTest.write(.csv, mixed)
    XCTAssertEqual(
      ExportTest.text(encoded), "name,content_b64\r\nbin,/wAN\r\nnul,YQA=\r\nt,eA==\r\n")
    let back = try CSVImportReader.read(.bytes(SecureBytes(copying: encoded)))
    XCTAssertEqual(
      back.entries.map { $0.content.unprotectedBytes },
      [[0xFF, 0x00, 0x0D], [0x61, 0x00], [0x78]])
  }
}

/// The formats for leaving: exact documents for a small vault, and what the readers compose back.
final class LeavingFormatTests: XCTestCase {
  /// Every layout case: exact in slots, exact in notes only, reshaped, left out.
  static let entries: [TestEntry] = [
    TestEntry("mail/work", "hunter2\nusername: ada\nurl: https://m.example\ncode: 12\nnotes\n"),
    TestEntry("mail/blank", "pw\nk: v\n\nafter a blank line\n"),
    TestEntry("web/no-lf", "pw"),
    TestEntry("web/crlf", "pw\r\nuser: win\r\n"),
    TestEntry("a/b/deep", "a<b&c>d\nr\rx\n"),
    TestEntry("empty-password", "\nusername: a\n"),
    TestEntry("clash", "pw\nNotes: x\nTitle: y\n"),
    TestEntry("bin", bytes: [0xFF, 0x41]),
    TestEntry("ctl", "a\u{1}b\n"),
    TestEntry("lf-only", "\n\n"),
    TestEntry("big", bytes: ExportTest.pattern(EntryStore.streamThreshold + 1)),
    TestEntry("g/guarded", "pin\notp: otpauth://totp/x?secret=JBSWY3DP\n", guarded: true),
  ]

  func testKeePassXMLReadsBackThroughItsReaderExactlyWhereItCan() throws {
    let (bytes, summary) = try ExportTest.write(.keepassXML, Self.entries.map { $0 })
    XCTAssertEqual(summary.entries, 8)
    XCTAssertEqual(summary.reshaped, ["web/crlf", "web/no-lf"])
    XCTAssertEqual(summary.leftOut.map(\.name), ["big", "bin", "ctl", "lf-only"])
    XCTAssertEqual(
      summary.leftOut.map(\.reason),
      [
        .tooLarge(.keepassXML, bytes: 1_048_577), .contentNotXMLText, .contentNotXMLText,
        .readerWouldRefuse,
      ])
    let batch = try KeePassXMLReader.read(.bytes(SecureBytes(copying: bytes)))
    let read = Dictionary(
      uniqueKeysWithValues: batch.entries.map {
        ($0.name, ExportTest.text($0.content.unprotectedBytes))
      })
    XCTAssertEqual(
      batch.entries.map(\.name),
      [
        "clash", "empty-password", "a/b/deep", "g/guarded", "mail/blank", "mail/work", "web/crlf",
        "web/no-lf",
      ])
    for entry in Self.entries
    where read[entry.name] != nil && !summary.reshaped.contains(entry.name) {
      XCTAssertEqual(read[entry.name], ExportTest.text(entry.bytes), entry.name)
    }
    XCTAssertEqual(read["web/no-lf"], "pw\n")
    XCTAssertEqual(read["web/crlf"], "pw\nuser: win\n")
  }

  func testKeePassXMLOfASmallVault() throws {
    let entries: [any ExportableEntry] = [
      TestEntry("mail/work", "hunter2\nusername: ada\nurl: https://m\ncode: 1\n"),
      TestEntry("top", "a<&>\nr\rb"),
    ]
    let (bytes, _) = try ExportTest.write(.keepassXML, entries)
    XCTAssertEqual(ExportTest.text(bytes), Self.keepassDocument)
  }

  func testBitwardenJSONOfTheSameVaultAndWhatItsReaderWouldCompose() throws {
    let (bytes, summary) = try ExportTest.write(.bitwardenJSON, Self.entries.map { $0 })
    XCTAssertEqual(summary.entries, 9)
    XCTAssertEqual(summary.reshaped, ["web/no-lf", "web/crlf"])
    XCTAssertEqual(summary.leftOut.map(\.name), ["bin", "lf-only", "big"])
    let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    XCTAssertEqual(document["encrypted"] as? Bool, false)
    let folders = try XCTUnwrap(document["folders"] as? [[String: Any]])
    XCTAssertEqual(folders.compactMap { $0["name"] as? String }, ["a", "a/b", "g", "mail", "web"])
    let folderNames = Dictionary(
      uniqueKeysWithValues: folders.compactMap { f in
        (f["id"] as? String).map { ($0, f["name"] as? String ?? "") }
      })
    let items = try XCTUnwrap(document["items"] as? [[String: Any]])
    // The documented reader: the folder's name, then the item's; the content composed from the
    // password, username, the first URI, totp, the custom fields in order and the notes.
    for item in items {
      XCTAssertEqual(item["type"] as? Int, 1)
      let login = try XCTUnwrap(item["login"] as? [String: Any])
      var fields: [(key: String, value: SecureBytes)] = []
      func add(_ key: String, _ value: Any?) {
        if let text = value as? String, !text.isEmpty { fields.append((key, secure(text))) }
      }
      add("username", login["username"])
      add("url", (login["uris"] as? [[String: Any]])?.first?["uri"])
      add("otp", login["totp"])
      for field in item["fields"] as? [[String: Any]] ?? [] {
        fields.append((field["name"] as? String ?? "", secure(field["value"] as? String ?? "")))
      }
      let content = try EntryContent.compose(
        password: (login["password"] as? String).map(secure), fields: fields,
        notes: (item["notes"] as? String).map(secure))
      let folder = (item["folderId"] as? String).flatMap { folderNames[$0] }
      let name = (folder.map { $0 + "/" } ?? "") + (item["name"] as? String ?? "")
      let original = try XCTUnwrap(
        Self.entries.first { $0.name == name }, name)
      XCTAssertEqual(item["reprompt"] as? Int, original.guarded ? 1 : 0, name)
      XCTAssertEqual(item["creationDate"] as? String, "2026-01-02T03:04:05.000Z")
      XCTAssertEqual(item["revisionDate"] as? String, "2026-02-03T04:05:06.000Z")
      switch name {
      case "web/no-lf": XCTAssertEqual(ExportTest.text(content.unprotectedBytes), "pw\n")
      case "web/crlf": XCTAssertEqual(ExportTest.text(content.unprotectedBytes), "pw\nuser: win\n")
      default: XCTAssertEqual(content.unprotectedBytes, original.bytes, name)
      }
    }
    XCTAssertEqual(items.count, 9)
  }

  func testBitwardenJSONOfASmallVault() throws {
    let entries: [any ExportableEntry] = [
      TestEntry("mail/work", "hunter2\nusername: ada\nurl: https://m\ncode: 1\n\"n\"\n"),
      TestEntry("top", "pin\n", guarded: true),
    ]
    let (bytes, summary) = try ExportTest.write(.bitwardenJSON, entries)
    XCTAssertEqual(summary, ExportSummary(entries: 2))
    XCTAssertEqual(ExportTest.text(bytes), Self.bitwardenDocument)
    let (empty, _) = try ExportTest.write(.bitwardenJSON, [])
    XCTAssertEqual(
      ExportTest.text(empty), "{\n  \"encrypted\": false,\n  \"folders\": [],\n  \"items\": []\n}\n"
    )
  }

  static let keepassDocument = #"""
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <KeePassFile>
    	<Meta>
    		<Generator>vault</Generator>
    	</Meta>
    	<Root>
    		<Group>
    			<UUID>AAAAAAAAAAAAAAAAAAAAAA==</UUID>
    			<Name>Root</Name>
    			<Entry>
    				<UUID>AQEBAQEBAQEBAQEBAQEBAQ==</UUID>
    				<Times>
    					<CreationTime>2026-01-02T03:04:05Z</CreationTime>
    					<LastModificationTime>2026-02-03T04:05:06Z</LastModificationTime>
    				</Times>
    				<String>
    					<Key>Title</Key>
    					<Value>top</Value>
    				</String>
    				<String>
    					<Key>UserName</Key>
    					<Value></Value>
    				</String>
    				<String>
    					<Key>Password</Key>
    					<Value ProtectInMemory="True">a&lt;&amp;&gt;</Value>
    				</String>
    				<String>
    					<Key>URL</Key>
    					<Value></Value>
    				</String>
    				<String>
    					<Key>Notes</Key>
    					<Value>r&#13;b</Value>
    				</String>
    			</Entry>
    			<Group>
    				<UUID>AgICAgICAgICAgICAgICAg==</UUID>
    				<Name>mail</Name>
    				<Entry>
    					<UUID>AwMDAwMDAwMDAwMDAwMDAw==</UUID>
    					<Times>
    						<CreationTime>2026-01-02T03:04:05Z</CreationTime>
    						<LastModificationTime>2026-02-03T04:05:06Z</LastModificationTime>
    					</Times>
    					<String>
    						<Key>Title</Key>
    						<Value>work</Value>
    					</String>
    					<String>
    						<Key>UserName</Key>
    						<Value>ada</Value>
    					</String>
    					<String>
    						<Key>Password</Key>
    						<Value ProtectInMemory="True">hunter2</Value>
    					</String>
    					<String>
    						<Key>URL</Key>
    						<Value>https://m</Value>
    					</String>
    					<String>
    						<Key>Notes</Key>
    						<Value></Value>
    					</String>
    					<String>
    						<Key>code</Key>
    						<Value>1</Value>
    					</String>
    				</Entry>
    			</Group>
    		</Group>
    	</Root>
    </KeePassFile>

    """#
  static let bitwardenDocument = #"""
    {
      "encrypted": false,
      "folders": [
        {
          "id": "00000000-0000-4000-8000-000000000000",
          "name": "mail"
        }
      ],
      "items": [
        {
          "id": "01010101-0101-4101-8101-010101010101",
          "organizationId": null,
          "folderId": "00000000-0000-4000-8000-000000000000",
          "type": 1,
          "reprompt": 0,
          "name": "work",
          "notes": "\"n\"",
          "favorite": false,
          "fields": [
            {
              "name": "code",
              "value": "1",
              "type": 0,
              "linkedId": null
            }
          ],
          "login": {
            "uris": [
              {
                "match": null,
                "uri": "https://m"
              }
            ],
            "username": "ada",
            "password": "hunter2",
            "totp": null,
            "fido2Credentials": []
          },
          "collectionIds": null,
          "revisionDate": "2026-02-03T04:05:06.000Z",
          "creationDate": "2026-01-02T03:04:05.000Z",
          "deletedDate": null,
          "passwordHistory": null
        },
        {
          "id": "02020202-0202-4202-8202-020202020202",
          "organizationId": null,
          "folderId": null,
          "type": 1,
          "reprompt": 1,
          "name": "top",
          "notes": null,
          "favorite": false,
          "login": {
            "uris": [],
            "username": null,
            "password": "pin",
            "totp": null,
            "fido2Credentials": []
          },
          "collectionIds": null,
          "revisionDate": "2026-02-03T04:05:06.000Z",
          "creationDate": "2026-01-02T03:04:05.000Z",
          "deletedDate": null,
          "passwordHistory": null
        }
      ]
    }

    """#
}

func secure(_ text: String) -> SecureBytes { SecureBytes(copying: Array(text.utf8)) }
