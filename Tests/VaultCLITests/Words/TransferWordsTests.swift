import Glibc
import VaultCore
import VaultFormat
import VaultSecrets
import VaultTransfer
import XCTest

@testable import VaultCLI

/// The words the command line gives an import source's faults and an export's left-out
/// entries (`TransferWords` and the words of each reader family): each case's exact line, as
/// users saw it when the readers composed the sentences.
final class TransferWordsTests: XCTestCase {
  /// Asserts that each reason reads as its line.
  func assertWords(
    _ cases: [(TransferError.Reason, String)], file: StaticString = #filePath, line: UInt = #line
  ) {
    for (reason, words) in cases {
      XCTAssertEqual(TransferWords.phrase(reason), words, "\(reason)", file: file, line: line)
    }
  }

  func testAFaultIsReportedAtItsLocationAsInvalidInput() {
    XCTAssertThrowsError(
      try ImportCommand.located { throw TransferError(.csvImport(.nameEmpty), at: .line(4)) }
    ) {
      guard let located = $0 as? LocatedError else { return XCTFail("\($0)") }
      XCTAssertEqual(located.location, "line 4")
      XCTAssertEqual(located.report.code, .invalidInput)
      XCTAssertEqual(located.report.message, "the name is empty")
      XCTAssertNil(located.report.hint)
    }
    XCTAssertThrowsError(
      try ImportCommand.located { throw TransferError(.source(.folderGiven(.csv))) }
    ) {
      XCTAssertEqual(($0 as? InputRefused)?.message, "the csv format reads a file, not a folder")
    }
  }

  func testASourceOfTheWrongKindAnItemAndBase64() {
    assertWords([
      (.source(.folderGiven(.csv)), "the csv format reads a file, not a folder"),
      (.source(.folderGiven(.keepassCSV)), "the keepass-csv format reads a file, not a folder"),
      (
        .source(.folderGiven(.onePasswordCSV)),
        "the 1password-csv format reads a file, not a folder"
      ),
      (.source(.folderGiven(.keepassXML)), "the keepass-xml format reads a file, not a folder"),
      (.source(.folderGiven(.jsonl)), "the jsonl format reads a file, not a folder"),
      (.source(.folderGiven(.jrnlJSON)), "the jrnl-json format reads a file, not a folder"),
      (
        .source(.folderGiven(.bitwardenJSON)),
        "the bitwarden-json format reads a file, not a folder"
      ),
      (.source(.fileGiven), "a password store is a folder, not a file"),
      (
        .source(.passphraseMissing),
        "the vault format is encrypted: it is read with its passphrase"
      ),
      (.item(.noTitle), "the entry has no title"),
      (.item(.passwordHoldsLineBreak), "the password holds a line break"),
      (.item(.empty), "the entry is empty"),
      (.base64(.outsideAlphabet), "the base64 text has a byte outside its alphabet or after '='"),
      (.base64(.wrongLength), "the base64 text has a wrong length or padding"),
      (
        .fields(.notAFieldKey("user name")),
        "fields: 'user name' is not a field key: use 1 to 64 bytes without spaces, control"
          + " characters or ':'"
      ),
      (.input(.name(.emptySegment(name: "a//b"))), "the name 'a//b' has an empty path segment"),
    ])
  }

  func testCSVTextVaultsCSVAndAManagersCSVExport() {
    assertWords([
      (.csv(.empty), "the input is empty: a CSV file starts with a header line"),
      (.csv(.headerNotText), "the header is not UTF-8 text"),
      (.csv(.columnTwice("name")), "the header names the column 'name' twice"),
      (.csv(.fieldCount(fields: 2, columns: 3)), "the record has 2 fields, the header 3"),
      (.csv(.fieldCount(fields: 3, columns: 2)), "the record has 3 fields, the header 2"),
      (.csv(.fieldCount(fields: 1, columns: 2)), "the record has 1 field, the header 2"),
      (
        .csv(.tooManyColumns(limit: CSVReader.maximumColumns)),
        "the header has more than 4096 columns, the most a CSV header may have"
      ),
      (
        .csv(.headerTooLong(limit: CSVReader.maximumHeaderBytes)),
        "the header is longer than 1 MiB, the most a CSV header may be"
      ),
      (
        .csv(.quoteInUnquotedField),
        "a quote inside a field that does not start with one (quote the field and double the"
          + " quote)"
      ),
      (.csv(.bareCarriageReturn), "a carriage return without a line feed outside quotes"),
      (.csv(.quotedFieldNotClosed), "a quoted field is not closed"),
      (.csv(.textAfterClosingQuote), "text after the closing quote of a field"),
      (
        .csvImport(.unknownColumn("notes")),
        "the column 'notes' is not one of name, content, content_b64 and fields"
      ),
      (.csvImport(.noNameColumn), "the header has no 'name' column"),
      (
        .csvImport(.noContentColumn),
        "the header has neither a 'content' nor a 'content_b64' column"
      ),
      (
        .csvImport(.bothContentColumns),
        "the header has both 'content' and 'content_b64': give one"
      ),
      (.csvImport(.nameNotText), "the name is not UTF-8 text"),
      (.csvImport(.nameEmpty), "the name is empty"),
      (
        .csvImport(.contentBase64(.outsideAlphabet)),
        "content_b64: the base64 text has a byte outside its alphabet or after '='"
      ),
      (
        .csvImport(.contentBase64(.wrongLength)),
        "content_b64: the base64 text has a wrong length or padding"
      ),
      (.csvImport(.emptyEntry), "the entry is empty: give a content or fields"),
      (.csvImport(.fieldKeyTwice("A")), "fields: the key 'A' is given twice"),
      (.csvImport(.fieldsNeedText), "fields need a content that is UTF-8 text"),
      (.csvImport(.fieldLineMalformed), "fields: a line is not 'KEY: VALUE'"),
      (
        .csvImport(.fieldLineNoBlank),
        "fields: a line is not 'KEY: VALUE' (a blank follows the ':')"
      ),
      (
        .exportCSV(.missingColumn("Username", format: .keepassCSV)),
        "the header has no 'Username' column: is this a KeePassXC CSV export?"
      ),
      (
        .exportCSV(.missingColumn("Password", format: .onePasswordCSV)),
        "the header has no 'Password' column: is this a 1Password CSV export?"
      ),
      (
        .exportCSV(.groupColumn),
        "the header has a 'Group' column, which 1Password's CSV has not: is this a KeePassXC CSV"
          + " export? (import it with --from keepass-csv)"
      ),
      (
        .exportCSV(.recordNotText),
        "the record is not UTF-8 text (the export is; was the file saved again in another"
          + " encoding?)"
      ),
    ])
  }

  func testJSONText() {
    assertWords([
      (.jsonSyntax(.tooLarge), "the JSON text is larger than 2 GiB"),
      (.jsonSyntax(.empty), "there is no JSON value (the text is empty)"),
      (
        .jsonSyntax(.endsWhereExpected(.commaOrBrace)),
        "the JSON text ends where ',' or '}' was expected"
      ),
      (.jsonSyntax(.endsWhereExpected(.value)), "the JSON text ends where a value was expected"),
      (
        .jsonSyntax(.expected(.memberName, found: UInt8(ascii: "}"))),
        "expected a member name in double quotes, found '}'"
      ),
      (
        .jsonSyntax(.expected(.memberName, found: UInt8(ascii: "'"))),
        "expected a member name in double quotes, found '''"
      ),
      (.jsonSyntax(.expected(.value, found: UInt8(ascii: "]"))), "expected a value, found ']'"),
      (
        .jsonSyntax(.expected(.commaOrBracket, found: UInt8(ascii: "2"))),
        "expected ',' or ']', found '2'"
      ),
      (.jsonSyntax(.expected(.colon, found: UInt8(ascii: "1"))), "expected ':', found '1'"),
      (.jsonSyntax(.expected(.value, found: 0xEF)), "expected a value, found byte 0xEF"),
      (.jsonSyntax(.expected(.value, found: 0x20)), "expected a value, found byte 0x20"),
      (
        .jsonSyntax(.afterTheValue(found: UInt8(ascii: "x"))),
        "unexpected 'x' after the JSON value"
      ),
      (
        .jsonSyntax(.nestedTooDeep(limit: 64)),
        "arrays and objects are nested deeper than 64 levels"
      ),
      (.jsonSyntax(.keyTwice("a")), "the object has the key 'a' twice"),
      (.jsonSyntax(.noDigitAfterMinus), "a number needs a digit after its '-'"),
      (.jsonSyntax(.leadingZero), "a number does not start with 0 followed by digits"),
      (.jsonSyntax(.noDigitAfterPoint), "a number needs a digit after its '.'"),
      (.jsonSyntax(.noDigitInExponent), "a number needs a digit in its exponent"),
      (.jsonSyntax(.stringNotClosed), "a string is not closed"),
      (
        .jsonSyntax(.controlCharacter(0x09)),
        "a string holds a control character (byte 0x09) that must be escaped"
      ),
      (
        .jsonSyntax(.loneSurrogate(0xD83D)),
        #"a string holds a lone surrogate (\uD83D), which is no character"#
      ),
      (
        .jsonSyntax(.unknownEscape(UInt8(ascii: "x"))),
        #"a string holds an unknown escape '\x'"#
      ),
      (.jsonSyntax(.unknownEscape(0x01)), #"a string holds an unknown escape '\?'"#),
      (.jsonSyntax(.shortUnicodeEscape), #"a \u escape needs four hex digits"#),
      (.jsonSyntax(.invalidUTF8(0xFF)), "a string is not valid UTF-8 (at byte 0xFF)"),
      (.jsonSyntax(.invalidUTF8(0x80)), "a string is not valid UTF-8 (at byte 0x80)"),
    ])
  }

  func testJSONMembersJSONLinesBitwardenAndJrnl() {
    assertWords([
      (.jsonMember(.missing("name")), "the member 'name' is missing"),
      (.jsonMember(.notAString("notes", .number)), "'notes' is a number, not a string"),
      (.jsonLines(.notAnObject(.array)), "a line holds one JSON object, not an array"),
      (
        .jsonLines(.unknownMember("x")),
        "unknown member 'x' (an entry has 'name', 'content', 'content_b64', 'password', 'fields',"
          + " 'notes')"
      ),
      (.jsonLines(.bothContents), "give 'content' or 'content_b64', not both"),
      (
        .jsonLines(.wholeAndParts("content")),
        "'content' is the whole entry: give it, or 'password', 'fields' and 'notes'; not both"
      ),
      (
        .jsonLines(.contentBase64(.wrongLength)),
        "'content_b64': the base64 text has a wrong length or padding"
      ),
      (.jsonLines(.contentEmpty), "the content is empty"),
      (
        .jsonLines(.noContent),
        "give the entry's 'content' (or 'content_b64'), or 'password', 'fields' and 'notes'"
      ),
      (.jsonLines(.fieldsNotAnObject(.string)), "'fields' is an object of strings, not a string"),
      (.jsonLines(.fieldNotAString("k", .bool)), "the field 'k' is a boolean, not a string"),
      (.jsonLines(.fieldNotAString("k", .null)), "the field 'k' is null, not a string"),
      (
        .bitwarden(.encrypted),
        "this Bitwarden export is encrypted; export the vault again as '.json' (not"
          + " '.json (Encrypted)')"
      ),
      (
        .bitwarden(.notAnExport),
        "this is not a Bitwarden JSON export (an object with an 'items' array)"
      ),
      (.bitwarden(.foldersNotAnArray), "'folders' is not an array"),
      (.bitwarden(.folderMalformed), "a folder is not an object with an id and a name"),
      (.bitwarden(.itemNotAnObject(.number)), "an item is an object, not a number"),
      (.bitwarden(.typeNotANumber), "the item's 'type' is not a number"),
      (.bitwarden(.unknownType(9)), "the item type 9 is not known"),
      (.bitwarden(.unknownFolder("f")), "the item's folder f is not among the export's folders"),
      (.bitwarden(.customFieldNotAnObject(.array)), "a custom field is an array, not an object"),
      (
        .jrnl(.notAnExport),
        "this is not a jrnl JSON export (an object with an 'entries' array)"
      ),
      (.jrnl(.entryNotAnObject(.object)), "an entry is an object, not an object"),
      (
        .jrnl(.dateTime(date: "2024-02-30", time: "10:00")),
        "the date and time '2024-02-30 10:00' are not YYYY-MM-DD and HH:MM"
      ),
      (.jrnl(.empty), "the entry has neither a title nor a body"),
    ])
  }

  func testKeePassXML() {
    assertWords([
      (
        .keepassXML(.notUTF8),
        "the document is not UTF-8 (it holds a NUL byte, as UTF-16 does); KeePass XML exports are"
          + " UTF-8"
      ),
      (
        .keepassXML(.declaresDocumentType),
        "the document has a document type declaration (<!DOCTYPE), which a KeePass XML export"
          + " does not"
      ),
      (
        .keepassXML(.libxml2NotLoaded(reason: "libxml2.so.2: cannot open shared object file")),
        "libxml2, which reads KeePass XML, cannot be loaded (libxml2.so.2: cannot open shared"
          + " object file); install Debian's libxml2 package, or import the keepass-csv export"
          + " instead"
      ),
      (
        .keepassXML(.libxml2LacksSymbol("xmlTextReaderRead")),
        "libxml2, which reads KeePass XML, cannot be loaded (libxml2 has no xmlTextReaderRead);"
          + " install Debian's libxml2 package, or import the keepass-csv export instead"
      ),
      (
        .keepassXML(.notWellFormed(code: 2)),
        "the XML is not well-formed (a value over libxml2's 10 MB limit, or no memory, libxml2"
          + " error 2)"
      ),
      (
        .keepassXML(.notWellFormed(code: 4)),
        "the XML is not well-formed (no XML element where the document begins, libxml2 error 4)"
      ),
      (
        .keepassXML(.notWellFormed(code: 5)),
        "the XML is not well-formed (the document does not end where it should, libxml2 error 5)"
      ),
      (
        .keepassXML(.notWellFormed(code: 9)),
        "the XML is not well-formed (a byte that is no UTF-8 character, libxml2 error 9)"
      ),
      (
        .keepassXML(.notWellFormed(code: 76)),
        "the XML is not well-formed (an end tag does not match its start tag, libxml2 error 76)"
      ),
      (.keepassXML(.notWellFormed(code: 41)), "the XML is not well-formed (libxml2 error 41)"),
      (
        .keepassXML(.noKeePassFile),
        "the document is not a KeePass XML file (no KeePassFile element)"
      ),
      (
        .keepassXML(.otherRoot("Database")),
        "the document is not a KeePass XML file (its root is Database)"
      ),
      (
        .keepassXML(.protectedValue(key: "Password")),
        "the value of 'Password' is encrypted (Protected=\"True\"): this is a database's inner"
          + " XML, not an export"
      ),
    ])
  }

  func testAPasswordStoreAndGPG() {
    assertWords([
      (
        .passwordStore(.storeNotOpened(path: "/s/missing", errno: ENOENT)),
        "cannot open the folder /s/missing: No such file or directory"
      ),
      (.passwordStore(.notInspected(errno: EACCES)), "cannot read it: Permission denied"),
      (
        .passwordStore(.symbolicLink),
        "it is a symbolic link, and vault follows none in a store: put the file or folder it"
          + " points to in its place"
      ),
      (
        .passwordStore(.folderNotOpened(errno: EACCES)),
        "cannot open the folder: Permission denied"
      ),
      (
        .passwordStore(.folderNotListed(errno: EACCES)),
        "cannot list the folder: Permission denied"
      ),
      (
        .passwordStore(.ageEncrypted),
        "an age-encrypted gopass entry: vault reads stores encrypted with GnuPG only"
      ),
      (.passwordStore(.notARegularFile), "it is not a regular file"),
      (.passwordStore(.nameNotUTF8), "the file name is not UTF-8"),
      (.passwordStore(.emptyPlaintext), "the entry is empty (its plaintext has 0 bytes)"),
      (.passwordStore(.notDecrypted("boom")), "cannot decrypt it: boom"),
      (.gpg(.fileNotOpened(errno: ENOENT)), "cannot open it: No such file or directory"),
      (.gpg(.fileNotOpened(errno: ELOOP)), "cannot open it: Too many levels of symbolic links"),
      (.gpg(.noPipe(errno: EMFILE)), "cannot make a pipe for gpg: Too many open files"),
      (
        .gpg(.plaintextTooLarge(limit: 16 << 20)),
        "its plaintext is larger than 16777216 bytes, more than vault holds in memory; nothing"
          + " was written"
      ),
      (.gpg(.outputNotRead), "cannot read gpg's output"),
      (
        .gpg(.exited(status: 2, lastLine: "gpg: decryption failed: No secret key")),
        "gpg could not decrypt it (exited with 2): gpg: decryption failed: No secret key"
      ),
      (.gpg(.exited(status: 2, lastLine: "")), "gpg could not decrypt it (exited with 2)"),
      (
        .gpg(.killed(signal: 9, lastLine: "")),
        "gpg could not decrypt it (was killed by signal 9)"
      ),
      (
        .gpg(.killed(signal: 15, lastLine: "gpg: signal caught")),
        "gpg could not decrypt it (was killed by signal 15): gpg: signal caught"
      ),
    ])
  }

  func testAVaultExportsRecords() {
    assertWords([
      (.exportFile(.entryAfterJournal), "an entry after a journal entry (entries come first)"),
      (
        .exportFile(.endCounts(entries: 2, journal: 0, heldEntries: 1, heldJournal: 0)),
        "the end record counts 2 entries and 0 journal entries; the export holds 1 and 0"
      ),
      (.exportFile(.unknownKind(7)), "a record of unknown kind 7"),
      (.exportFile(.flags(2)), "an entry's flags are 2"),
      (.exportFile(.nameLength(0)), "an entry's name has 0 bytes"),
      (.exportFile(.nameNotUTF8), "an entry's name is not UTF-8"),
      (.exportFile(.nameNotNFC("e\u{301}")), "the name 'e\u{301}' is not in NFC"),
      (
        .exportFile(.nameOutOfOrder("a")),
        "the name 'a' is not after the one before it (names are in ascending order, each once)"
      ),
      (.exportFile(.timesNotUTC(name: "a")), "the times of 'a' are not ISO 8601 UTC"),
      (.exportFile(.contentLength(name: "a", bytes: 0)), "the content of 'a' has 0 bytes"),
      (
        .exportFile(.stampMalformed),
        "a journal entry's stamp is not YYYY-MM-DDTHH:MM:SS+HH:MM"
      ),
      (.exportFile(.journalTextLength(0)), "a journal entry's text has 0 bytes"),
      (.exportFile(.paddingNotZero), "a byte after the end record is not zero padding"),
      (
        .exportFile(.paddingLength(found: 283, expected: 238)),
        "the padding after the end record is 283 bytes, not 238"
      ),
      (.exportFile(.endsInsideRecord), "the export's plaintext ends inside a record"),
      (.exportFile(.contentEndsEarly), "the content ends early"),
      (
        .exportFile(.contentNotHeld(name: "big", bytes: 5_000_000)),
        "the content of 'big' (5000000 bytes) cannot be held in memory"
      ),
    ])
  }

  func testWhyAnExportLeftAnEntryOut() {
    let cases: [(LeftOutReason, String)] = [
      (
        .tooLarge(.keepassXML, bytes: 1_048_577),
        "it is too large for keepass-xml (1048577 bytes; export it with --to vault, which imports"
          + " back at any size)"
      ),
      (
        .tooLarge(.bitwardenJSON, bytes: 1_048_577),
        "it is too large for bitwarden-json (1048577 bytes; export it with --to vault, which"
          + " imports back at any size)"
      ),
      (.contentNotText, "its content is not UTF-8 text"),
      (
        .contentNotXMLText,
        "its content is not UTF-8 text XML 1.0 can carry (a control character, or not UTF-8)"
      ),
      (.nameNotXMLText, "its name holds a character XML 1.0 cannot carry"),
      (
        .readerWouldRefuse,
        "its reader would refuse it (a first line with a carriage return, or only line breaks)"
      ),
    ]
    for (reason, words) in cases {
      XCTAssertEqual(TransferWords.phrase(reason), words, "\(reason)")
    }
  }
}
