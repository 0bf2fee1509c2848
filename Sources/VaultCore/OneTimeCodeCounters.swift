import FoundationEssentials
import Glibc
import VaultCrypto

/// The counter records of HOTP codes (`vault(5)` ONE-TIME CODE COUNTERS): one per entry and
/// secret, named `hotp:` || hex(entry record id) || `:` || hex(BLAKE2b-16(label || secret)),
/// holding the next counter to use.
enum OneTimeCodeCounters {
  static let prefix = "hotp:"

  /// The body of an HOTP counter (sorted keys, no `missing`).
  struct Body: Encodable {
    var name: String
    var value: UInt64
  }

  /// The counter name of `secret` in the entry `entryID`.
  static func name(entry entryID: [UInt8], secret: SecureBytes) -> String {
    let fingerprint = GenericHash.hash(
      prefix: DomainLabel.hotpSecret.bytes, secret: secret, outputLength: 16)
    return prefix + entryID.hex + ":" + fingerprint.hex
  }

  /// The entry id and fingerprint of an HOTP counter's name; nil for a name of another form.
  static func parts(of name: String) -> (entryID: [UInt8], fingerprint: String)? {
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
  static func rows(
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

  static func store(
    _ body: Body, replacing existing: RecordRow?, in write: StateWrite, counters: WriterCounters
  ) throws {
    var json = try JSONEncoder.sorted.encodedBytes(body)
    defer { wipe(&json) }
    try counters.store(json, id: counters.recordID(body.name), replacing: existing, in: write)
  }
}

/// An HOTP code and the counter it was made for.
public struct CountedCode: Sendable {
  /// The code's digits, in guarded memory.
  public let code: SecureBytes
  /// The counter used; the next code uses `counter + 1`.
  public let counter: UInt64
}

extension EntryStore {
  /// Makes the next code of the HOTP generator `code`, read from the entry `name`, in one write.
  ///
  /// The counter used is the larger of the URI's and the one stored for the entry and secret,
  /// and one more than it is stored (`vault(5)` ONE-TIME CODE COUNTERS). No revision is made.
  /// `deliver` runs inside the write, after the counter is stored and before the commit (holding
  /// the write lock): when it throws, or the process ends in it, nothing is stored, so a code
  /// that could not be shown or copied uses up no counter.
  ///
  /// - Precondition: `code.kind` is `.hotp`.
  /// - Throws: `VaultError.notFound`, `.removed`, `.purged` when the entry went away;
  ///   `.invalidInput` when the counter cannot grow; `.integrity` when a bucket or the counter
  ///   does not verify; `.storage` on failure (nothing is stored then).
  public func nextCode(
    _ code: OneTimeCode, of name: EntryName, deliver: (CountedCode) throws -> Void = { _ in }
  ) throws -> CountedCode {
    guard case .hotp(let first) = code.kind else {
      preconditionFailure("a TOTP code has no counter")
    }
    return try vault.write(masterKey: masterKey) { write in
      let found = try foundForWrite(name, write)
      let counters = WriterCounters(vault: vault, masterKey: masterKey)
      let counterName = OneTimeCodeCounters.name(entry: found.row.recordID, secret: code.secret)
      let existing = try write.unnamedRecord(counters.recordID(counterName))
      let stored = try existing.map(counters.open)?.value ?? 0
      let counter = max(first, stored)
      guard counter < OneTimeCode.maximumCounter else {
        throw VaultError.invalidInput("the HOTP counter of '\(name)' cannot grow any more")
      }
      let made = try code.code(counter: counter)
      try OneTimeCodeCounters.store(
        .init(name: counterName, value: counter + 1), replacing: existing, in: write,
        counters: counters)
      let counted = CountedCode(code: made, counter: counter)
      // Delivered before the commit: a code that cannot be delivered uses up no counter.
      try deliver(counted)
      return counted
    }
  }

  /// The next counter stored for `code`'s secret in the entry `name`, or nil when none is.
  ///
  /// - Throws: as `get`.
  public func storedCounter(_ code: OneTimeCode, of name: EntryName) throws -> UInt64? {
    try vault.reading(masterKey: masterKey) { snapshot in
      let found = try verifiedFind(name, in: snapshot)
      let counters = WriterCounters(vault: vault, masterKey: masterKey)
      let id = counters.recordID(
        OneTimeCodeCounters.name(entry: found.row.recordID, secret: code.secret))
      let rows = try snapshot.rows(inBucket: Int(id[0]), db: db, rowKey: rowKey)
      return try rows.first { $0.recordID == id && $0.lookup == nil }.map(counters.open)?.value
    }
  }
}
