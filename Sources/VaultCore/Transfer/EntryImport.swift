import VaultCrypto
import VaultFormat
import VaultJournal

/// An item of an import that cannot be imported: what is wrong and where the source has it.
public struct ImportItemError: Error, Equatable {
  /// Where the source has the item, as the caller named it (`line 12`, `record 3`).
  public let origin: String
  /// What is wrong.
  public let error: VaultError
  /// True when the fault is a name an earlier item has (which renaming would cure).
  public let isDuplicate: Bool

  /// The fault `error` of the item at `origin`.
  public init(origin: String, _ error: VaultError, isDuplicate: Bool = false) {
    self.origin = origin
    self.error = error
    self.isDuplicate = isDuplicate
  }
}

/// What an import brings, checked without the vault: every name valid and given once, every
/// content and journal text one the vault can store.
///
/// Built item by item in source order (`addEntry`, `addJournal`), it holds the names (which are
/// not secret), never a content; `EntryStore.importItems` then checks it against the vault and,
/// unless it is a dry run, writes it with the contents the source hands over a second time.
public struct ImportPlan: Sendable {
  /// The entries' names, normalized, in source order.
  public private(set) var names: [EntryName] = []
  /// The names as the source gives them, to recognize the same items when they come again.
  private(set) var givenNames: [String] = []
  /// Where the source has each entry.
  private(set) var origins: [String] = []
  /// Each name's index in `names`.
  private var indexes: [EntryName: Int] = [:]
  /// Whether an item whose name an earlier one has is renamed rather than refused.
  public let renamingDuplicates: Bool
  /// The items renamed so: where each is, the name it was given and the name it gets.
  public private(set) var renamed: [(origin: String, given: EntryName, name: EntryName)] = []
  /// The items to rename (index in `names`, origin), named by `resolveRenames`.
  private var pendingRenames: [(index: Int, origin: String)] = []
  /// How many journal entries the source holds.
  public private(set) var journalCount = 0
  /// Each journal entry's digest (`journalDigest`), in source order.
  private(set) var journalDigests: [[UInt8]] = []
  /// Each entry's digest (`entryDigest`), in source order: the second read must give the
  /// same content and guard, not only the same name.
  private(set) var entryDigests: [[UInt8]] = []
  /// The key of the digests: random, for this plan only.
  let digestKey = SecureBytes.random(count: 32)

  /// An empty plan.
  ///
  /// With `renamingDuplicates`, a later item with an earlier one's name is named `NAME (2)`, `NAME (3)`, ... (the first such name no item has yet) instead of being
  /// refused.
  public init(renamingDuplicates: Bool = false) {
    self.renamingDuplicates = renamingDuplicates
  }

  /// The keyed BLAKE2b (`crypto_generichash`, under this plan's random key) of a journal
  /// entry's stamp and text, 32 bytes: equal for the same stamp and text, and nothing else
  /// about them.
  func journalDigest(stamp: JournalStamp, text: SecureBytes) -> [UInt8] {
    GenericHash.keyedSecret(
      key: digestKey, prefix: Array(stamp.description.utf8) + [0], secret: text
    ).bytes.unprotectedBytes
  }

  /// A keyed BLAKE2b (under this plan's random key) of an entry's guard, length and content,
  /// fed piece by piece: `update` with the content's bytes, then `finish`.
  public func entryDigest(length: Int, guarded: Bool) -> GenericHash.Stream {
    var prefix = Array("vault.import-entry".utf8) + [guarded ? 1 : 0]
    withUnsafeBytes(of: UInt64(length).bigEndian) { prefix.append(contentsOf: $0) }
    return GenericHash.Stream(key: digestKey, prefix: prefix)
  }

  /// `entryDigest` of a whole content.
  func entryDigest(_ content: SecureBytes, guarded: Bool) -> [UInt8] {
    let stream = entryDigest(length: content.count, guarded: guarded)
    content.withBytes { stream.update($0) }
    return stream.finish()
  }

  /// Entries and journal entries.
  public var itemCount: Int { names.count + journalCount }

  /// Adds the entry named `name` holding `content`, which the source has at `origin`.
  ///
  /// - Throws: `ImportItemError` at `origin`: `VaultError.invalidInput` for a name `EntryName`
  ///   refuses, a name an earlier item has (after NFC normalization; the message names that
  ///   item's origin; `isDuplicate`) unless `renamingDuplicates`, or empty content.
  public mutating func addEntry(
    named name: String, content: SecureBytes, origin: String, guarded: Bool = false
  ) throws {
    try addEntry(
      named: name, length: content.count, origin: origin,
      digest: entryDigest(content, guarded: guarded))
  }

  /// Adds an entry whose content of `length` bytes is read only when it is written (a large
  /// one), with the checks of `addEntry(named:content:origin:)`; `digest` is its
  /// `entryDigest(length:guarded:)` over the content as the first read gave it.
  ///
  /// - Throws: as `addEntry(named:content:origin:)`.
  public mutating func addEntry(named name: String, length: Int, origin: String, digest: [UInt8])
    throws
  {
    do {
      let checked = try EntryName(name)
      let duplicate = indexes[checked]
      if let earlier = duplicate, !renamingDuplicates {
        throw ImportItemError(
          origin: origin,
          .invalidInput(.nameGivenTwice(name: checked.value, at: origins[earlier])),
          isDuplicate: true)
      }
      guard length > 0 else { throw VaultError.invalidInput(.emptyContent) }
      if duplicate == nil {
        indexes[checked] = names.count
      } else {
        // Named once every name of the source is known (`resolveRenames`).
        pendingRenames.append((names.count, origin))
      }
      names.append(checked)
      givenNames.append(name)
      origins.append(origin)
      entryDigests.append(digest)
    } catch let thrown {
      guard let error = VaultError(thrown) else { throw thrown }
      throw ImportItemError(origin: origin, error)
    }
  }

  /// Names each later item that repeats an earlier one's name (with `renamingDuplicates`).
  ///
  /// In source order, `NAME (2)`, `NAME (3)`, ...: the first such name no item of the whole source
  /// has, nor one renamed before it. Done once every item was added; again, it does nothing.
  ///
  /// - Throws: `ImportItemError` (`isDuplicate`) when no such name up to `NAME (10000)` is a
  ///   valid name (a name at the length limit).
  public mutating func resolveRenames() throws {
    for (index, origin) in pendingRenames {
      let given = names[index]
      guard let free = freeName(after: given) else {
        throw ImportItemError(
          origin: origin,
          .invalidInput(
            .noFreeName(name: given.value, at: origins[indexes[given] ?? index])),
          isDuplicate: true)
      }
      names[index] = free
      indexes[free] = index
      renamed.append((origin, given, free))
    }
    pendingRenames = []
  }

  /// The name a later item named `name` gets.
  ///
  /// `NAME (2)`, `NAME (3)`, ...: the first that no item has and that is a valid name (nil
  /// when none up to 10,000 is: a name at the length limit).
  private func freeName(after name: EntryName) -> EntryName? {
    for number in 2...10_000 {
      guard let candidate = try? EntryName("\(name.value) (\(number))") else { return nil }
      if indexes[candidate] == nil { return candidate }
    }
    return nil
  }

  /// Adds a journal entry holding `text`, which the source has at `origin`.
  ///
  /// - Throws: `ImportItemError` at `origin`: `VaultError.invalidInput` for empty text or text
  ///   over `JournalStore.maximumByteCount`.
  public mutating func addJournal(text: SecureBytes, stamp: JournalStamp, origin: String) throws {
    guard text.count > 0 else {
      throw ImportItemError(origin: origin, .invalidInput(.emptyJournalEntry))
    }
    guard text.count <= JournalStore.maximumByteCount else {
      throw ImportItemError(origin: origin, .invalidInput(.journalEntryTooLarge))
    }
    journalDigests.append(journalDigest(stamp: stamp, text: text))
    journalCount += 1
  }
}

/// What an import stored, or for a dry run would store.
public struct ImportCounts: Equatable, Sendable {
  /// New entries (under names with no entry, or the name of a removed one).
  public var added = 0
  /// Existing entries replaced (their last version kept in their history).
  public var replaced = 0
  /// Journal entries.
  public var journal = 0
  /// Journal entries of the source left out because the journal holds one with the same stamp
  /// and text (the same export imported again).
  public var journalAlreadyThere = 0

  /// The counts `added`, `replaced` and `journal`.
  public init(added: Int = 0, replaced: Int = 0, journal: Int = 0) {
    self.added = added
    self.replaced = replaced
    self.journal = journal
  }

  /// Entries, new and replaced.
  public var entries: Int { added + replaced }
}

/// Receives the items of a plan a second time, in the same order, and stores each inside the
/// import's one write (`EntryStore.importItems`).
public final class ImportWriter {
  let store: EntryStore
  let plan: ImportPlan
  let replacing: Bool
  let write: StateWrite
  let time: String
  let journal: JournalSigner?
  /// The plan's journal entries (by index) that the journal holds already: read, not stored.
  let skipping: Set<Int>
  let progress: (Int) -> Void
  /// Entries and journal entries stored so far.
  private(set) var entryCount = 0
  private(set) var journalCount = 0
  private(set) var counts = ImportCounts()

  init(
    store: EntryStore, plan: ImportPlan, replacing: Bool, write: StateWrite, time: String,
    journal: JournalSigner?, skipping: Set<Int>, progress: @escaping (Int) -> Void
  ) {
    self.skipping = skipping
    self.store = store
    self.plan = plan
    self.replacing = replacing
    self.write = write
    self.time = time
    self.journal = journal
    self.progress = progress
  }

  private static let changed = ImportError.sourceGaveOtherItems

  /// Stores the next entry of the plan, which the source names `name`, with `content`, guarded
  /// when `guarded` (a `vault` export's guarded entry) or when the entry it replaces was.
  ///
  /// - Throws: `ImportItemError` at the entry's origin: `VaultError.exists` when the name has an
  ///   entry and the import does not replace (another command added it since the check);
  ///   `ImportError.sourceGaveOtherItems` (not located) when the item is not the plan's next
  ///   entry; `.integrity`,
  ///   `.storage` as `EntryStore.put`.
  public func entry(named name: String, content: SecureBytes, guarded: Bool = false) throws {
    guard content.count > 0, entryCount < plan.entryDigests.count,
      plan.entryDigest(content, guarded: guarded) == plan.entryDigests[entryCount]
    else { throw Self.changed }
    try store(named: name, source: .whole(content), guarded: guarded)
  }

  /// Stores the next entry of the plan from `source`: a large content as `.streamedInWrite`,
  /// sealed piece by piece as the write reads it; otherwise as `entry(named:content:guarded:)`.
  ///
  /// - Throws: as `entry(named:content:guarded:)`; what reading `source` throws.
  public func entry(named name: String, length: Int, source: ContentSource, guarded: Bool = false)
    throws
  {
    // The content is hashed as the write reads it and compared before the write ends.
    let digest = plan.entryDigest(length: length, guarded: guarded)
    let hashed: ContentSource
    switch source {
    case .whole(let content):
      content.withBytes { digest.update($0) }
      hashed = source
    case .streamed(let prefix, let read), .streamedInWrite(let prefix, let read):
      prefix.withBytes { digest.update($0) }
      let counted: (UnsafeMutableRawBufferPointer) throws -> Int = { buffer in
        let n = try read(buffer)
        digest.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        return n
      }
      if case .streamed = source {
        hashed = .streamed(prefix: prefix, read: counted)
      } else {
        hashed = .streamedInWrite(prefix: prefix, read: counted)
      }
    }
    let index = entryCount
    try store(named: name, source: hashed, guarded: guarded)
    guard index < plan.entryDigests.count, digest.finish() == plan.entryDigests[index] else {
      throw Self.changed
    }
  }

  private func store(named name: String, source: ContentSource, guarded: Bool) throws {
    guard entryCount < plan.names.count, plan.givenNames[entryCount] == name else {
      throw Self.changed
    }
    let checked = plan.names[entryCount]
    let origin = plan.origins[entryCount]
    do {
      let replaced = try store.put(
        checked, source: source, overwrite: replacing, guarded: guarded, change: .imported,
        at: time, in: write)
      if replaced { counts.replaced += 1 } else { counts.added += 1 }
    } catch let thrown {
      guard let error = VaultError(thrown) else { throw thrown }
      throw ImportItemError(origin: origin, error)
    }
    entryCount += 1
    progress(entryCount + journalCount)
  }

  /// Stores the next journal entry of the plan: `text`, written at `stamp`, signed by this
  /// device's writer; one the journal holds already is passed over.
  ///
  /// - Throws: `ImportError.sourceGaveOtherItems` when the plan has no more journal entries or
  ///   this one is not the plan's next; `VaultError.storage` on failure.
  public func journal(text: SecureBytes, stamp: JournalStamp) throws {
    let index = journalCount
    guard index < plan.journalCount, (1...JournalStore.maximumByteCount).contains(text.count),
      plan.journalDigests[index] == plan.journalDigest(stamp: stamp, text: text)
    else { throw Self.changed }
    journalCount += 1
    if !skipping.contains(index) {
      guard let journal else { throw Self.changed }
      try journal.insert(text, stamp: stamp, sequenceOffset: counts.journal, in: write)
      counts.journal += 1
    }
    progress(entryCount + journalCount)
  }
}

/// Signs and seals journal entries for one write with this device's writer key and sequence
/// numbers reserved for them, as folded records (no pending row: the key is at hand).
struct JournalSigner {
  let vaultID: VaultID
  let publicKey: [UInt8]
  let writerID: [UInt8]
  let signingKey: SigningKeyPair
  /// The first of the reserved sequence numbers.
  let first: UInt64
  let count: Int

  /// Reserves `count` sequence numbers of this device's writer for `vault` (in the device
  /// state, before any row is written: a write that fails leaves them as a gap, never a number
  /// used twice).
  ///
  /// - Throws: `VaultError.journalKeyNotAuthenticated` when this device has no writer;
  ///   `.integrity` for a malformed writer record or journal key.
  init(reserving count: Int, for vault: Vault) throws {
    let hex = vault.vaultID.hex
    let (writer, first) = try vault.device.update { state -> (WriterRecord, UInt64) in
      guard var writer = state.writers[hex] else { throw VaultError.journalKeyNotAuthenticated }
      let first = writer.sequence + 1
      writer.sequence += UInt64(count)
      state.writers[hex] = writer
      return (writer, first)
    }
    vaultID = vault.vaultID
    publicKey = try [UInt8](
      base64: vault.header.journalPublicKey, count: SealedBox.publicKeyByteCount,
      field: "journal_public_key")
    writerID = try [UInt8](base64: writer.deviceID, count: 16, field: "writer")
    signingKey = try writer.keyPair()
    self.first = first
    self.count = count
  }

  /// Inserts `text` at `stamp` as the journal entry signed with the reserved number `first +
  /// sequenceOffset`.
  func insert(_ text: SecureBytes, stamp: JournalStamp, sequenceOffset: Int, in write: StateWrite)
    throws
  {
    let entryID = SecureRandom.bytes(count: SignedJournalRecord.idByteCount)
    let record = try SignedJournalRecord(
      vaultID: vaultID, entryID: entryID, writerID: writerID,
      sequence: first + UInt64(sequenceOffset), revision: 1, stamp: stamp, text: text)
    let box = record.encode(signingWith: signingKey).withBytes {
      SealedBox.seal($0, to: publicKey)
    }
    // Nothing later in the import reads it back: the write keeps no copy of its box.
    try write.insert(
      RecordRow(
        recordID: entryID, lookup: nil, kind: RecordKind.journal.rawValue, revision: 1, box: box),
      keepingBox: false)
  }

  /// Advances the writer's counter over every reserved number.
  func finish(_ counters: WriterCounters, in write: StateWrite) throws {
    guard count > 0 else { return }
    try counters.advance(
      writer: writerID.hex, with: (0..<count).map { first + UInt64($0) }, in: write)
  }
}

extension EntryStore {
  /// SQLite's page cache for an import's write, in KiB (256 MiB, used only as it fills).
  static let importCacheKiB = 256 * 1024

  /// Imports `plan` in one write, or with `dryRun` only checks it.
  ///
  /// First, in one read of the vault, every name is checked against the entries there: a name
  /// with an entry is refused unless `replacing`. A dry run stops there and writes nothing.
  /// Otherwise `feed` is called once, inside one write, to hand the plan's items again, in the
  /// same order, to the `ImportWriter`: each entry is stored as `put` stores it, as a version
  /// whose change is `EntryChange.imported` (a replaced entry's last version goes to its
  /// history), every version with the same time; each journal entry is signed by this device's
  /// writer with a sequence number reserved before the write, and stored folded. `progress` is
  /// called with the number of items stored after each one. Anything thrown leaves the vault as
  /// it was.
  ///
  /// - Returns: what was stored (or, for a dry run, would be).
  /// - Throws: `ImportItemError` naming the item for an item refused (`VaultError.exists` for an
  ///   existing name); `VaultError.journalKeyNotAuthenticated` for journal entries on a device
  ///   without a writer; `.integrity` when the state or a record fails; what `feed` throws;
  ///   `.storage` on failure.
  public func importItems(
    _ plan: ImportPlan, replacing: Bool, dryRun: Bool, progress: @escaping (Int) -> Void = { _ in },
    feed: (ImportWriter) throws -> Void
  ) throws -> ImportCounts {
    var plan = plan
    try plan.resolveRenames()
    let present = try journalAlreadyThere(plan)
    var checked = try check(plan, replacing: replacing)
    checked.journal -= present.count
    checked.journalAlreadyThere = present.count
    if dryRun || (plan.names.isEmpty && checked.journal == 0) { return checked }
    let signer =
      checked.journal > 0 ? try JournalSigner(reserving: checked.journal, for: vault) : nil
    let time = Timestamp.utc(vault.environment.clock.wallNow)
    var store = self
    store.knownDeviceID = deviceID
    // SQLite's default cache (2 MiB) makes a write this large read the same pages again and
    // again; the process ends with the command, so the setting goes with it.
    try db.execute("PRAGMA cache_size = -\(Self.importCacheKiB)")
    return try vault.write(masterKey: masterKey) { write in
      var store = store
      store.knownSettings = try store.settings(in: write)
      let writer = ImportWriter(
        store: store, plan: plan, replacing: replacing, write: write, time: time, journal: signer,
        skipping: present, progress: progress)
      try feed(writer)
      guard writer.entryCount == plan.names.count, writer.journalCount == plan.journalCount else {
        throw ImportError.sourceGaveFewerItems
      }
      try signer?.finish(WriterCounters(vault: vault, masterKey: masterKey), in: write)
      var counts = writer.counts
      counts.journalAlreadyThere = present.count
      return counts
    }
  }

  /// The indices of the plan's journal entries whose stamp and text an entry of the journal
  /// has (the same export imported again), from one verified read of the journal.
  ///
  /// - Throws: as `JournalStore.entries`.
  func journalAlreadyThere(_ plan: ImportPlan) throws -> Set<Int> {
    guard plan.journalCount > 0 else { return [] }
    let held = Set(
      try JournalStore(vault: vault, masterKey: masterKey).entries().map {
        plan.journalDigest(stamp: $0.stamp, text: $0.text)
      })
    return Set(plan.journalDigests.indices.filter { held.contains(plan.journalDigests[$0]) })
  }

  /// The counts `plan` would give, from one verified read of the buckets of its names.
  ///
  /// - Throws: `ImportItemError` with `VaultError.exists` for the first name (in source order)
  ///   with an entry, unless `replacing`; `.integrity` as `get`.
  func check(_ plan: ImportPlan, replacing: Bool) throws -> ImportCounts {
    try vault.reading(masterKey: masterKey) { snapshot in
      var counts = ImportCounts(journal: plan.journalCount)
      var buckets: [Int: [[UInt8]: RecordRow]] = [:]
      for (index, name) in plan.names.enumerated() {
        let lookup = lookup(name)
        let bucket = Int(lookup[0])
        if buckets[bucket] == nil {
          var named: [[UInt8]: RecordRow] = [:]
          for row in try snapshot.rows(inBucket: bucket, db: db, rowKey: rowKey) {
            if let key = row.lookup { named[key] = row }
          }
          buckets[bucket] = named
        }
        guard let row = buckets[bucket]?[lookup],
          case .entry = try record(named: name, in: [row])
        else {
          counts.added += 1
          continue
        }
        guard replacing else {
          throw ImportItemError(origin: plan.origins[index], .exists(name.value))
        }
        counts.replaced += 1
      }
      return counts
    }
  }
}
