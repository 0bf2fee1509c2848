import FoundationEssentials
import Glibc
import VaultCrypto

/// Each journal writer's counter record (kind `counter`, `vault(5)` RECORDS): the highest
/// sequence number folded into the state, and the ranges below it never received.
package struct WriterCounters {
  /// A counter's body.
  package struct Counter: Codable, Equatable {
    /// `journal-writer:` and the writer's hex device id.
    package var name: String
    /// The highest sequence folded.
    package var value: UInt64
    /// Ranges `[first, last]` below `value` never folded.
    package var missing: [Range]

    package struct Range: Codable, Equatable {
      package var first: UInt64
      package var last: UInt64
    }

    init(name: String, value: UInt64, missing: [Range]) {
      self.name = name
      self.value = value
      self.missing = missing
    }

    /// Reads a body; `missing` is absent from a one-time code's counter.
    package init(from decoder: Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      name = try container.decode(String.self, forKey: .name)
      value = try container.decode(UInt64.self, forKey: .value)
      missing = try container.decodeIfPresent([Range].self, forKey: .missing) ?? []
    }

    /// True when `sequence` may still be folded: above the counter, or one of its missing.
    package func accepts(_ sequence: UInt64) -> Bool {
      sequence > value || missing.contains { $0.first <= sequence && sequence <= $0.last }
    }
  }

  let db: SQLiteDatabase
  let vaultID: VaultID
  let masterKey: SymmetricKey
  /// The writing device's id, for counters this command writes.
  let deviceID: [UInt8]
  /// The wall clock, Unix seconds.
  let now: Double

  init(
    db: SQLiteDatabase, vaultID: VaultID, masterKey: SymmetricKey, deviceID: [UInt8], now: Double
  ) {
    self.db = db
    self.vaultID = vaultID
    self.masterKey = masterKey
    self.deviceID = deviceID
    self.now = now
  }

  package init(vault: Vault, masterKey: SymmetricKey) {
    self.init(
      db: vault.db, vaultID: vault.vaultID, masterKey: masterKey,
      deviceID: vault.localDevice?.deviceIDBytes ?? [UInt8](repeating: 0, count: 16),
      now: vault.environment.clock.wallNow)
  }

  private var boxes: RecordBox { RecordBox(vaultID: vaultID, masterKey: masterKey) }

  package static func name(writer: String) -> String { "journal-writer:" + writer }

  /// `BLAKE2b-128(key: name-index subkey, "vault.counter-id.v2" || name)`.
  package func recordID(_ name: String) -> [UInt8] { Self.recordID(name, masterKey: masterKey) }

  /// `recordID(_:)` under `masterKey`.
  static func recordID(_ name: String, masterKey: SymmetricKey) -> [UInt8] {
    GenericHash.keyed(
      key: masterKey.derive(.nameIndex).bytes,
      parts: [DomainLabel.counterID.bytes, Array(name.utf8)], outputLength: 16)
  }

  /// Opens a counter record of any name, checking that its id is its name's.
  ///
  /// - Throws: `VaultError.integrity` when it does not open or is malformed.
  package func open(_ row: RecordRow) throws -> Counter {
    let opened = try boxes.open(row, kind: .counter, what: "a counter record")
    guard
      let counter = try? opened.body.withBytes({
        try JSONDecoder().decode(Counter.self, from: Data($0))
      }), recordID(counter.name) == row.recordID
    else { throw VaultError.integrity(.record(.malformedCounter)) }
    return counter
  }

  /// Every writer's counter, by hex writer id, from the authenticated `rows`.
  package func all(in rows: [RecordRow]) throws -> [String: Counter] {
    var out: [String: Counter] = [:]
    for row in rows where row.kind == RecordKind.counter.rawValue {
      let counter = try open(row)
      let prefix = Self.name(writer: "")
      guard counter.name.hasPrefix(prefix) else { continue }
      out[String(counter.name.dropFirst(prefix.count))] = counter
    }
    return out
  }

  /// Folds `sequences` of `writer` into its counter in `change`: the counter becomes the
  /// highest, the numbers skipped above the old value are recorded as missing, and numbers that
  /// arrive late are taken off the missing ranges.
  package func advance(writer: String, with sequences: [UInt64], in change: StateWrite) throws {
    let name = Self.name(writer: writer)
    let id = recordID(name)
    let existing = try change.unnamedRecord(id)
    var counter = try existing.map(open) ?? Counter(name: name, value: 0, missing: [])
    var missing = Set<UInt64>()
    for range in counter.missing where range.last - range.first < 1 << 16 {
      for number in range.first...range.last { missing.insert(number) }
    }
    let highest = max(counter.value, sequences.max() ?? 0)
    let arrived = Set(sequences)
    if highest > counter.value + 1 {
      for number in (counter.value + 1)..<highest where !arrived.contains(number) {
        if missing.count < 1 << 16 { missing.insert(number) }
      }
    }
    missing.subtract(arrived)
    counter.value = highest
    counter.missing = Self.ranges(missing)
    try store(try JSONEncoder.sorted.encodedBytes(counter), id: id, replacing: existing, in: change)
  }

  /// Seals the counter body `body` as the record `id` in place of `existing`, in `change`.
  func store(_ body: [UInt8], id: [UInt8], replacing existing: RecordRow?, in change: StateWrite)
    throws
  {
    // A counter changes in place: its revision stays 1.
    try change.replace(
      existing,
      with: RecordRow(
        recordID: id, lookup: nil, kind: RecordKind.counter.rawValue, revision: 1,
        box: boxes.seal(
          body, recordID: id, kind: .counter, revision: 1, deviceID: deviceID,
          hlc: RecordBox.hlc(now: now, after: nil))))
  }

  /// True when `writer`'s `sequence` may be folded in `change` (see `Counter.accepts`).
  package func accepts(_ sequence: UInt64, writer: String, in change: StateWrite) throws -> Bool {
    let id = recordID(Self.name(writer: writer))
    guard let row = try change.unnamedRecord(id) else { return true }
    return try open(row).accepts(sequence)
  }

  /// `numbers` as sorted closed ranges.
  static func ranges(_ numbers: Set<UInt64>) -> [Counter.Range] {
    var out: [Counter.Range] = []
    for number in numbers.sorted() {
      if let last = out.last, last.last + 1 == number {
        out[out.count - 1].last = number
      } else {
        out.append(Counter.Range(first: number, last: number))
      }
    }
    return out
  }
}
