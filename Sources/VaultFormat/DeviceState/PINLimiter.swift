import Dispatch
import FoundationEssentials
import Glibc
import VaultCrypto

/// Counts consecutive wrong PINs in the device-side store and enforces Apple's delay schedule.
///
/// A check is counted as a failure *before* the KDF runs (`begin`) and only un-counted when it
/// succeeds or turns out to repeat the previous wrong PIN, so killing the process mid-check still
/// counts. After the 5th wrong PIN the next check waits 1 min, then 5 min, 15 min, 15 min, 1 h.
/// Setting the wall clock back never shortens a delay.
public struct PINLimiter: Sendable {
  /// Wrong PINs allowed before the first delay.
  public static let freeAttempts = 5
  /// Delays in seconds after the 5th, 6th, 7th, 8th and every later wrong PIN.
  public static let delays: [Double] = [60, 300, 900, 900, 3600]
  /// Seconds after the delay a wrong PIN started during which typing it again counts once.
  public static let repeatWindow: Double = 120
  /// The longest a repeat tag stays live, seconds: the longest delay plus `repeatWindow`.
  public static let repeatTagLifetime: Double = (delays.max() ?? 0) + repeatWindow

  let store: DeviceStore
  let vaultKey: String
  let clock: Clock

  /// A limiter for the vault with this id.
  public init(store: DeviceStore, vaultID: VaultID, clock: Clock) {
    self.store = store
    self.vaultKey = vaultID.hex
    self.clock = clock
  }

  /// Seconds to wait after `failures` consecutive wrong PINs (0 below five).
  public static func delay(afterFailures failures: Int) -> Double {
    failures < freeAttempts ? 0 : delays[min(failures - freeAttempts, delays.count - 1)]
  }

  static func remaining(_ record: PINAttempts, now: Double) -> Int {
    guard record.failures >= freeAttempts, let last = record.lastAttemptAt else { return 0 }
    let until = last + delay(afterFailures: record.failures)
    let effectiveNow = max(now, last)
    return effectiveNow < until ? Int((until - effectiveNow).rounded(.up)) : 0
  }

  /// Seconds until the next PIN check is allowed (0 when none), for `status` and the refusals
  /// before a PIN is asked for: from the checks resolved, not those still in flight (which
  /// `begin` waits for).
  public func currentDelay(_ state: DeviceState) -> Int {
    var record = state.pinAttempts[vaultKey] ?? PINAttempts()
    let now = clock.wallNow
    record.failures -=
      (record.inFlight ?? []).filter {
        now - $0 < Self.inFlightWindow && $0 <= now
      }.count
    return Self.remaining(record, now: now)
  }

  /// Consecutive wrong PINs so far.
  public func failures(_ state: DeviceState) -> Int {
    state.pinAttempts[vaultKey]?.failures ?? 0
  }

  /// Seconds a check begun counts as still in progress (its KDF running); one older was killed.
  public static let inFlightWindow: Double = 60
  /// Longest a check waits for other checks in progress, seconds of real time.
  public static let inFlightWait: Double = 70

  /// Refuses while a delay runs; otherwise counts this check as a failure until it is resolved.
  ///
  /// A delay that only checks still in progress would start (several commands given the PIN at
  /// once) is waited out until they resolve, at most `inFlightWait` seconds, instead of refusing:
  /// no more checks run at once than the count allows, and a correct PIN among them lets the
  /// others go on.
  ///
  /// - Returns: this check's start time, for `failed(tag:began:)`.
  /// - Throws: `VaultError.pinDelay` with the seconds left.
  @discardableResult
  public func begin() throws -> Double {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.inFlightWait * 1e9)
    while true {
      let now = clock.wallNow
      let (wait, inProgress): (Int, Bool) = try store.update { state in
        var record = state.pinAttempts[vaultKey] ?? PINAttempts()
        // A check begun too long ago was killed: it stays counted, no longer in progress.
        let live = (record.inFlight ?? []).filter { now - $0 < Self.inFlightWindow && $0 <= now }
        record.inFlight = live.isEmpty ? nil : live
        var wait = Self.remaining(record, now: now)
        if wait == 0 && live.count >= PINAttempts.maximumInFlight { wait = 1 }
        if wait > 0 {
          var resolved = record
          resolved.failures -= live.count
          state.pinAttempts[vaultKey] = record
          return (wait, !live.isEmpty && Self.remaining(resolved, now: now) == 0)
        }
        record.failures += 1
        record.previousAttemptAt = record.lastAttemptAt
        record.lastAttemptAt = now
        record.inFlight = live + [now]
        state.pinAttempts[vaultKey] = record
        return (0, false)
      }
      if wait == 0 { return now }
      guard inProgress, DispatchTime.now().uptimeNanoseconds < deadline else {
        throw VaultError.pinDelay(seconds: wait)
      }
      usleep(50_000)
    }
  }

  /// A correct PIN: the count goes back to zero, in one transaction with `also`.
  public func succeeded(also: (inout DeviceState) -> Void = { _ in }) throws {
    try store.update { state in
      state.pinAttempts[vaultKey] = nil
      also(&state)
    }
  }

  /// A wrong PIN.
  ///
  /// `began` is the start time `begin` returned (its check is no longer in progress). `tag` (32
  /// bytes, a keyed hash of its KEK) identifies it so that a repeat counts once while
  /// the previous wrong PIN's tag is live; a new tag lives until the end of the delay this failure
  /// started plus `repeatWindow` (wall clock).
  ///
  /// - Returns: the error to report: `wrongPIN` with the attempts left before a delay, or
  ///   `wrongPINDelayed` with the delay this failure started.
  /// - Throws: the store's `VaultError.integrity` or `.storage`.
  public func failed(tag: [UInt8], began: Double? = nil) throws -> VaultError {
    let encoded = Data(tag).base64EncodedString()
    let now = clock.wallNow
    let failures: Int = try store.update { state in
      var record = state.pinAttempts[vaultKey] ?? PINAttempts()
      if let began, let index = record.inFlight?.firstIndex(of: began) {
        record.inFlight?.remove(at: index)
        if record.inFlight?.isEmpty == true { record.inFlight = nil }
      }
      if record.hasLiveTag(at: now), let last = record.lastWrongTag,
        constantTimeEqual(Array(last.utf8), Array(encoded.utf8))
      {
        record.failures = max(0, record.failures - 1)
        record.lastAttemptAt = record.previousAttemptAt ?? record.lastAttemptAt
      } else {
        let start = record.lastAttemptAt ?? now
        record.lastWrongTag = encoded
        record.lastWrongTagUntil = min(
          start + Self.delay(afterFailures: record.failures) + Self.repeatWindow,
          PINAttempts.maximumTime)
      }
      state.pinAttempts[vaultKey] = record
      return record.failures
    }
    let left = Self.freeAttempts - failures
    if left > 0 { return .wrongPIN(attemptsBeforeDelay: left) }
    return .wrongPINDelayed(seconds: Int(Self.delay(afterFailures: failures)))
  }
}
