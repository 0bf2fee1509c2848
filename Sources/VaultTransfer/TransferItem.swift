import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// Where in its source an item or an error was read, for messages: `line 12`, `record 3` or
/// `file mail/work.gpg`.
public struct SourceLocation: Equatable, Sendable, CustomStringConvertible {
  /// What `number` counts.
  public enum Unit: String, Sendable {
    /// A line of a text source (1-based), for line-oriented formats (jsonl, CSV).
    case line
    /// A record of a structured source (1-based, in the order the source lists them).
    case record
    /// A file of a folder source; `number` is 0 and `path` names it.
    case file
  }

  /// What the location counts.
  public let unit: Unit
  /// The 1-based line or record number (0 for a file).
  public let number: Int
  /// The file, relative to the source folder, for `.file`.
  public let path: String?

  /// Line `number` (1-based).
  public static func line(_ number: Int) -> SourceLocation {
    SourceLocation(unit: .line, number: number, path: nil)
  }

  /// Record `number` (1-based).
  public static func record(_ number: Int) -> SourceLocation {
    SourceLocation(unit: .record, number: number, path: nil)
  }

  /// The file `path` of a folder source.
  public static func file(_ path: String) -> SourceLocation {
    SourceLocation(unit: .file, number: 0, path: path)
  }

  /// `line N`, `record N` or `file PATH`.
  public var description: String {
    switch unit {
    case .line: return "line \(number)"
    case .record: return "record \(number)"
    case .file: return "file \(path ?? "")"
    }
  }
}

/// An input that cannot be imported, or a vault that cannot be exported: `reason` says what,
/// `location` where (nil for the source as a whole).
public struct TransferError: Error, Equatable, CustomStringConvertible {
  /// What is wrong: a fact of the reader's family, or the typed error of the code below it that
  /// refused the item.
  public enum Reason: Equatable, Sendable {
    /// The source is of the wrong kind for the format.
    case source(SourceFault)
    /// The CSV text is not well formed (`CSVReader`).
    case csv(CSVFault)
    /// A header or record of vault's `csv` format is refused (`CSVImportReader`).
    case csvImport(CSVImportFault)
    /// A header or record of a password manager's CSV export is refused.
    case exportCSV(ExportCSVFault)
    /// An item cannot be an entry (no title, a password of two lines, nothing in it).
    case item(ItemFault)
    /// A base64 text is refused (`GuardedBase64`).
    case base64(Base64Fault)
    /// The JSON text is not well formed (`GuardedJSON`).
    case jsonSyntax(JSONSyntaxFault)
    /// A member of a JSON object is missing or not a string.
    case jsonMember(JSONMemberFault)
    /// A line of the `jsonl` format is refused.
    case jsonLines(JSONLinesFault)
    /// A Bitwarden JSON export or one of its items is refused.
    case bitwarden(BitwardenFault)
    /// A jrnl JSON export or one of its entries is refused.
    case jrnl(JrnlFault)
    /// A KeePass XML document is refused.
    case keepassXML(KeePassXMLFault)
    /// A password store's folder or file is refused.
    case passwordStore(PasswordStoreFault)
    /// gpg gave no plaintext for a password store's file.
    case gpg(GPGFault)
    /// A record of a `vault` export is refused.
    case exportFile(ExportFileFault)
    /// A line of a `fields` cell that the field convention refuses (`EntryFields`).
    case fields(SecretError)
    /// Input refused by the code below (an entry name that is not valid).
    case input(InputFault)
  }

  /// Where the fault is, when it is in one item.
  public let location: SourceLocation?
  /// What the fault is.
  public let reason: Reason

  /// The error `reason` at `location`.
  public init(_ reason: Reason, at location: SourceLocation? = nil) {
    self.reason = reason
    self.location = location
  }

  /// `LOCATION: REASON`, or the reason alone, the reason as its case (the command line gives it
  /// words).
  public var description: String {
    guard let location else { return "\(reason)" }
    return "\(location): \(reason)"
  }
}

/// One entry read from a source: its name as the source gives it (checked as an `EntryName`
/// before anything is written) and its content in guarded memory, byte for byte what the entry
/// will hold.
public struct TransferEntry: Sendable {
  /// The name, before NFC normalization and checking.
  public var name: String
  /// The content (at least 1 byte when imported).
  public var content: SecureBytes
  /// Where the source has it.
  public var location: SourceLocation
  /// True when the source marks it guarded (only a `vault` export does); false otherwise.
  public var guarded = false
  /// When the source says it was made, ISO 8601 UTC (only a `vault` export does); nil otherwise.
  public var created: String?
  /// When the source says its content last changed, ISO 8601 UTC (only a `vault` export does);
  /// nil otherwise.
  public var updated: String?

  /// The entry `name` holding `content`, read at `location`.
  public init(name: String, content: SecureBytes, location: SourceLocation) {
    self.name = name
    self.content = content
    self.location = location
  }
}

/// One journal entry read from a source: when it was written and its text.
public struct TransferJournalEntry: Sendable {
  /// When it was written, with its UTC offset.
  public var stamp: JournalStamp
  /// The text, in guarded memory.
  public var text: SecureBytes
  /// Where the source has it.
  public var location: SourceLocation

  /// The journal entry written at `stamp` holding `text`, read at `location`.
  public init(stamp: JournalStamp, text: SecureBytes, location: SourceLocation) {
    self.stamp = stamp
    self.text = text
    self.location = location
  }
}

/// An entry of a `vault` export whose content is larger than `EntryStore.streamThreshold`: its
/// record, and its content to be read during the call that hands it over, never held whole.
public struct TransferLargeEntry {
  /// The name, before NFC normalization and checking.
  public var name: String
  /// The content's length in bytes.
  public var length: Int
  /// Where the source has it.
  public var location: SourceLocation
  /// True when the source marks it guarded.
  public var guarded: Bool
  /// When the source says it was made, ISO 8601 UTC.
  public var created: String
  /// When the source says its content last changed, ISO 8601 UTC.
  public var updated: String
  /// The content, valid only during the sink's call.
  public var content: VaultExportContent
}

extension TransferLargeEntry {
  /// The content as a source for `EntryStore` (`.streamedInWrite`): its first
  /// `EntryStore.streamThreshold` + 1 bytes read now, the rest as the write pulls it; valid
  /// only during the sink's call.
  ///
  /// - Throws: what reading the content throws.
  public func contentSource() throws -> ContentSource {
    let prefix = try SecureBytes.allocating(count: min(length, EntryStore.streamThreshold + 1))
    let reader = content
    var filled = 0
    while filled < prefix.count {
      let n = try prefix.withMutableBytes { buffer in
        try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      }
      guard n > 0 else { throw TransferError(.exportFile(.contentEndsEarly), at: location) }
      filled += n
    }
    return .streamedInWrite(prefix: prefix, read: { try reader.read(into: $0) })
  }
}

/// One item of a source, as a streaming reader hands it over: an entry, a large entry (only a
/// `vault` export has them) or a journal entry.
public enum TransferItem {
  /// An entry.
  case entry(TransferEntry)
  /// An entry whose content is read piece by piece during the sink's call.
  case largeEntry(TransferLargeEntry)
  /// A journal entry.
  case journal(TransferJournalEntry)

  /// Where the source has it.
  public var location: SourceLocation {
    switch self {
    case .entry(let entry): entry.location
    case .largeEntry(let entry): entry.location
    case .journal(let journal): journal.location
    }
  }
}

/// Everything one source holds, in source order.
public struct TransferBatch: Sendable {
  /// The entries.
  public var entries: [TransferEntry]
  /// The journal entries.
  public var journal: [TransferJournalEntry]

  /// A batch of `entries` and `journal` entries.
  public init(entries: [TransferEntry] = [], journal: [TransferJournalEntry] = []) {
    self.entries = entries
    self.journal = journal
  }
}

extension TransferBatch {
  /// The batch of every item `read` hands to its sink, in that order; a large entry's content
  /// is read whole into memory.
  ///
  /// - Throws: what `read` throws; `TransferError` at a large entry that cannot be held.
  public static func collecting(
    _ read: (_ sink: (TransferItem) throws -> Void) throws -> Void
  ) throws -> TransferBatch {
    var batch = TransferBatch()
    try read { item in
      switch item {
      case .entry(let entry): batch.entries.append(entry)
      case .largeEntry(let large): batch.entries.append(try TransferEntry(holding: large))
      case .journal(let journal): batch.journal.append(journal)
      }
    }
    return batch
  }
}

extension TransferEntry {
  /// The entry `large` with its content read whole into guarded memory.
  ///
  /// - Throws: `TransferError` at its location when the memory cannot be had; what reading
  ///   the content throws.
  public init(holding large: TransferLargeEntry) throws {
    let whole: SecureBytes
    do {
      whole = try large.content.whole(packed: false)
    } catch let error where VaultError(error)?.isStorageFailure == true {
      throw TransferError(
        .exportFile(.contentNotHeld(name: large.name, bytes: large.length)), at: large.location)
    }
    self.init(name: large.name, content: whole, location: large.location)
    guarded = large.guarded
    created = large.created
    updated = large.updated
  }
}
