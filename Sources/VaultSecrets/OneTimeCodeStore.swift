import FoundationEssentials
import Glibc
import VaultCrypto
import VaultFormat

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
  ///   `SecretError.oneTimeCode` when the counter cannot grow; `.integrity` when a bucket or the
  ///   counter does not verify; `.storage` on failure (nothing is stored then).
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
        throw OneTimeCode.refused(.counterExhausted(entry: name.value))
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
