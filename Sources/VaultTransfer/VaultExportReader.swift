import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal

/// The `vault` format (`vault(5)` EXPORT FORMAT) as an import reads it: an `.encrypted` source
/// and its passphrase.
///
/// Failures keep their classes: a file that is no export, of another version or with KDF
/// parameters of no profile is an `ExportError`; a wrong passphrase is
/// `VaultError.wrongPassphrase`; a message that does not open, a file cut short or bytes after
/// its end are `VaultError.integrity`; a record the format does not allow (its message opened)
/// is a `TransferError` at `.record(n)`. Entries carry their guard and times.
///
/// `read(_:each:)` hands over each entry as it is read: a content of at most
/// `EntryStore.streamThreshold` bytes whole (packed guarded memory), a larger one as a
/// `.largeEntry` to be read piece by piece during the sink's call, so that neither the source
/// (`.encryptedFile`) nor its contents are ever held whole.
public enum VaultExportReader: ImportReader {
  /// Reads every entry and journal entry of `source` (`.encrypted` or `.encryptedFile`), each
  /// content whole.
  ///
  /// - Throws: as `read(_:each:)`; `TransferError` at a large entry that cannot be held.
  public static func read(_ source: ImportSource) throws -> TransferBatch {
    try TransferBatch.collecting { try read(source, each: $0) }
  }

  /// Hands every entry and journal entry of `source` (`.encrypted` or `.encryptedFile`) to
  /// `sink` in order, as the type's summary says.
  ///
  /// - Throws: `TransferError` for another kind of source or a malformed record; the
  ///   errors of `VaultExportFile`; `ExportError.passphrase` for a passphrase that is not one (a
  ///   control character, invalid UTF-8); what `sink` throws.
  public static func read(_ source: ImportSource, each sink: (TransferItem) throws -> Void)
    throws
  {
    let file: VaultExportFile
    let passphrase: @Sendable () throws -> SecureBytes
    switch source {
    case .encrypted(let bytes, let given):
      file = try VaultExportFile(bytes: bytes)
      passphrase = given
    case .encryptedFile(let open, let given):
      file = VaultExportFile(opener: try VaultExportOpener(reading: try open()))
      passphrase = given
    case .bytes, .folder:
      throw TransferError(.source(.passphraseMissing))
    }
    try file.unlock(ExportPassphrase(utf8: passphrase()))
    try file.read(
      entry: { record, content in
        guard record.length <= EntryStore.streamThreshold else {
          return try sink(
            .largeEntry(
              TransferLargeEntry(
                name: record.name, length: record.length, location: record.location,
                guarded: record.guarded, created: record.created, updated: record.updated,
                content: content)))
        }
        let whole = try content.whole(packed: true)
        var entry = TransferEntry(name: record.name, content: whole, location: record.location)
        entry.guarded = record.guarded
        entry.created = record.created
        entry.updated = record.updated
        try sink(.entry(entry))
      },
      journal: { try sink(.journal($0)) })
  }
}

/// The content of the entry record being read, valid only during the `entry` call of
/// `VaultExportFile.read`: handed over piece by piece (`pieces`) or pulled (`read(into:)`), at
/// most `length` bytes in all; what is not read is read past, and checked, after the call.
public final class VaultExportContent {
  fileprivate var file: VaultExportFile?
  private var left: Int
  private let at: SourceLocation

  fileprivate init(file: VaultExportFile, length: Int, at: SourceLocation) {
    self.file = file
    self.left = length
    self.at = at
  }

  /// The bytes not read yet.
  public var remaining: Int { left }

  /// Hands the rest of the content to `deliver`, a piece of a message at a time, each valid
  /// only during its call.
  ///
  /// - Throws: `TransferError` when the plaintext ends first; `VaultError.integrity` from the
  ///   stream; what `deliver` throws.
  public func pieces(_ deliver: (UnsafeRawBufferPointer) throws -> Void) throws {
    guard left > 0 else { return }
    guard let file else { preconditionFailure("an export's content is read during its call") }
    let count = left
    left = 0
    try file.stream(count, at, deliver)
  }

  /// The rest of the content in new guarded memory, packed as `SecureBytes.allocating` says.
  ///
  /// - Throws: `VaultError.storage` when the memory cannot be had; as `pieces`.
  public func whole(packed: Bool) throws -> SecureBytes {
    let out = try SecureBytes.allocating(count: left, packed: packed)
    try out.withMutableBytes { buffer in
      var filled = 0
      while filled < buffer.count {
        filled += try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
      }
    }
    return out
  }

  /// Copies the next bytes of the content into `buffer`, as many as fit and one message holds.
  ///
  /// - Returns: the bytes copied; 0 at the end of the content.
  /// - Throws: as `pieces`.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    guard left > 0 else { return 0 }
    guard let file else { preconditionFailure("an export's content is read during its call") }
    let n = try file.pull(left, into: buffer, at)
    left -= n
    return n
  }
}

/// An entry's record in a `vault` export, before its content.
public struct VaultExportEntry: Sendable {
  /// The name (NFC, a valid entry name).
  public let name: String
  /// When it was made, ISO 8601 UTC.
  public let created: String
  /// When its content last changed, ISO 8601 UTC.
  public let updated: String
  /// True for a guarded entry.
  public let guarded: Bool
  /// The content's length in bytes.
  public let length: Int
  /// The record's place (`record N`, from 1).
  public let location: SourceLocation
}

/// A `vault` export being read: its header checked, then its passphrase, then its records, each
/// content piece by piece (at most one message's plaintext held).
public final class VaultExportFile {
  private let opener: VaultExportOpener
  private var piece = UnsafeRawBufferPointer(start: nil, count: 0)
  private var offset = 0
  /// Plaintext bytes consumed before `piece`.
  private var before = 0
  private var read = false

  /// The export held in `bytes`, its header checked.
  ///
  /// - Throws: as `VaultExportOpener.init(reading:)`.
  public convenience init(bytes: SecureBytes) throws {
    try self.init(opener: VaultExportOpener(bytes: bytes))
  }

  /// The export `opener` reads.
  public init(opener: VaultExportOpener) { self.opener = opener }

  /// The header's Argon2id parameters.
  public var parameters: KDFParameters { opener.parameters }

  /// Derives the key and checks the passphrase.
  ///
  /// - Throws: `VaultError.wrongPassphrase`; `.storage` when Argon2id cannot allocate.
  public func unlock(_ passphrase: ExportPassphrase) throws { try opener.unlock(passphrase) }

  /// Reads every record once, in order: each entry's record to `entry` with its content, to be
  /// read (piece by piece, or pulled into buffers) during that call only (what `entry` does not
  /// read is read past, and checked all the same), each journal entry to `journal`.
  ///
  /// - Precondition: `unlock` succeeded; not read before.
  /// - Returns: the numbers of entries and journal entries.
  /// - Throws: `TransferError` at the record that the format does not allow (see `vault(5)`);
  ///   `VaultError.integrity` from the stream; what `entry` and `journal` throw.
  @discardableResult
  public func read(
    entry: (VaultExportEntry, VaultExportContent) throws -> Void,
    journal: (TransferJournalEntry) throws -> Void
  ) throws -> (entries: Int, journal: Int) {
    precondition(!read, "an export is read once")
    read = true
    var entries = 0
    var journals = 0
    var lastName: [UInt8]?
    var number = 0
    while true {
      number += 1
      let at = SourceLocation.record(number)
      let kind = try bytes(1, at)[0]
      switch kind {
      case 1:
        guard journals == 0 else {
          throw TransferError(.exportFile(.entryAfterJournal), at: at)
        }
        let record = try entryRecord(at, after: lastName)
        let content = VaultExportContent(file: self, length: record.length, at: at)
        try entry(record, content)
        try content.pieces { _ in }
        content.file = nil
        lastName = Array(record.name.utf8)
        entries += 1
      case 2:
        try journal(journalRecord(at))
        journals += 1
      case 0:
        let counts = try bytes(16, at)
        let (e, j) = (Self.number(counts[0..<8]), Self.number(counts[8..<16]))
        guard e == UInt64(entries), j == UInt64(journals) else {
          throw TransferError(
            .exportFile(
              .endCounts(entries: e, journal: j, heldEntries: entries, heldJournal: journals)),
            at: at)
        }
        try padding(at)
        return (entries, journals)
      default:
        throw TransferError(.exportFile(.unknownKind(kind)), at: at)
      }
    }
  }

  /// An entry record's fields after its kind.
  private func entryRecord(_ at: SourceLocation, after last: [UInt8]?) throws -> VaultExportEntry {
    let flags = try bytes(1, at)[0]
    guard flags <= 1 else { throw TransferError(.exportFile(.flags(flags)), at: at) }
    let size = try bytes(2, at)
    let count = Int(size[0]) << 8 | Int(size[1])
    guard (1...EntryName.maximumByteCount).contains(count) else {
      throw TransferError(.exportFile(.nameLength(count)), at: at)
    }
    let raw = try bytes(count, at)
    guard let name = String(validating: raw, as: UTF8.self) else {
      throw TransferError(.exportFile(.nameNotUTF8), at: at)
    }
    do {
      // Bytes, not characters: Swift's `==` would find a decomposed name equal to its NFC.
      guard try Array(EntryName(name).value.utf8) == raw else {
        throw TransferError(.exportFile(.nameNotNFC(name)), at: at)
      }
    } catch VaultError.invalidInput(let fault) {
      throw TransferError(.input(fault), at: at)
    }
    if let last, !last.lexicographicallyPrecedes(raw) {
      throw TransferError(.exportFile(.nameOutOfOrder(name)), at: at)
    }
    let times = try bytes(2 * VaultExportFields.timeBytes, at)
    let created = String(decoding: times[0..<VaultExportFields.timeBytes], as: UTF8.self)
    let updated = String(decoding: times[VaultExportFields.timeBytes...], as: UTF8.self)
    guard Timestamp.isUTC(created), Timestamp.isUTC(updated) else {
      throw TransferError(.exportFile(.timesNotUTC(name: name)), at: at)
    }
    let length = Self.number(try bytes(8, at)[...])
    guard length >= 1, length <= VaultExport.maximumContentBytes else {
      throw TransferError(.exportFile(.contentLength(name: name, bytes: length)), at: at)
    }
    return VaultExportEntry(
      name: name, created: created, updated: updated, guarded: flags == 1, length: Int(length),
      location: at)
  }

  /// A journal record's fields after its kind, its text in guarded memory.
  private func journalRecord(_ at: SourceLocation) throws -> TransferJournalEntry {
    let text = String(decoding: try bytes(VaultExportFields.stampBytes, at), as: UTF8.self)
    guard let stamp = JournalStamp(parsing: text), stamp.description == text else {
      throw TransferError(.exportFile(.stampMalformed), at: at)
    }
    let length = Int(Self.number(try bytes(4, at)[...]))
    guard length >= 1, length <= JournalStore.maximumByteCount else {
      throw TransferError(.exportFile(.journalTextLength(length)), at: at)
    }
    let out = SecureBytes(count: length, packed: true)
    var filled = 0
    try stream(length, at) { piece in
      out.withMutableBytes { target in
        target.baseAddress.map { base in
          piece.baseAddress.map { (base + filled).copyMemory(from: $0, byteCount: piece.count) }
        }
      }
      filled += piece.count
    }
    return TransferJournalEntry(stamp: stamp, text: out, location: at)
  }

  /// Checks that the rest is zero padding to `Padding.paddedLength` of what came before.
  private func padding(_ at: SourceLocation) throws {
    let records = before + offset
    let expected = Padding.paddedLength(records) - records
    var zeros = 0
    while try available() {
      let rest = UnsafeRawBufferPointer(rebasing: piece[offset...])
      guard rest.allSatisfy({ $0 == 0 }) else {
        throw TransferError(.exportFile(.paddingNotZero), at: at)
      }
      zeros += rest.count
      offset = piece.count
    }
    guard zeros == expected else {
      throw TransferError(.exportFile(.paddingLength(found: zeros, expected: expected)), at: at)
    }
  }

  /// True when a plaintext byte is at `offset`, pulling the next message when needed; false at
  /// the end of the plaintext.
  private func available() throws -> Bool {
    while offset == piece.count {
      before += piece.count
      guard let next = try opener.nextPiece() else {
        piece = UnsafeRawBufferPointer(start: nil, count: 0)
        offset = 0
        return false
      }
      piece = next
      offset = 0
    }
    return true
  }

  /// The next `count` plaintext bytes (public fields: kinds, lengths, names, times).
  private func bytes(_ count: Int, _ at: SourceLocation) throws -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(count)
    try stream(count, at) { out.append(contentsOf: $0) }
    return out
  }

  /// Copies up to `buffer.count` of the next `count` plaintext bytes into `buffer`.
  ///
  /// - Returns: the bytes copied (0 only when `count` or the buffer is 0).
  /// - Throws: `TransferError` at `at` when the plaintext ends first.
  fileprivate func pull(
    _ count: Int, into buffer: UnsafeMutableRawBufferPointer, _ at: SourceLocation
  ) throws -> Int {
    guard count > 0, buffer.count > 0, let base = buffer.baseAddress else { return 0 }
    guard try available() else {
      throw TransferError(.exportFile(.endsInsideRecord), at: at)
    }
    let n = min(count, buffer.count, piece.count - offset)
    piece.baseAddress.map { base.copyMemory(from: $0 + offset, byteCount: n) }
    offset += n
    return n
  }

  /// Hands the next `count` plaintext bytes to `deliver`, a piece of a message at a time.
  fileprivate func stream(
    _ count: Int, _ at: SourceLocation, _ deliver: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    var left = count
    while left > 0 {
      guard try available() else {
        throw TransferError(.exportFile(.endsInsideRecord), at: at)
      }
      let n = min(left, piece.count - offset)
      try deliver(UnsafeRawBufferPointer(rebasing: piece[offset..<offset + n]))
      offset += n
      left -= n
    }
  }

  static func number(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
  }
}
