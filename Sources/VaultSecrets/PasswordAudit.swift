import FoundationEssentials
import Glibc
import VaultCrypto
import VaultFormat

/// What `vault audit` found about one entry's password (its first line).
public struct PasswordFinding: Equatable, Sendable {
  /// One problem.
  public enum Problem: Equatable, Sendable {
    /// The same password is the first line of these other entries too.
    case reused(with: [String])
    /// Fewer than `PasswordStrength.minimumLength` characters.
    case short(length: Int)
    /// Fewer than `PasswordStrength.minimumBits` estimated bits.
    case weak(bits: Int)
    /// Unchanged since `since` (ISO 8601 UTC), `days` ago; `atLeast` when the oldest kept
    /// version already had it, so it may be older.
    case old(since: String, days: Int, atLeast: Bool)
  }

  /// The entry's name.
  public var name: String
  /// Its problems, in the order above.
  public var problems: [Problem]
}

/// The result of `EntryStore.auditPasswords`.
public struct PasswordAuditReport: Equatable, Sendable {
  /// Entries with at least one problem, sorted by name.
  public var findings: [PasswordFinding] = []
  /// Entries whose password was checked.
  public var checked = 0
  /// Guarded entries left out (their reads need a fresh check).
  public var skippedGuarded = 0
  /// Entries left out because their content is not text, is large (`EntryMetadata.isLarge`) or
  /// its first line is empty.
  public var skippedNoPassword = 0
}

extension EntryStore {
  /// Days after which an unchanged password is old.
  public static let passwordMaximumAgeDays = 365

  /// Checks the first line of every entry under `prefix`, offline: reuse across all entries (by a
  /// keyed BLAKE2b under a key drawn for this call, so no password is compared in the clear or
  /// kept), length, estimated strength (`PasswordStrength`) and age (the oldest kept version,
  /// newest first, that still has the same first line).
  ///
  /// - Parameters:
  ///   - now: the present, Unix seconds.
  ///   - includeGuarded: read guarded entries too (the key came from the PIN in this command).
  /// - Throws: `VaultError.integrity` when a record or the state fails authentication.
  public func auditPasswords(prefix: String, now: Double, includeGuarded: Bool) throws
    -> PasswordAuditReport
  {
    let key = SecureBytes.random(count: 32)
    let label = DomainLabel.audit.bytes
    var report = PasswordAuditReport()
    var byDigest: [[UInt8]: [String]] = [:]
    var byName: [String: [PasswordFinding.Problem]] = [:]
    for entry in try list() {
      // Every entry counts for reuse; only those under `prefix` are reported.
      let reported = entry.name.utf8.starts(with: prefix.canonicallyComposed.utf8)
      if entry.guarded && !includeGuarded {
        if reported { report.skippedGuarded += 1 }
        continue
      }
      let name = try EntryName(entry.name)
      let checked = try vault.reading(masterKey: masterKey) {
        snapshot -> [PasswordFinding.Problem]? in
        let (named, kept) = try history(name, in: snapshot)
        // A large content is a file, not a password; it is never read whole.
        guard case .entry(let found) = named, !found.metadata.isLarge else { return nil }
        let current = try content(
          of: found.metadata, recordID: found.row.recordID, name: entry.name)
        guard let password = try? EntryFields(current).password, password.count > 0 else {
          return nil
        }
        byDigest[
          GenericHash.keyedSecret(key: key, prefix: label, secret: password).bytes
            .unprotectedBytes, default: []
        ].append(entry.name)
        guard reported else { return [] }
        var problems: [PasswordFinding.Problem] = []
        let length = PasswordStrength.length(password)
        if length < PasswordStrength.minimumLength { problems.append(.short(length: length)) }
        let bits = Int(PasswordStrength.estimatedBits(password))
        if bits < PasswordStrength.minimumBits { problems.append(.weak(bits: bits)) }
        // The oldest version, newest first, that still has this first line; when every kept
        // version has it and the oldest did not write the whole content, it may be older.
        var oldest = found.metadata
        var reachedEnd = true
        for version in kept.reversed() {
          guard !version.metadata.isLarge else {
            reachedEnd = false
            break
          }
          let old = try content(
            of: version.metadata, recordID: found.row.recordID, name: entry.name)
          guard (try? EntryFields(old).password) == password else {
            reachedEnd = false
            break
          }
          oldest = version.metadata
        }
        let wholeContent: [EntryChange] = [.added, .replaced, .generated, .imported]
        let atLeast =
          reachedEnd && !wholeContent.contains { $0.rawValue == oldest.change }
        let since = oldest.changed
        if let set = Timestamp.seconds(since) {
          let days = Int((now - set) / 86_400)
          if days >= Self.passwordMaximumAgeDays {
            problems.append(.old(since: since, days: days, atLeast: atLeast))
          }
        }
        return problems
      }
      guard reported else { continue }
      guard let checked else {
        report.skippedNoPassword += 1
        continue
      }
      report.checked += 1
      byName[entry.name] = checked
    }
    for names in byDigest.values where names.count > 1 {
      for name in names where byName[name] != nil {
        byName[name, default: []].insert(.reused(with: names.filter { $0 != name }), at: 0)
      }
    }
    report.findings = byName.filter { !$0.value.isEmpty }.map {
      PasswordFinding(name: $0.key, problems: $0.value)
    }.sorted { $0.name < $1.name }
    return report
  }
}
