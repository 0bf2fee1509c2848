import FoundationEssentials
import Glibc
import VaultCrypto
import VaultFormat

/// One decrypted journal entry.
public struct JournalEntry: Sendable {
  /// The random 16-byte entry id.
  public let id: [UInt8]
  /// When it was written (local time and offset).
  public let stamp: JournalStamp
  /// The text exactly as written, in guarded memory.
  public let text: SecureBytes
  /// The device that signed it.
  public let writer: [UInt8]
  /// The writer's sequence number of this version.
  let sequence: UInt64
  /// The writer's sequence number of this version (for tests and reports).
  public var sequenceNumber: UInt64 { sequence }
  /// Its revision: 1 when written, one more at each edit.
  let revision: UInt64
  /// True while it waits in `pending` to be folded into the state.
  public let pending: Bool
  /// True for an entry migrated from format 1, which could not tell who wrote it.
  public var fromFormatOne: Bool { writer == Header.formatOneWriterID }
  /// The stored sealed box, to detect a change made while the entry was being edited.
  let box: [UInt8]

  /// The entry id as 32 lower-case hex digits.
  public var hexID: String { id.hex }

  /// The first line of the text for listings: control characters shown as spaces, invalid UTF-8
  /// replaced, at most `maximum` characters (then ending in `…`).
  public func firstLine(maximum: Int = 60) -> String {
    let line = text.withBytes { bytes -> String in
      let end = bytes.firstIndex(of: 10) ?? bytes.count
      return String(decoding: bytes[0..<end], as: UTF8.self)
    }
    var out = ""
    for character in line {
      if out.count == maximum {
        out.removeLast()
        return out + "…"
      }
      let isControl = character.unicodeScalars.contains {
        $0.properties.generalCategory == .control
      }
      out.append(isControl ? " " : character)
    }
    while out.last == " " { out.removeLast() }
    return out
  }
}

/// A row of `pending` that is not a journal entry an authorized writer signed: it is never
/// mixed into the journal, only reported.
public struct UnverifiedJournalRow: Equatable, Sendable {
  /// The row's record id (hex; whatever bytes the row holds).
  public let hexID: String
  /// Why it is refused: the check it failed.
  public let reason: Damage
}

/// What the journal holds: the verified entries, oldest first, the pending rows refused, and
/// the sequence numbers of writers that never arrived.
public struct JournalContents: Sendable {
  /// Every entry signed by an authorized writer, oldest first.
  public let entries: [JournalEntry]
  /// Rows of `pending` refused, with the reason.
  public let unverified: [UnverifiedJournalRow]
  /// Per writer (hex device id), the sequence ranges that were never received.
  public let missing: [(writer: String, ranges: [ClosedRange<UInt64>])]
}

/// The format-2 journal: records of kind `journal`, each a `crypto_box_seal` box sealed to the
/// header's journal public key holding a `SignedJournalRecord` signed by its writer's Ed25519
/// key (`vault(5)`, JOURNAL).
///
/// Appending needs no key: the entry is sealed to the journal key this device recorded at its
/// last authenticated unlock, signed with this device's writer key, and put in `pending`; a
/// command holding the key folds pending entries into the state (`fold`). Reading needs the
/// master key, which opens the journal secret key.
public struct JournalStore {
  /// Largest entry text in bytes (16 MiB).
  public static let maximumByteCount = SignedJournalRecord.maximumTextByteCount
  /// Hex digits of an entry id shown to users (more when two entries share them).
  public static let shortIDLength = 8

  let vault: Vault
  let masterKey: SymmetricKey
  /// The header whose device records and retired writer keys sign the entries.
  let header: Header
  package let publicKey: [UInt8]
  package let secretKey: SecureBytes

  /// Seals `text` to the journal public key this device authenticated, signs it with this
  /// device's writer key and stores it in `pending`, without any key.
  ///
  /// - Returns: the new entry's id.
  /// - Throws: `VaultError.invalidInput` for empty or oversized text;
  ///   `.journalKeyNotAuthenticated` on a device that never unlocked this vault; `.integrity`
  ///   when the header's journal key differs from the recorded one; `.vaultChanged` when a
  ///   rotation replaced it while the text was read; `.storage` on failure.
  @discardableResult
  public static func append(_ text: SecureBytes, to vault: Vault, stamp: JournalStamp) throws
    -> [UInt8]
  {
    try check(text)
    let hex = vault.vaultID.hex
    // The writer's sequence is counted first: a write killed before its insert leaves a gap that
    // is reported, never a number used twice.
    let (recorded, writer, sequence) = try vault.device.update {
      state -> (String, WriterRecord, UInt64) in
      guard let recorded = state.journalKeys[hex], var writer = state.writers[hex] else {
        throw VaultError.journalKeyNotAuthenticated
      }
      writer.sequence += 1
      state.writers[hex] = writer
      return (recorded, writer, writer.sequence)
    }
    let publicKey = try [UInt8](
      base64: recorded, count: SealedBox.publicKeyByteCount, field: "journal_public_key")
    let entryID = SecureBytes.random(count: 16).unprotectedBytes
    let record = try SignedJournalRecord(
      vaultID: vault.vaultID, entryID: entryID,
      writerID: try [UInt8](base64: writer.deviceID, count: 16, field: "writer"),
      sequence: sequence, revision: 1, stamp: stamp, text: text)
    let signingKey = try writer.keyPair()
    do {
      try insertPending(
        entryID: entryID, record: record, signingKey: signingKey, recorded: recorded,
        publicKey: publicKey, into: vault)
    } catch {
      // Rolled back (a busy file, a rotation meanwhile): the number was not used, and is given
      // back unless a later entry took the next one, so no gap is reported for it.
      try? vault.device.update { state in
        guard var current = state.writers[hex], current.deviceID == writer.deviceID,
          current.sequence == sequence
        else { return }
        current.sequence = sequence - 1
        state.writers[hex] = current
      }
      throw error
    }
    return entryID
  }

  /// Inserts the pending row of `record` in one transaction, after checking the header's
  /// journal key is still `recorded`.
  private static func insertPending(
    entryID: [UInt8], record: SignedJournalRecord, signingKey: SigningKeyPair, recorded: String,
    publicKey: [UInt8], into vault: Vault
  ) throws {
    try vault.db.transaction {
      // The header as it is now, in the transaction that inserts: a rotation that committed
      // since this command read it is seen, and its new key (which this device recorded) used.
      let (body, _) = try Vault.readHeaderRow(vault.db)
      let current =
        body == vault.headerBody
        ? vault.header.journalPublicKey : (try? Header.parse(body))?.journalPublicKey
      guard current == recorded else {
        if body != vault.headerBody {
          throw VaultError.vaultChanged(.journalKeyReplaced)
        }
        throw VaultError.integrity(.keys(.journalKeyDiffers))
      }
      let box = record.encode(signingWith: signingKey).withBytes {
        SealedBox.seal($0, to: publicKey)
      }
      try vault.db.query(
        "INSERT INTO pending (record_id, box) VALUES (?, ?)", [.blob(entryID), .blob(box)])
    }
    // A change to sync, as a write is (`vault config sync.auto`).
    Vault.countCommittedWrite()
  }

  /// `journal_secret_key`: the journal's X25519 secret key sealed (XChaCha20-Poly1305) under
  /// the master key's journal subkey, with `"vault.journal-key.v1" || vault id` as associated
  /// data.
  package static func sealSecretKey(
    _ secretKey: SecureBytes, masterKey: SymmetricKey, vaultID: VaultID
  )
    -> [UInt8]
  {
    secretKey.withBytes {
      AEAD.seal(
        $0, key: masterKey.derive(.journal),
        associatedData: DomainLabel.journalKey.bytes + vaultID.bytes)
    }
  }

  private static func check(_ text: SecureBytes) throws {
    guard text.count > 0 else { throw VaultError.invalidInput(.emptyJournalEntry) }
    guard text.count <= maximumByteCount else {
      throw VaultError.invalidInput(.journalEntryTooLarge)
    }
  }

  /// Journal access with the master key (already verified against the header and state).
  ///
  /// - Throws: `VaultError.integrity` when the journal secret key does not open.
  public init(vault: Vault, masterKey: SymmetricKey) throws {
    try self.init(vault: vault, masterKey: masterKey, header: vault.header)
  }

  /// Journal access whose entries verify against the writers of `header` (a sync's merged
  /// header, before it is the vault's) rather than the vault's.
  ///
  /// - Throws: as `init(vault:masterKey:)`.
  package init(vault: Vault, masterKey: SymmetricKey, header: Header) throws {
    self.vault = vault
    self.masterKey = masterKey
    self.header = header
    self.publicKey = try [UInt8](
      base64: header.journalPublicKey, count: SealedBox.publicKeyByteCount,
      field: "journal_public_key")
    let box = try [UInt8](base64: header.journalSecretKey, field: "journal_secret_key")
    self.secretKey = try AEAD.open(
      box, key: masterKey.derive(.journal),
      associatedData: DomainLabel.journalKey.bytes + vault.vaultID.bytes,
      what: "the journal key")
  }

  private var db: SQLiteDatabase { vault.db }

  /// Opens and verifies one sealed entry: bound to this vault and `recordID`, signed by the
  /// writer key of a device record of the header.
  ///
  /// - Throws: `VaultError.integrity` naming what is wrong.
  func open(box: [UInt8], recordID: [UInt8], pending: Bool) throws -> JournalEntry {
    let plain: SecureBytes
    do {
      plain = try SealedBox.open(
        box, publicKey: publicKey, secretKey: secretKey, what: "journal entry")
    } catch {
      throw VaultError.integrity(.journalEntry(.failedAuthentication(recordID: recordID)))
    }
    let record = try SignedJournalRecord.decodeVerified(
      plain, vaultID: vault.vaultID, entryID: recordID
    ) { writerID in
      if writerID == Header.formatOneWriterID, let imported = header.formatOneWriter,
        let key = try? [UInt8](base64: imported, count: 32, field: "format_one_writer")
      {
        return [key]
      }
      var keys: [[UInt8]] = []
      if let device = header.device(id: writerID.base64),
        let key = try? [UInt8](base64: device.writerKey, count: 32, field: "writer_key")
      {
        keys.append(key)
      }
      // A key a rotation retired still verifies what it signed before, once folded.
      if !pending {
        for retired in header.retiredWriters ?? [] where retired.deviceID == writerID.base64 {
          if let key = try? [UInt8](base64: retired.writerKey, count: 32, field: "writer_key") {
            keys.append(key)
          }
        }
      }
      guard !keys.isEmpty else {
        throw VaultError.integrity(.journalEntry(.signedByNoAuthorizedWriter(recordID: recordID)))
      }
      return keys
    }
    return JournalEntry(
      id: recordID, stamp: record.stamp, text: record.text, writer: record.writerID,
      sequence: record.sequence, revision: record.revision, pending: pending, box: box)
  }

  /// Oldest first; entries of the same second in the order their writer signed them.
  private static func ordered(_ entries: [JournalEntry]) -> [JournalEntry] {
    entries.sorted {
      ($0.stamp.instant, $0.sequence, $0.hexID) < ($1.stamp.instant, $1.sequence, $1.hexID)
    }
  }

  /// The journal entries among `rows` (folded ones, read from verified buckets), each opened and
  /// its signature verified.
  ///
  /// - Throws: `VaultError.integrity` naming the first that fails.
  package func folded(_ rows: [RecordRow]) throws -> [JournalEntry] {
    try rows.filter { $0.kind == RecordKind.journal.rawValue }.map { row in
      let entry = try open(box: row.box, recordID: row.recordID, pending: false)
      guard entry.revision == UInt64(bitPattern: row.revision) else {
        throw VaultError.integrity(
          .journalEntry(.storedUnderAnotherRevision(recordID: row.recordID)))
      }
      return entry
    }
  }

  /// Every pending row: opened and verified, or refused with its reason.
  private func pendingRows() throws -> (
    entries: [JournalEntry], refused: [UnverifiedJournalRow]
  ) {
    var entries: [JournalEntry] = []
    var refused: [UnverifiedJournalRow] = []
    for row in try db.query("SELECT record_id, box FROM pending ORDER BY record_id") {
      let id = row[0].blob ?? []
      guard id.count == 16, let box = row[1].blob else {
        refused.append(UnverifiedJournalRow(hexID: id.hex, reason: .journalEntry(.malformedRow)))
        continue
      }
      do {
        entries.append(try open(box: box, recordID: id, pending: true))
      } catch {
        guard case .integrity(let damage)? = VaultError(error) else { throw error }
        refused.append(UnverifiedJournalRow(hexID: id.hex, reason: damage))
      }
    }
    return (entries, refused)
  }

  /// Everything the journal holds, read in one verified snapshot: the folded entries and the
  /// pending ones that verify, oldest first; the pending rows refused; the gaps of each writer.
  ///
  /// - Throws: `VaultError.integrity` when the state, a bucket or a folded entry fails.
  public func contents() throws -> JournalContents {
    try vault.reading(masterKey: masterKey) { snapshot in
      let rows = try snapshot.allRows(db: db, rowKey: masterKey.derive(.rows))
      let folded = try folded(rows)
      let (pending, refused) = try pendingRows()
      let known = Set(folded.map(\.hexID))
      var extra: [UnverifiedJournalRow] = []
      var fresh: [JournalEntry] = []
      let counters = try WriterCounters(vault: vault, masterKey: masterKey).all(in: rows)
      for entry in pending {
        if known.contains(entry.hexID) {
          extra.append(
            UnverifiedJournalRow(hexID: entry.hexID, reason: .journalEntry(.copyOfFoldedEntry)))
        } else if let counter = counters[entry.writer.hex], !counter.accepts(entry.sequence) {
          extra.append(
            UnverifiedJournalRow(
              hexID: entry.hexID, reason: .journalEntry(.sequenceReused(entry.sequence))))
        } else {
          fresh.append(entry)
        }
      }
      return JournalContents(
        entries: Self.ordered(folded + fresh), unverified: refused + extra,
        missing: counters.compactMap { writer, counter in
          counter.missing.isEmpty ? nil : (writer, counter.missing.map { $0.first...$0.last })
        }.sorted { $0.writer < $1.writer })
    }
  }

  /// Every entry that verifies, oldest first (refused pending rows are left out: see
  /// `contents`).
  ///
  /// - Throws: as `contents`.
  public func entries() throws -> [JournalEntry] {
    try contents().entries
  }

  /// Moves every pending entry an authorized writer signed into `records`, in one write, and
  /// advances each writer's counter, recording the sequence numbers skipped as missing.
  ///
  /// Refused rows stay in `pending` (and `vault check` reports them). Nothing is written when
  /// nothing can be folded.
  ///
  /// - Returns: how many entries were folded.
  /// - Throws: `VaultError.integrity` when the state fails; `.storage` on failure.
  @discardableResult
  public func fold() throws -> Int {
    let count = try db.query("SELECT count(*) FROM pending").first?.first?.integer ?? 0
    guard count > 0 else { return 0 }
    return try vault.write(masterKey: masterKey) { change in
      let (pending, _) = try pendingRows()
      var folded = 0
      let counters = WriterCounters(vault: vault, masterKey: masterKey)
      var bySequence: [String: [UInt64]] = [:]
      for entry in pending where entry.revision == 1 {
        guard try change.unnamedRecord(entry.id) == nil,
          try counters.accepts(entry.sequence, writer: entry.writer.hex, in: change),
          !(bySequence[entry.writer.hex]?.contains(entry.sequence) ?? false)
        else { continue }
        try change.insert(
          RecordRow(
            recordID: entry.id, lookup: nil, kind: RecordKind.journal.rawValue, revision: 1,
            box: entry.box))
        try db.query("DELETE FROM pending WHERE record_id = ?", [.blob(entry.id)])
        bySequence[entry.writer.hex, default: []].append(entry.sequence)
        folded += 1
      }
      for (writer, sequences) in bySequence {
        try counters.advance(writer: writer, with: sequences, in: change)
      }
      return folded
    }
  }

  /// `prefix` in lower case, checked to be 1 to 32 hex digits.
  ///
  /// - Throws: `JournalError.neitherIDNorDate` otherwise, or `VaultError.notAJournalID` when
  ///   dates are not allowed.
  public static func normalizedIDPrefix(_ prefix: String, datesAllowed: Bool = true) throws
    -> String
  {
    let digits = prefix.lowercased()
    let isHex = digits.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    guard (1...32).contains(digits.utf8.count), isHex else {
      guard datesAllowed else { throw VaultError.notAJournalID(prefix) }
      throw JournalError.neitherIDNorDate(prefix)
    }
    return digits
  }

  /// The one verified entry whose hex id starts with `prefix` (case-insensitive).
  ///
  /// - Throws: as `normalizedIDPrefix` for a prefix that is not 1 to 32 hex digits;
  ///   `JournalError.ambiguousID` when it matches several entries; `VaultError.integrity` for a
  ///   refused pending row when it matches none, `.journalEntryNotFound` otherwise, and as
  ///   `contents`.
  public func entry(idPrefix prefix: String) throws -> JournalEntry {
    let digits = try Self.normalizedIDPrefix(prefix)
    let contents = try contents()
    let matches = contents.entries.filter { $0.hexID.hasPrefix(digits) }
    guard let first = matches.first else {
      // A refused row would never match: it is named (as `vault check` names it), not missed.
      if let refused = contents.unverified.first {
        throw VaultError.integrity(
          .pendingJournalEntryRefused(hexID: refused.hexID, reason: refused.reason, others: 0))
      }
      throw VaultError.journalEntryNotFound(.id(prefix))
    }
    guard matches.count == 1 else {
      throw JournalError.ambiguousID(prefix, matches: matches.count)
    }
    return first
  }

  /// Replaces the text of `entry`, keeping its id and time: a new revision signed by this
  /// device's writer with its next sequence number, in one write.
  ///
  /// - Throws: `VaultError.invalidInput` for empty or oversized text; `.conflict` when the entry
  ///   changed, was removed or is still pending; `.journalKeyNotAuthenticated` when this device
  ///   has no writer; `.storage` on failure.
  public func replace(_ entry: JournalEntry, text: SecureBytes) throws {
    try Self.check(text)
    let hex = vault.vaultID.hex
    let (writer, sequence) = try vault.device.update { state -> (WriterRecord, UInt64) in
      guard var writer = state.writers[hex] else { throw VaultError.journalKeyNotAuthenticated }
      writer.sequence += 1
      state.writers[hex] = writer
      return (writer, writer.sequence)
    }
    let writerID = try [UInt8](base64: writer.deviceID, count: 16, field: "writer")
    let revision = entry.revision + 1
    let record = try SignedJournalRecord(
      vaultID: vault.vaultID, entryID: entry.id, writerID: writerID, sequence: sequence,
      revision: revision, stamp: entry.stamp, text: text)
    let box = record.encode(signingWith: try writer.keyPair()).withBytes {
      SealedBox.seal($0, to: publicKey)
    }
    try vault.write(masterKey: masterKey) { change in
      guard let row = try change.unnamedRecord(entry.id), row.kind == RecordKind.journal.rawValue,
        row.box == entry.box, !entry.pending
      else {
        throw VaultError.conflict(
          .journalEntryChangedWhileEdited(id: String(entry.hexID.prefix(Self.shortIDLength))))
      }
      try change.replace(
        row,
        with: RecordRow(
          recordID: entry.id, lookup: nil, kind: RecordKind.journal.rawValue,
          revision: Int64(revision), box: box))
      try WriterCounters(vault: vault, masterKey: masterKey).advance(
        writer: writerID.hex, with: [sequence], in: change)
    }
  }

  /// The ID shown for each entry: its first 8 hex digits, or as many more as it takes to tell it
  /// from every other entry and from a DATE (`8822073d` reads as `Nd`, N days ago).
  public static func shortIDs(_ entries: [JournalEntry]) -> [String] {
    let ids = entries.map { Array($0.hexID) }
    let sorted = ids.enumerated().sorted { $0.element.lexicographicallyPrecedes($1.element) }
    var lengths = [Int](repeating: shortIDLength, count: ids.count)
    for index in sorted.indices.dropFirst() {
      let (a, left) = sorted[index - 1]
      let (b, right) = sorted[index]
      let common = zip(left, right).prefix { $0 == $1 }.count
      lengths[a] = max(lengths[a], min(32, common + 1))
      lengths[b] = max(lengths[b], min(32, common + 1))
    }
    return zip(ids, lengths).map { id, length in
      var length = length
      while length < id.count, JournalDate.looksLikeDate(String(id.prefix(length))) { length += 1 }
      return String(id.prefix(length))
    }
  }
}
