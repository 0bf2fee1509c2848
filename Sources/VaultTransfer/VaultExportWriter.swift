import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal

/// Writes the `vault` format (`vault(5)` EXPORT FORMAT): the records of the entries, then of the
/// journal entries, then the end record, sealed by a `VaultExportSealer` as they are written.
///
/// Each content is streamed piece by piece (a large one too), so the writer holds one message's
/// piece at a time; nothing leaves guarded memory but ciphertext.
public final class VaultExportWriter {
  private let sealer: VaultExportSealer
  private var entries: UInt64 = 0
  private var journal: UInt64 = 0
  private var lastName: [UInt8]?

  /// Derives the key (Argon2id with `kdf`, a random salt) and writes the header to `sink`.
  ///
  /// - Throws: `VaultError.storage` when Argon2id cannot allocate its memory; what `sink`
  ///   throws.
  public init(passphrase: ExportPassphrase, kdf: KDFParameters, to sink: @escaping ExportSink)
    throws
  {
    sealer = try VaultExportSealer(passphrase: passphrase, parameters: kdf, emit: sink)
  }

  /// Writes the record of `entry`, its content piece by piece.
  ///
  /// - Throws: `ExportError` for an entry after a journal entry, a name not above the one
  ///   before it (UTF-8 byte order), or a name, time or length the format does not allow;
  ///   `VaultError.integrity` when the content read is not `entry.length` bytes; what reading
  ///   the content or the sink throws.
  public func write(_ entry: some ExportableEntry) throws {
    let name = Array(entry.name.utf8)
    guard journal == 0 else {
      throw ExportError.entryAfterJournal
    }
    if let lastName, !lastName.lexicographicallyPrecedes(name) {
      throw ExportError.notInOrder(name: entry.name)
    }
    guard (1...EntryName.maximumByteCount).contains(name.count),
      Timestamp.isUTC(entry.created), Timestamp.isUTC(entry.updated),
      entry.length >= 1, UInt64(entry.length) <= VaultExport.maximumContentBytes
    else { throw ExportError.badMetadata(name: entry.name) }
    var head: [UInt8] = [1, entry.guarded ? 1 : 0]
    head += [UInt8(name.count >> 8), UInt8(name.count & 0xFF)] + name
    head += Array(entry.created.utf8) + Array(entry.updated.utf8)
    head += VaultExportFields.bigEndian(UInt64(entry.length), bytes: 8)
    try sealer.append(head)
    var written = 0
    try entry.stream { piece in
      written += piece.count
      try sealer.append(piece)
    }
    guard written == entry.length else {
      throw VaultError.integrity(
        .exportedContent(name: entry.name, stored: entry.length, read: written))
    }
    lastName = name
    entries += 1
  }

  /// Writes a journal entry's record.
  ///
  /// - Throws: `ExportError.journalEntrySize` for an empty text or one over
  ///   `JournalStore.maximumByteCount`; what the sink throws.
  public func write(journal stamp: JournalStamp, text: SecureBytes) throws {
    guard text.count >= 1, text.count <= JournalStore.maximumByteCount else {
      throw ExportError.journalEntrySize(bytes: text.count)
    }
    try sealer.append(
      [2] + Array(stamp.description.utf8)
        + VaultExportFields.bigEndian(UInt64(text.count), bytes: 4))
    try sealer.append(text)
    journal += 1
  }

  /// Writes the end record and the padding, and seals the final message.
  ///
  /// - Throws: what the sink throws.
  public func finish() throws {
    try sealer.append(
      [0] + VaultExportFields.bigEndian(entries, bytes: 8)
        + VaultExportFields.bigEndian(journal, bytes: 8))
    try sealer.finish()
  }
}

/// The fixed fields of the records.
enum VaultExportFields {
  /// The length of a time (`YYYY-MM-DDTHH:MM:SSZ`).
  static let timeBytes = 20
  /// The length of a journal stamp (`YYYY-MM-DDTHH:MM:SS+HH:MM`).
  static let stampBytes = 25

  /// `value` as `bytes` bytes, big-endian.
  static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
    (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
  }
}
