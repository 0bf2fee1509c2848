import VaultFormat

/// What a fresh check of guarded entries is for: one entry read, or every guarded entry of one
/// export (one check covers them all).
enum GuardedSubject: Equatable {
  /// A read of one guarded entry, for `action` (`set a field of 'x'`; nil: a read).
  case entry(EntryName, action: String?)
  /// An export that writes `count` guarded entries.
  case export(count: Int)

  /// Shown by the biometric prompt.
  var reason: String {
    switch self {
    case .entry(let name, let action): action.map { "\($0) (guarded)" } ?? "read guarded '\(name)'"
    case .export(let count): "export \(count) guarded entr\(count == 1 ? "y" : "ies")"
    }
  }

  /// The PIN that stands in for the check in a PIN-only vault.
  var pinRequest: PINRequest {
    switch self {
    case .entry(let name, _): .guardedEntry(name)
    case .export(let count): .guardedEntries(count: count)
    }
  }

  /// The PIN that stands in for the match while this vault's own failures lock the sensor.
  var lockedOutPINRequest: PINRequest {
    switch self {
    case .entry(let name, _): .lockedOutGuardedEntry(name)
    case .export(let count): .lockedOutGuardedEntries(count: count)
    }
  }
}

extension VaultAccess {
  /// A guarded entry read with a held key: a fresh biometric check (the PIN in a PIN-only
  /// vault, or while the sensor is locked out), refused within a second of the last one.
  func guardCheck(
    _ name: EntryName, _ unlocked: UnlockedVault, _ credentials: CredentialSource
  ) throws {
    guard unlocked.source.withholdsGuarded else { return }
    let clock = vault.environment.clock
    let key = vault.vaultID.hex + ":" + unlocked.entries.indexTag(name)
    let now = clock.bootNow
    if let last = try vault.device.read().lastGuardedRead[key], now >= last,
      now - last < Self.guardedReadInterval
    {
      throw VaultError.duplicateRequest
    }
    var action: String?
    if case .readEntry(_, _, let given) = unlocked.purpose { action = given }
    try freshCheck(.entry(name, action: action), unlocked, credentials)
    // Only a check that passed opens the one-second window: a refused read is no duplicate.
    try vault.device.update { $0.lastGuardedRead[key] = now }
  }

  /// Opens the entry `name` in `unlocked` (a vault opened for `.use`) as `.readEntry` opens it:
  /// a guarded entry gets its fresh check when the key was held or came by reuse, and a large
  /// one comes without its content.
  ///
  /// - Throws: `VaultError.notFound`; the guard's errors (`.duplicateRequest`, the match's and
  ///   the PIN's); through the agent, a failed match makes it let every vault go.
  public func readEntry(
    _ name: EntryName, in unlocked: UnlockedVault, via credentials: CredentialSource
  ) throws -> OpenedEntry {
    do {
      try unlocked.openEntry(name) { try guardCheck(name, unlocked, credentials) }
    } catch let thrown where unlocked.source.isHeld {
      guard let error = VaultError(thrown) else { throw thrown }
      releaseHeldKeys(after: error, credentials)
      throw error
    }
    guard let entry = unlocked.entry else { throw VaultError.notFound(name.value) }
    return entry
  }

  /// The one fresh check an export asks for the `count` guarded entries it writes, when the key
  /// came from a session, the agent or a success by reuse (a key from the PIN and its match, in
  /// this command, needs none): a biometric match, or the PIN in a PIN-only vault or during a
  /// lockout of this vault's own, asked once whatever their number.
  ///
  /// - Throws: the errors of a guarded read's check (`.biometricNotRecognised`,
  ///   `.biometricCancelled`, `.biometricNotInteractive`, the lockouts, `.enrollmentChanged`,
  ///   the PIN's); through the agent, a failed match makes it let every vault go.
  public func checkGuardedExport(
    _ unlocked: UnlockedVault, count: Int, via credentials: CredentialSource
  ) throws {
    guard unlocked.source.withholdsGuarded, count > 0 else { return }
    do {
      try freshCheck(.export(count: count), unlocked, credentials)
    } catch let thrown where unlocked.source.isHeld {
      guard let error = VaultError(thrown) else { throw thrown }
      releaseHeldKeys(after: error, credentials)
      throw error
    }
  }

  /// A guarded check through the agent that found a finger or face that does not match, a
  /// lockout or a changed enrollment: the agent lets every vault go (someone else may be at the
  /// keys).
  func releaseHeldKeys(after error: VaultError, _ credentials: CredentialSource) {
    switch error {
    case .biometricNotRecognised, .biometricLockout, .biometricLockoutNeedsRecovery,
      .enrollmentChanged, .biometryDisabled:
      credentials.heldKeyRejected(everything: true)
    default: break
    }
  }

  private func freshCheck(
    _ subject: GuardedSubject, _ unlocked: UnlockedVault, _ credentials: CredentialSource
  ) throws {
    guard vault.policy.requiresBiometry else {
      _ = try pinAlone(subject.pinRequest, credentials)
      return
    }
    try checkBiometryBeforePIN(vault.device.read())
    do {
      try binding.checkPresence(masterKey: unlocked.masterKey, reason: subject.reason)
    } catch VaultError.biometricLockout {
      // As `.deviceOwnerAuthentication`: the device credential stands in and clears the lockout,
      // but only for a lockout this vault's own failed matches made, every one of the run that
      // locked the sensor. The sensor's lockout is the device's: failures in a vault of one's
      // own, or a forced lockout, must not buy guarded reads of this one.
      let strikes = try vault.device.read().biometricStrikes[vault.vaultID.hex]
      guard try strikes?.madeLockout(gate.failureRun()) == true else {
        throw VaultError.biometricLockoutElsewhere
      }
      // The lockout is what stops the read, not a missing terminal: said as such.
      guard credentials.canAskForPIN else { throw VaultError.biometricLockoutPINNotAskable }
      _ = try pinAlone(subject.lockedOutPINRequest, credentials)
      try gate.credentialVerified()
    }
  }
}
