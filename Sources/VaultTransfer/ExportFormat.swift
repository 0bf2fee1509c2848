import VaultCore
import VaultCrypto
import VaultFormat

/// The formats `vault export --to FORMAT` writes, by the name given on the command line
/// (`vault(1)` EXPORT).
public enum ExportFormat: String, CaseIterable, Sendable {
  /// The encrypted, portable export of `vault(5)` EXPORT FORMAT (`VaultExportWriter`).
  case vault
  /// Bitwarden's unencrypted JSON export (`BitwardenJSONWriter`), for leaving.
  case bitwardenJSON = "bitwarden-json"
  /// KeePass 2 XML (`KeePassXMLWriter`), for leaving.
  case keepassXML = "keepass-xml"
  /// One JSON object per line (`JSONLinesWriter`), as `vault import --from jsonl` reads it.
  case jsonl
  /// vault's CSV (`CSVExportWriter`), as `vault import --from csv` reads it.
  case csv

  /// True for every format but `vault`: the file holds the secrets in the clear.
  public var isPlaintext: Bool { self != .vault }

  /// True when the format carries the journal (only `vault` does).
  public var carriesJournal: Bool { self == .vault }
}

/// An entry to export: its metadata, and its content whole or piece by piece.
///
/// `ExportedEntry` (an entry of the vault, inside `EntryStore.exporting`) is one; tests give
/// their own.
public protocol ExportableEntry {
  /// The name (NFC).
  var name: String { get }
  /// When it was made, ISO 8601 UTC to the second.
  var created: String { get }
  /// When its content last changed, ISO 8601 UTC to the second.
  var updated: String { get }
  /// True when every read needs a fresh check.
  var guarded: Bool { get }
  /// The content's length in bytes (at least 1).
  var length: Int { get }
  /// The whole content in guarded memory.
  ///
  /// - Throws: `VaultError.tooLarge` for a large content; a read failure.
  func content() throws -> SecureBytes
  /// The content piece by piece, each in guarded memory valid only during the call.
  ///
  /// - Throws: a read failure; what `deliver` throws.
  func stream(_ deliver: (UnsafeRawBufferPointer) throws -> Void) throws
}

extension ExportableEntry {
  /// True when the content is longer than `EntryStore.streamThreshold`: it is only streamed.
  public var isLarge: Bool { length > EntryStore.streamThreshold }
}

extension ExportedEntry: ExportableEntry {
  /// The entry's name.
  public var name: String { metadata.name }
  /// Its creation time.
  public var created: String { metadata.created }
  /// Its last content change.
  public var updated: String { metadata.updated }
  /// Its guard.
  public var guarded: Bool { metadata.guarded }
  /// Its content's length.
  public var length: Int { metadata.length }
}

/// Where an export's bytes go (a file, standard output), in the order written.
public typealias ExportSink = (UnsafeRawBufferPointer) throws -> Void

/// An entry an export left out, and why (too large for its format…).
public struct ExportLeftOut: Equatable, Sendable {
  /// The entry's name.
  public let name: String
  /// Why.
  public let reason: LeftOutReason

  /// `name` was left out for `reason`.
  public init(name: String, reason: LeftOutReason) {
    self.name = name
    self.reason = reason
  }
}

/// What an export wrote.
public struct ExportSummary: Equatable, Sendable {
  /// Entries written.
  public var entries = 0
  /// Journal entries written.
  public var journal = 0
  /// Entries left out by the format, in order.
  public var leftOut: [ExportLeftOut] = []
  /// Entries written whose content a reader of the format composes back in another layout
  /// (the formats for leaving only): not byte for byte.
  public var reshaped: [String] = []

  /// A summary of `entries` and `journal` entries written, `leftOut` and `reshaped`.
  public init(
    entries: Int = 0, journal: Int = 0, leftOut: [ExportLeftOut] = [], reshaped: [String] = []
  ) {
    self.entries = entries
    self.journal = journal
    self.leftOut = leftOut
    self.reshaped = reshaped
  }
}

/// What the format-specific writers need beyond the entries.
public struct ExportOptions {
  /// The passphrase of a `vault` export.
  public var passphrase: ExportPassphrase?
  /// The Argon2id cost of a `vault` export.
  public var kdf: KDFParameters
  /// 16 bytes for each id a format needs (Bitwarden's and KeePass's UUIDs); random by default.
  public var identifier: () -> [UInt8]
  /// Told the number of entries written (or left out) so far, after each.
  public var progress: (Int) -> Void = { _ in }

  /// Options with `passphrase`, `kdf` and random ids.
  public init(
    passphrase: ExportPassphrase? = nil, kdf: KDFParameters = .moderate,
    identifier: @escaping () -> [UInt8] = { SecureBytes.random(count: 16).unprotectedBytes }
  ) {
    self.passphrase = passphrase
    self.kdf = kdf
    self.identifier = identifier
  }
}

/// Writes a whole export of one format: the entries in the order the format wants, then, for
/// `vault`, the journal.
public enum Exporter {
  /// Writes `entries` (and `journal`, when the format carries it) in `format` to `sink`.
  ///
  /// Plaintext leaves guarded memory only in `sink`: every writer builds its output in guarded
  /// buffers (`OutputBuffer`) and hands them over.
  ///
  /// - Throws: `ExportError.noPassphrase` for `vault` without a passphrase; what the entries'
  ///   reads and `sink` throw; `VaultError.storage` when Argon2id cannot allocate its memory.
  public static func write(
    _ format: ExportFormat, entries: [any ExportableEntry], journal: [TransferJournalEntry],
    options: ExportOptions, to sink: @escaping ExportSink
  ) throws -> ExportSummary {
    var summary = ExportSummary()
    switch format {
    case .vault:
      guard let passphrase = options.passphrase else {
        throw ExportError.noPassphrase
      }
      let writer = try VaultExportWriter(passphrase: passphrase, kdf: options.kdf, to: sink)
      for (done, entry) in entries.enumerated() {
        try writer.write(entry)
        options.progress(done + 1)
      }
      for item in journal { try writer.write(journal: item.stamp, text: item.text) }
      try writer.finish()
      summary.entries = entries.count
      summary.journal = journal.count
      return summary
    case .jsonl:
      let writer = JSONLinesWriter(to: sink)
      for (done, entry) in entries.enumerated() {
        try writer.write(entry)
        options.progress(done + 1)
      }
      try writer.finish()
      summary.entries = entries.count
      return summary
    case .csv:
      let writer = try CSVExportWriter(base64: CSVExportWriter.needsBase64(entries), to: sink)
      for (done, entry) in entries.enumerated() {
        try writer.write(entry)
        options.progress(done + 1)
      }
      try writer.finish()
      summary.entries = entries.count
      return summary
    case .bitwardenJSON:
      let writer = BitwardenJSONWriter(
        names: entries.map(\.name), identifier: options.identifier, to: sink)
      try writer.begin()
      for (done, entry) in entries.enumerated() {
        try count(writer.write(entry), entry.name, into: &summary)
        options.progress(done + 1)
      }
      try writer.finish()
      return summary
    case .keepassXML:
      let writer = KeePassXMLWriter(identifier: options.identifier, to: sink)
      try writer.begin()
      for (done, entry) in KeePassXMLWriter.ordered(entries).enumerated() {
        try count(writer.write(entry), entry.name, into: &summary)
        options.progress(done + 1)
      }
      try writer.finish()
      return summary
    }
  }

  static func count(_ outcome: LeavingOutcome, _ name: String, into summary: inout ExportSummary) {
    switch outcome {
    case .exact: summary.entries += 1
    case .reshaped:
      summary.entries += 1
      summary.reshaped.append(name)
    case .leftOut(let reason): summary.leftOut.append(ExportLeftOut(name: name, reason: reason))
    }
  }
}
