import VaultCrypto
import VaultFormat

/// The master keys an unlock agent holds, one per vault id, with their timers.
///
/// Times are seconds of the boot clock (`CLOCK_BOOTTIME`, which counts suspend), so a changed
/// wall clock changes nothing. A key is dropped (its guarded memory freed, which wipes it) at
/// its idle timeout, renewed by every use, at the hard limit from its unlock, and when it is
/// forgotten.
public struct AgentHoldings {
  /// The hard limit of every hold: 8 hours from its unlock, as a session's.
  public static let hardLimit = SessionStore.hardLimit

  /// One held vault.
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

  /// Holds `key` for `vaultID` at `path` from `now`: replaces whatever was held for that id or
  /// that path (the file there became this vault).
  ///
  /// - Parameter idle: the idle timeout in seconds, from 1 to the hard limit (clamped).
  public mutating func hold(
    vaultID: VaultID, path: String, key: SymmetricKey, idle: Double, now: Double
  ) {
    forget(vaultID: vaultID, path: path)
    let clamped = idle.isFinite ? max(1, min(idle, Self.hardLimit)) : 1
    holdings.append(
      Holding(vaultID: vaultID, path: path, key: key, created: now, lastUsed: now, idle: clamped))
  }

  /// Drops the holding of `vaultID` and the one for `path`; both nil drops every holding.
  ///
  /// - Returns: how many were dropped.
  @discardableResult
  public mutating func forget(vaultID: VaultID?, path: String?) -> Int {
    let before = holdings.count
    holdings.removeAll { holding in
      (vaultID == nil && path == nil) || holding.vaultID == vaultID || holding.path == path
    }
    return before - holdings.count
  }

  /// Drops every holding whose time is up at `now` (or whose clock went backwards past its
  /// unlock, which only a test clock does).
  public mutating func expire(now: Double) {
    holdings.removeAll { now >= $0.deadline || now < $0.created }
  }

  /// The holding for the vault file at `path` that is still within its time at `now`, or nil.
  public mutating func current(path: String, now: Double) -> Holding? {
    expire(now: now)
    return holdings.first { $0.path == path }
  }

  /// Renews the idle timer of the holding for `path` at `now`.
  public mutating func renew(path: String, now: Double) {
    guard let index = holdings.firstIndex(where: { $0.path == path }) else { return }
    holdings[index].lastUsed = max(holdings[index].lastUsed, now)
  }

  /// Boot-clock seconds of the next deadline, or nil when nothing is held.
  public var nextDeadline: Double? { holdings.map(\.deadline).min() }

  /// Drops every holding.
  public mutating func removeAll() { holdings.removeAll() }
}
