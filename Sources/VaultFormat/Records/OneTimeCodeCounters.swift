import FoundationEssentials
import Glibc
import VaultCrypto

/// The counter records of HOTP codes (`vault(5)` ONE-TIME CODE COUNTERS): one per entry and
/// secret, named `hotp:` || hex(entry record id) || `:` || hex(BLAKE2b-16(label || secret)),
/// holding the next counter to use.
package enum OneTimeCodeCounters {
  static let prefix = "hotp:"

  /// The body of an HOTP counter (sorted keys, no `missing`).
  package struct Body: Encodable {
    /// The value of each stored property, in order.
    package init(name: String, value: UInt64) {
      self.name = name
      self.value = value
    }

    var name: String
    var value: UInt64
  }

  /// The counter name of `secret` in the entry `entryID`.
  package static func name(entry entryID: [UInt8], secret: SecureBytes) -> String {
    let fingerprint = GenericHash.hash(
      prefix: DomainLabel.hotpSecret.bytes, secret: secret, outputLength: 16)
    return prefix + entryID.hex + ":" + fingerprint.hex
  }

  /// The entry id and fingerprint of an HOTP counter's name; nil for a name of another form.
  package static func parts(of name: String) -> (entryID: [UInt8], fingerprint: String)? {
    guard name.hasPrefix(prefix) else { return nil }
    let rest = name.dropFirst(prefix.count).split(separator: ":", omittingEmptySubsequences: false)
    guard rest.count == 2, rest[0].count == 32, rest[1].count == 32,
      rest.allSatisfy({ $0.allSatisfy { "0123456789abcdef".contains($0) } })
    else { return nil }
    var bytes: [UInt8] = []
    var digits = rest[0][...]
    while !digits.isEmpty {
      guard let byte = UInt8(digits.prefix(2), radix: 16) else { return nil }
      bytes.append(byte)
      digits = digits.dropFirst(2)
    }
    return (bytes, String(rest[1]))
  }

  /// Every HOTP counter row of the entry `entryID` in `write` (every bucket verified), with its
  /// opened body.
  package static func rows(
    of entryID: [UInt8], in write: StateWrite, counters: WriterCounters
  ) throws -> [(row: RecordRow, counter: WriterCounters.Counter, fingerprint: String)] {
    var out: [(RecordRow, WriterCounters.Counter, String)] = []
    for bucket in 0..<StateSnapshot.bucketCount {
      for row in try write.rows(inBucket: bucket) where row.kind == RecordKind.counter.rawValue {
        let counter = try counters.open(row)
        if let parts = parts(of: counter.name), parts.entryID == entryID {
          out.append((row, counter, parts.fingerprint))
        }
      }
    }
    return out
  }

  /// Removes the counters of `entryID` in `write` (a purge).
  static func remove(of entryID: [UInt8], in write: StateWrite, counters: WriterCounters) throws {
    for found in try rows(of: entryID, in: write, counters: counters) {
      try write.delete(found.row)
    }
  }

  /// Moves the counters of `source` to `target` in `write` (a rename onto a replaced entry,
  /// whose versions join `target`'s history), keeping the larger value for a secret both have.
  static func move(
    from source: [UInt8], to target: [UInt8], in write: StateWrite, counters: WriterCounters
  ) throws {
    for found in try rows(of: source, in: write, counters: counters) {
      let name = prefix + target.hex + ":" + found.fingerprint
      let id = counters.recordID(name)
      let existing = try write.unnamedRecord(id)
      let kept = try existing.map(counters.open)?.value ?? 0
      try write.delete(found.row)
      try store(
        Body(name: name, value: max(kept, found.counter.value)), replacing: existing, in: write,
        counters: counters)
    }
  }

  package static func store(
    _ body: Body, replacing existing: RecordRow?, in write: StateWrite, counters: WriterCounters
  ) throws {
    var json = try JSONEncoder.sorted.encodedBytes(body)
    defer { wipe(&json) }
    try counters.store(json, id: counters.recordID(body.name), replacing: existing, in: write)
  }
}
