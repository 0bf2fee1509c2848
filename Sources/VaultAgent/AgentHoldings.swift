import VaultCrypto
import VaultFormat

/// The master keys an unlock agent holds, with their timers: per vault, at most one plain hold
/// (`vault unlock`), served to every client of the user, and any number of grants (sessions,
/// vault(5) SESSIONS), each served only to requests carrying its token.
///
/// Times are seconds of the boot clock (`CLOCK_BOOTTIME`, which counts suspend), so a changed
/// wall clock changes nothing. A key is dropped (its guarded memory freed, which wipes it) at
/// its idle timeout, renewed by every use, at the hard limit from its unlock, and when it is
/// forgotten.
public struct AgentHoldings {
  /// The hard limit of every hold: 8 hours from its unlock, as a session's.
  public static let hardLimit = SessionLedger.hardLimit

  /// One held vault: the plain hold, or a grant.
  public struct Holding {
    /// The vault id the key was released for.
    public let vaultID: VaultID
    /// The vault file's absolute path.
    public let path: String
    /// The master key.
    public let key: SymmetricKey
    /// Boot-clock seconds of the unlock.
    public let created: Double
    /// Boot-clock seconds of the last use.
    public var lastUsed: Double
    /// Idle timeout, seconds.
    public let idle: Double
    /// The grant id of the session it serves (`SessionToken.grantID`), or nil for the plain
    /// hold.
    public let grant: [UInt8]?

    /// True when it serves a request that carries `token` (nil: none): the plain hold serves
    /// requests without one, a grant those whose token's grant id is its own (compared in
    /// constant time).
    func serves(token: SecureBytes?) -> Bool {
      switch (grant, token) {
      case (nil, nil): true
      case (let grant?, let token?): constantTimeEqual(grant, SessionToken.grantID(of: token))
      default: false
      }
    }

    /// Boot-clock seconds at which it ends: the earlier of idle expiry and the hard limit.
    public var deadline: Double { min(lastUsed + idle, created + AgentHoldings.hardLimit) }

    /// Whole seconds left before the idle timeout and the hard limit, at `now`.
    public func left(at now: Double) -> (idle: UInt32, hard: UInt32) {
      func seconds(_ value: Double) -> UInt32 {
        UInt32(max(0, min(value, hardLimit)).rounded(.down))
      }
      return (seconds(lastUsed + idle - now), seconds(created + hardLimit - now))
    }
  }

  /// The held vaults, in the order they were unlocked.
  public private(set) var holdings: [Holding] = []

  /// No vault held.
  public init() {}

  /// True when nothing is held.
  public var isEmpty: Bool { holdings.isEmpty }

  /// Holds `key` for `vaultID` at `path` from `now`, as the plain hold or, with `grant`, as
  /// that session's grant.
  ///
  /// It replaces whatever was held for that id at another path or for another id at that path
  /// (the file there became this vault), and, as a plain hold, the plain hold; grants of the same
  /// vault at the same path stay.
  ///
  /// - Parameter idle: the idle timeout in seconds, from 1 to the hard limit (clamped).
  public mutating func hold(
    vaultID: VaultID, path: String, key: SymmetricKey, idle: Double, now: Double,
    grant: [UInt8]? = nil
  ) {
    holdings.removeAll { holding in
      let same = holding.vaultID == vaultID && holding.path == path
      return (holding.vaultID == vaultID || holding.path == path)
        && (!same || (grant == nil && holding.grant == nil))
    }
    let clamped = idle.isFinite ? max(1, min(idle, Self.hardLimit)) : 1
    holdings.append(
      Holding(
        vaultID: vaultID, path: path, key: key, created: now, lastUsed: now, idle: clamped,
        grant: grant))
  }

  /// Drops the grant of the session whose token is `token`.
  ///
  /// - Returns: how many were dropped (0 or 1).
  @discardableResult
  public mutating func forget(token: SecureBytes) -> Int {
    let before = holdings.count
    holdings.removeAll { $0.grant != nil && $0.serves(token: token) }
    return before - holdings.count
  }

  /// Drops the holds and grants of `vaultID` and those for `path`; both nil drops every plain
  /// hold (a failed match at an unlock: someone else may be at the keyboard), and leaves the
  /// grants, each of which ends by its timers or when its vault is let go.
  ///
  /// - Returns: how many were dropped.
  @discardableResult
  public mutating func forget(vaultID: VaultID?, path: String?) -> Int {
    let before = holdings.count
    holdings.removeAll { holding in
      (vaultID == nil && path == nil && holding.grant == nil) || holding.vaultID == vaultID
        || holding.path == path
    }
    return before - holdings.count
  }

  /// Drops every holding whose time is up at `now` (or whose clock went backwards past its
  /// unlock, which only a test clock does).
  public mutating func expire(now: Double) {
    holdings.removeAll { now >= $0.deadline || now < $0.created }
  }

  /// The holding for the vault file at `path` that serves `token` (nil: the plain hold) and is
  /// still within its time at `now`, or nil; with an empty `path` and a token, that token's
  /// grant whatever vault it serves.
  public mutating func current(path: String, token: SecureBytes? = nil, now: Double) -> Holding? {
    expire(now: now)
    // An empty path with a token asks for that token's grant, whatever vault it serves.
    if path.isEmpty, token != nil {
      return holdings.first { $0.grant != nil && $0.serves(token: token) }
    }
    return holdings.first { $0.path == path && $0.serves(token: token) }
  }

  /// Renews, at `now`, the idle timer of the holding for `path` that serves `token`.
  public mutating func renew(path: String, token: SecureBytes? = nil, now: Double) {
    guard let index = holdings.firstIndex(where: { $0.path == path && $0.serves(token: token) })
    else { return }
    holdings[index].lastUsed = max(holdings[index].lastUsed, now)
  }

  /// Boot-clock seconds of the next deadline, or nil when nothing is held.
  public var nextDeadline: Double? { holdings.map(\.deadline).min() }

  /// Drops every holding.
  public mutating func removeAll() { holdings.removeAll() }
}
