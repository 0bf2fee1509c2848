/// One decrypted journal entry.
public struct JournalEntry: Sendable {
  /// The random 16-byte entry id.
  public let id: [UInt8]
  /// When it was written (local time and offset).
  public let stamp: JournalStamp
  /// The text exactly as written, in guarded memory.
  public let text: SecureBytes
  /// Insertion order, which breaks ties between entries of the same second.
  let sequence: Int64
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

/// Journal entries: rows of kind 1 whose `meta` column holds one `crypto_box_seal` box sealed to
/// the header's journal public key (`JournalRecord` inside), with no name index (`lookup` NULL)
/// and no chunks.
///
/// Appending needs no key, so a diary can be written without the PIN or the sensor. Reading
/// needs the master key, which opens the journal secret key (an XChaCha20-Poly1305 box under the
/// `journal` subkey with associated data `vault.journal-key.v1 || vault id`).
public struct JournalStore {
  /// Kind column value of a journal entry.
  static let kindJournal: Int64 = 1
  /// Largest entry text in bytes (16 MiB).
  public static let maximumByteCount = 16 * 1024 * 1024
  /// Hex digits of an entry id shown to users (more when two entries share them).
  public static let shortIDLength = 8

  let vault: Vault
  private let publicKey: [UInt8]
  private let secretKey: SecureBytes

  /// Seals `text` to the vault's journal public key and stores it, without any key.
  ///
  /// The header is not authenticated before an unlock, so the key must equal the one this
  /// device recorded at its last authenticated unlock (when it recorded one).
  ///
  /// - Returns: the new entry's id.
  /// - Throws: `VaultError.invalidInput` for empty or oversized text, `.integrity` when the key
  ///   differs from the recorded one, `.malformedHeader` when the header has no valid journal
  ///   key, `.storage` on failure.
  @discardableResult
  public static func append(_ text: SecureBytes, to vault: Vault, stamp: JournalStamp) throws
    -> [UInt8]
  {
    try check(text)
    // Without a record for this vault id (a vault never unlocked here, or an id edited in the
    // header), the header's key is not trusted.
    guard let recorded = try vault.device.read().journalKeys[vault.vaultID.hex] else {
      throw VaultError.journalKeyNotAuthenticated
    }
    if recorded != vault.header.journalPublicKey {
      throw VaultError.integrity(
        "the vault's journal key differs from the one this device last authenticated;"
          + " nothing was written")
    }
    let publicKey = try [UInt8](
      base64: vault.header.journalPublicKey, count: SealedBox.publicKeyByteCount,
      field: "journal_public_key")
    let entryID = SecureBytes.random(count: 16).unprotectedBytes
    let record = JournalRecord.encode(
      vaultID: vault.vaultID, entryID: entryID, stamp: stamp, text: text)
    let box = record.withBytes { SealedBox.seal($0, to: publicKey) }
    try vault.db.query(
      "INSERT INTO entries (entry_id, lookup, kind, meta) VALUES (?, NULL, ?, ?)",
      [.blob(entryID), .integer(kindJournal), .blob(box)])
    return entryID
  }

  private static func check(_ text: SecureBytes) throws {
    guard text.count > 0 else { throw VaultError.invalidInput("the journal entry is empty") }
    guard text.count <= maximumByteCount else {
      throw VaultError.invalidInput("a journal entry is limited to 16 MiB")
    }
  }

  /// Journal access with the master key (already verified against the header).
  ///
  /// - Throws: `VaultError.integrity` when the journal secret key does not open.
  public init(vault: Vault, masterKey: SymmetricKey) throws {
    self.vault = vault
    self.publicKey = try [UInt8](
      base64: vault.header.journalPublicKey, count: SealedBox.publicKeyByteCount,
      field: "journal_public_key")
    let box = try [UInt8](base64: vault.header.journalSecretKey, field: "journal_secret_key")
    self.secretKey = try AEAD.open(
      box, key: masterKey.derive(.journal),
      associatedData: DomainLabel.journalKey.bytes + vault.vaultID.bytes,
      what: "the journal key")
  }

  private func open(_ row: [SQLiteDatabase.Value]) throws -> JournalEntry {
    guard let sequence = row[0].integer, let entryID = row[1].blob, entryID.count == 16,
      let box = row[2].blob
    else { throw VaultError.integrity("a journal row is malformed") }
    let plain: SecureBytes
    do {
      plain = try SealedBox.open(box, publicKey: publicKey, secretKey: secretKey)
    } catch {
      throw VaultError.integrity("journal entry \(entryID.hex.prefix(8)) failed authentication")
    }
    let (stamp, text) = try JournalRecord.decode(plain, vaultID: vault.vaultID, entryID: entryID)
    return JournalEntry(id: entryID, stamp: stamp, text: text, sequence: sequence, box: box)
  }

  private static func ordered(_ entries: [JournalEntry]) -> [JournalEntry] {
    entries.sorted {
      ($0.stamp.instant, $0.sequence) < ($1.stamp.instant, $1.sequence)
    }
  }

  /// Every entry, oldest first.
  ///
  /// - Throws: `VaultError.integrity` when any entry fails authentication or is bound to another
  ///   vault or row.
  public func entries() throws -> [JournalEntry] {
    let rows = try vault.db.query(
      "SELECT rowid, entry_id, meta FROM entries WHERE kind = ?",
      [.integer(Self.kindJournal)])
    return Self.ordered(try rows.map(open))
  }

  /// `prefix` in lower case, checked to be 1 to 32 hex digits.
  ///
  /// - Throws: `VaultError.invalidInput` naming the ID and DATE forms otherwise, or
  ///   `.notAJournalID` when dates are not allowed.
  public static func normalizedIDPrefix(_ prefix: String, datesAllowed: Bool = true) throws
    -> String
  {
    let digits = prefix.lowercased()
    let isHex = digits.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    guard (1...32).contains(digits.utf8.count), isHex else {
      guard datesAllowed else { throw VaultError.notAJournalID(prefix) }
      throw VaultError.invalidInput(
        "'\(prefix)' is neither a journal entry ID nor a date (\(JournalDate.forms))")
    }
    return digits
  }

  /// The one entry whose hex id starts with `prefix` (case-insensitive).
  ///
  /// - Throws: `VaultError.invalidInput` for a prefix that is not 1 to 32 hex digits or matches
  ///   several entries, `.journalEntryNotFound` when it matches none, `.integrity` as `entries`.
  public func entry(idPrefix prefix: String) throws -> JournalEntry {
    let digits = try Self.normalizedIDPrefix(prefix)
    let rows = try vault.db.query(
      "SELECT rowid, entry_id, meta FROM entries WHERE kind = ? AND"
        + " substr(lower(hex(entry_id)), 1, ?) = ?",
      [.integer(Self.kindJournal), .integer(Int64(digits.count)), .text(digits)])
    guard let row = rows.first else {
      // A damaged row would never match: it is named (as `vault check` names it), not missed.
      _ = try entries()
      throw VaultError.journalEntryNotFound("with ID '\(prefix)'")
    }
    guard rows.count == 1 else {
      throw VaultError.invalidInput(
        "the ID '\(prefix)' matches \(rows.count) journal entries; give more digits")
    }
    return try open(row)
  }

  /// Replaces the text of `entry`, keeping its id and time.
  ///
  /// - Throws: `VaultError.invalidInput` for empty or oversized text,
  ///   `.journalEntryNotFound` when the entry is gone, `.storage` on failure.
  public func replace(_ entry: JournalEntry, text: SecureBytes) throws {
    try Self.check(text)
    let record = JournalRecord.encode(
      vaultID: vault.vaultID, entryID: entry.id, stamp: entry.stamp, text: text)
    let box = record.withBytes { SealedBox.seal($0, to: publicKey) }
    try vault.db.transaction {
      try vault.db.query(
        "UPDATE entries SET meta = ? WHERE entry_id = ? AND kind = ? AND meta = ?",
        [.blob(box), .blob(entry.id), .integer(Self.kindJournal), .blob(entry.box)])
      guard vault.db.changes == 1 else {
        throw VaultError.conflict(
          "journal entry \(entry.hexID.prefix(Self.shortIDLength)) changed or was removed while"
            + " it was being edited")
      }
    }
  }

  /// The ID shown for each entry: its first 8 hex digits, or as many more as it takes to tell it
  /// from every other entry.
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
    return zip(ids, lengths).map { String($0.prefix($1)) }
  }
}
