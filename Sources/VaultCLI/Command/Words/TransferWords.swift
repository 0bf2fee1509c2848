import VaultFormat
import VaultTransfer

/// The words of an import source's fault.
enum TransferWords {
  /// What is wrong, as the message says it after the location (`line 3: `).
  static func phrase(_ reason: TransferError.Reason) -> String {
    switch reason {
    case .source(let fault): phrase(fault)
    case .csv(let fault): CSVWords.phrase(fault)
    case .csvImport(let fault): CSVWords.phrase(fault)
    case .exportCSV(let fault): CSVWords.phrase(fault)
    case .item(let fault): phrase(fault)
    case .base64(let fault): phrase(fault)
    case .jsonSyntax(let fault): JSONWords.phrase(fault)
    case .jsonMember(let fault): JSONWords.phrase(fault)
    case .jsonLines(let fault): JSONWords.phrase(fault)
    case .bitwarden(let fault): JSONWords.phrase(fault)
    case .jrnl(let fault): JSONWords.phrase(fault)
    case .keepassXML(let fault): phrase(fault)
    case .passwordStore(let fault): PasswordStoreWords.phrase(fault)
    case .gpg(let fault): PasswordStoreWords.phrase(fault)
    case .exportFile(let fault): ExportFileWords.phrase(fault)
    case .fields(let error): "fields: \(error.message)"
    case .input(let fault): InputWords.phrase(fault)
    }
  }

  /// A source of the wrong kind.
  static func phrase(_ fault: SourceFault) -> String {
    switch fault {
    case .folderGiven(let format): "the \(format.rawValue) format reads a file, not a folder"
    case .fileGiven: "a password store is a folder, not a file"
    case .passphraseMissing: "the vault format is encrypted: it is read with its passphrase"
    }
  }

  /// An item that cannot be an entry.
  static func phrase(_ fault: ItemFault) -> String {
    switch fault {
    case .noTitle: "the entry has no title"
    case .passwordHoldsLineBreak: "the password holds a line break"
    case .empty: "the entry is empty"
    }
  }

  /// A base64 text refused.
  static func phrase(_ fault: Base64Fault) -> String {
    switch fault {
    case .outsideAlphabet: "the base64 text has a byte outside its alphabet or after '='"
    case .wrongLength: "the base64 text has a wrong length or padding"
    }
  }

  /// A KeePass XML document refused.
  static func phrase(_ fault: KeePassXMLFault) -> String {
    switch fault {
    case .notUTF8:
      "the document is not UTF-8 (it holds a NUL byte, as UTF-16 does); KeePass XML exports are"
        + " UTF-8"
    case .declaresDocumentType:
      "the document has a document type declaration (<!DOCTYPE), which a KeePass XML export"
        + " does not"
    case .libxml2NotLoaded(let reason): libxml2Missing(reason)
    case .libxml2LacksSymbol(let name): libxml2Missing("libxml2 has no \(name)")
    case .notWellFormed(let code): notWellFormed(code: code)
    case .noKeePassFile: "the document is not a KeePass XML file (no KeePassFile element)"
    case .otherRoot(let name): "the document is not a KeePass XML file (its root is \(name))"
    case .protectedValue(let key):
      "the value of '\(key)' is encrypted (Protected=\"True\"): this is a database's inner XML,"
        + " not an export"
    }
  }

  /// libxml2 cannot be had, for `reason`.
  static func libxml2Missing(_ reason: String) -> String {
    "libxml2, which reads KeePass XML, cannot be loaded (\(reason)); install Debian's libxml2"
      + " package, or import the keepass-csv export instead"
  }

  /// A libxml2 error code (`xmlParserErrors`), in words for the usual ones.
  static func notWellFormed(code: Int) -> String {
    let words: [Int: String] = [
      2: "a value over libxml2's 10 MB limit, or no memory",
      4: "no XML element where the document begins", 5: "the document does not end where it should",
      9: "a byte that is no UTF-8 character", 26: "an undeclared entity",
      73: "a tag is not closed by '>'", 76: "an end tag does not match its start tag",
      77: "the document ends inside an element",
    ]
    let reason = words[code].map { "\($0), libxml2 error \(code)" } ?? "libxml2 error \(code)"
    return "the XML is not well-formed (\(reason))"
  }

  /// Why an export left an entry out.
  static func phrase(_ reason: LeftOutReason) -> String {
    switch reason {
    case .tooLarge(let format, let bytes):
      "it is too large for \(format.rawValue) (\(bytes) bytes; export it with --to vault, which"
        + " imports back at any size)"
    case .contentNotText: "its content is not UTF-8 text"
    case .contentNotXMLText:
      "its content is not UTF-8 text XML 1.0 can carry (a control character, or not UTF-8)"
    case .nameNotXMLText: "its name holds a character XML 1.0 cannot carry"
    case .readerWouldRefuse:
      "its reader would refuse it (a first line with a carriage return, or only line breaks)"
    }
  }
}
