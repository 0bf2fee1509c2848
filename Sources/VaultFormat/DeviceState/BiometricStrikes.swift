import VaultCrypto

/// The vault's own lockout rule, on top of the sensor's (biometry.md §8 and `vault(1)`
/// SECURITY): the failed matches of one vault's evaluations on this device, whatever cleared the
/// sensor's count in between.
///
/// The sensor follows the platform: a verified device credential (the vault PIN) clears its
/// count and its lockout. Since the PIN is half of the vault's secret, someone who knows it could
/// otherwise try fingers or faces without end; so each vault also counts its failed matches, and
/// `limit` of them within `window` seconds (three lockouts' worth) make biometric checks of that
/// vault need the recovery code (`vault recover`), which the PIN no longer replaces. A match
/// in this vault starts the count over. The record lives in the device state, written in the
/// same locked write as the sensor's count; restoring an old copy of that file resets it.
public struct BiometricStrikes: Encodable, Equatable, Sendable {
  /// Failed matches that require the recovery code: 15, three lockouts of five.
  public static let limit = 15
  /// The window they are counted in: 24 hours, in seconds.
  public static let window = 86_400.0

  /// Wall-clock times (seconds since the epoch) of the failed matches since the last match,
  /// within `window`.
  public var failures: [Double] = []
  /// When `limit` was reached (wall clock); nil until then.
  ///
  /// Cleared only by the recovery code.
  public var recoveryRequiredSince: Double?
  /// The sensor's failure run at this vault's last failed match, with how many of its failures
  /// were this vault's own in a row from the run's first (0 once any was not); nil after a
  /// match, or in a record from before release 0.12.0.
  public var ownRun: FailureRun?

  /// An empty record.
  public init() {}

  enum CodingKeys: String, CodingKey {
    case failures
    case recoveryRequiredSince = "recovery_required_since"
    case ownRun = "own_run"
  }

  /// True when this vault's own failed matches, and nothing else, make up the sensor's `current`
  /// run.
  ///
  /// Every failure in it, from the first, was one of this vault's prompts (a forced lockout or
  /// another vault's failure starts or spoils the run). Then the PIN may stand in for a guarded
  /// read's match during the lockout that run made.
  public func madeLockout(_ current: FailureRun) -> Bool {
    current.failures > 0 && ownRun == current
  }

  /// The time the window ends at: `now`, or the latest failure when the clock was set back
  /// before it (a failure is never dropped for being later than the clock).
  private func reference(_ now: Double) -> Double { max(now, failures.max() ?? now) }

  /// The failed matches within `window` of wall-clock `now` (or of the latest failure, when
  /// the clock is before it).
  public func recent(at now: Double) -> Int {
    let end = reference(now)
    return failures.filter { end - $0 < Self.window }.count
  }

  /// Counts one attempt's `verdict` at wall-clock `now`, the time of that attempt.
  ///
  /// A failure is kept whatever the times of the others (an older prompt answered late, a clock
  /// set back): only failures more than `window` before the latest time known leave the count.
  /// A match starts the count over, unless the rule already requires the recovery code. `run`
  /// is the sensor's failure run after the attempt.
  public mutating func count(_ verdict: AttemptVerdict, at now: Double, run: FailureRun) {
    switch verdict {
    case .matched:
      ownRun = nil
      if recoveryRequiredSince == nil { failures = [] }
    case .failed:
      // Own in a row when this failure opened the run or the one before it in the run was too.
      let unbroken =
        run.failures == 1 || (ownRun?.run == run.run && ownRun?.failures == run.failures - 1)
      ownRun = FailureRun(run: run.run, failures: unbroken ? run.failures : 0)
      let end = reference(now)
      failures = (failures.filter { end - $0 < Self.window } + [now]).sorted()
        .suffix(1000)
      if failures.count >= Self.limit, recoveryRequiredSince == nil {
        recoveryRequiredSince = now
      }
    }
  }
}

extension DeviceState {
  /// Counts one attempt of vault `vaultID`'s evaluation, at wall-clock `now`.
  public mutating func countAttempt(
    _ verdict: AttemptVerdict, vaultID: VaultID, at now: Double, run: FailureRun
  ) {
    var record = biometricStrikes[vaultID.hex] ?? BiometricStrikes()
    record.count(verdict, at: now, run: run)
    biometricStrikes[vaultID.hex] =
      record.failures.isEmpty && record.recoveryRequiredSince == nil && record.ownRun == nil
      ? nil : record
  }
}

/// What the device state keeps of a vault's seal on this device, so that `vault status` can
/// tell, without the key, whether it still holds.
public struct SealedDomainRecord: Encodable, Equatable, Sendable {
  /// `SealedDomainDigest.of` the sealed domain state, base64.
  public var digest: String
  /// True when the seal is bound to the device passcode (its keychain item must exist).
  public var passcodeBound: Bool

  /// A record.
  public init(digest: String, passcodeBound: Bool) {
    self.digest = digest
    self.passcodeBound = passcodeBound
  }

  enum CodingKeys: String, CodingKey {
    case digest
    case passcodeBound = "passcode_bound"
  }
}

/// The device state's digest of the domain state a vault sealed here.
///
/// Keyed BLAKE2b-256 (`crypto_generichash`, RFC 7693) with the device secret over
/// `"vault.sealed-domain.v1" || vault id || domain state`. It tells `vault status` whether the
/// sensor's domain state still matches the seal, without the master key.
public enum SealedDomainDigest {
  /// The digest, base64.
  public static func of(_ domainState: [UInt8], vaultID: VaultID, deviceSecret: DeviceSecret)
    -> String
  {
    let digest = GenericHash.keyed(
      key: deviceSecret.bytes, parts: [DomainLabel.sealedDomain.bytes, vaultID.bytes, domainState],
      outputLength: 32)
    return digest.base64
  }
}
