import VaultAgent
import VaultCrypto
import VaultFormat

/// The one place that decides who gets a vault's master key, and how (`biometry.md` section 8).
///
/// A command says what it wants (`AccessPurpose`); the command line supplies a
/// `CredentialSource`; `open` runs every check that needs no key before asking for anything
/// (biometry not activated or disabled, nothing enrolled, an unusable sensor, a PIN bound to
/// another device or edited keyslots, a PIN delay), then asks for exactly what the purpose and
/// the policy need: a session, or the PIN and then a biometric match against the sealed domain
/// state, or the recovery code. A guarded entry read in a session gets its fresh check here too.
public struct VaultAccess {
  /// Requests closer together than this (seconds) for one guarded entry are refused.
  public static let guardedReadInterval = 1.0

  /// The vault being opened.
  public let vault: Vault
  /// The sensor, shaped like `LAContext`.
  public let gate: BiometricGate

  /// Access to `vault` over `gate`.
  public init(vault: Vault, gate: BiometricGate) {
    self.vault = vault
    self.gate = gate
  }

  var binding: BiometricBinding { BiometricBinding(vault: vault, gate: gate) }
  private var sessions: SessionLedger { SessionLedger(environment: vault.environment) }

  /// The vault's biometric state without its key: the header's record, overridden by a disable
  /// this device found before the header could record it.
  public static func biometryStatus(of vault: Vault, device: DeviceState) -> BiometryStatus {
    guard vault.policy.requiresBiometry else { return .off }
    let biometry = vault.header.device(for: device.deviceSecret)?.biometry
    if biometry?.state == .active, let pending = device.pendingDisables[vault.vaultID.hex] {
      return .disabled(since: pending.at, reason: pending.reason)
    }
    guard let record = biometry else { return .notActivated }
    switch record.state {
    case .active: return .active(since: record.changedAt)
    case .disabled: return .disabled(since: record.changedAt, reason: record.reason ?? "unknown")
    }
  }

  /// Opens the vault for `purpose` with credentials from `credentials`.
  ///
  /// - Throws: the refusals that need no key first (`.biometryNotActivated`,
  ///   `.biometryDisabled`, `.enrollmentChanged` for an emptied enrollment, `.biometryUnavailable`,
  ///   `.notEnrolled` before an activation, `.otherDevice`, `.integrity` for edited keyslots,
  ///   `.pinDelay`); `.locked` when a session is needed and none is valid and there is no way to
  ///   ask; then the errors of the credential asked for (`.wrongPIN`, `.wrongRecoveryCode`…) and
  ///   of the biometric check (`.enrollmentChanged` after disabling, `.biometricNotRecognised`,
  ///   `.cancelled`, `.biometricLockout`, `.biometricNotInteractive`); for `.readEntry`,
  ///   `.notFound` and the guard's `.duplicateRequest`.
  public func open(for purpose: AccessPurpose, via credentials: CredentialSource) throws
    -> UnlockedVault
  {
    let unlocked: UnlockedVault
    switch purpose {
    case .use(let reason):
      unlocked = try fromSessionOrPIN(purpose, reason: reason, credentials)
    case .readEntry(let name, let revision, let action):
      unlocked = try fromSessionOrPIN(purpose, reason: action ?? "read '\(name)'", credentials)
      credentials.keyReleased(unlocked)
      do {
        try unlocked.openEntry(name, revision: revision) {
          try guardCheck(name, unlocked, credentials)
        }
      } catch let thrown where unlocked.source.isHeld {
        guard let error = VaultError(thrown) else { throw thrown }
        releaseHeldKeys(after: error, credentials)
        throw error
      }
    case .startSession:
      unlocked = try withPIN(purpose, reason: "unlock the vault", request: .unlock, credentials)
    case .administer(let reason):
      unlocked = try withPIN(purpose, reason: reason, request: .current, credentials)
    case .acceptOlderState:
      unlocked = try withPIN(
        purpose, reason: "accept an older copy of the vault", request: .unlock, credentials)
    case .activateBiometry:
      unlocked = try forActivation(credentials)
    case .recover:
      let code = try credentials.recoveryCode()
      let key = try vault.unlock(recoveryCode: code)
      // The recovery code is the strongest credential: it ends the vault's own lockout and the
      // sensor's.
      try vault.device.update { $0.biometricStrikes[vault.vaultID.hex] = nil }
      try gate.credentialVerified()
      unlocked = try UnlockedVault(
        vault: vault, gate: gate, masterKey: key, source: .recoveryCode, purpose: purpose)
    }
    try settle(unlocked)
    return unlocked
  }

  /// Opens a format-1 vault for `purpose`: the PIN (or for `.recover` the recovery code) is
  /// checked against its format-1 keyslot, the vault is migrated to format 2 in place, and the
  /// rest of the purpose's checks (the biometric match, a guarded entry's check) run on the
  /// migrated vault.
  ///
  /// - Throws: `VaultError.formatOneNeedsUnlock` when no PIN can be asked for (a session alone
  ///   cannot migrate); the errors of the PIN or recovery check and of `open`; the migration's.
  ///
  /// - Parameter migrated: called once the migration has committed, before the checks that
  ///   follow it (which may still refuse the command).
  public static func openMigrating(
    _ old: FormatOneVault, gate: BiometricGate, for purpose: AccessPurpose,
    via credentials: CredentialSource, migrated announce: () -> Void
  ) throws -> UnlockedVault {
    let migrated: Vault
    let key: SymmetricKey
    let source: KeySource
    if purpose == .recover {
      key = try old.unlock(recoveryCode: credentials.recoveryCode())
      migrated = try FormatOneMigration.migrate(old, masterKey: key, slot: nil)
      announce()
      source = .recoveryCode
    } else {
      guard credentials.canAskForPIN else { throw VaultError.formatOneNeedsUnlock }
      _ = try old.checkBeforePIN(old.device.read())
      var request = PINRequest.unlock
      if case .administer = purpose { request = .current }
      let result = try old.unlock(pin: credentials.pin(request))
      try gate.credentialVerified()
      migrated = try FormatOneMigration.migrate(
        old, masterKey: result.masterKey,
        slot: FormatOneMigration.Slot(salt: result.salt, kek: result.kek))
      announce()
      key = result.masterKey
      source = .pin
    }
    let access = VaultAccess(vault: migrated, gate: gate)
    if source == .pin, migrated.policy.requiresBiometry, purpose != .activateBiometry {
      try access.binding.checkPresence(masterKey: key, reason: "unlock the vault")
    }
    let unlocked = try UnlockedVault(
      vault: migrated, gate: gate, masterKey: key, source: source, purpose: purpose)
    if case .readEntry(let name, let revision, _) = purpose {
      try unlocked.openEntry(name, revision: revision) {
        try access.guardCheck(name, unlocked, credentials)
      }
    }
    try access.settle(unlocked)
    return unlocked
  }

  /// What follows every key release: a disable found without the key is written into the
  /// header, and journal entries written without the key are folded into the state (not in a
  /// session: reading with a session never writes).
  private func settle(_ unlocked: UnlockedVault) throws {
    try recordPendingDisable(unlocked)
    if !unlocked.source.isHeld {
      try vault.refreshOwnRecord(masterKey: unlocked.masterKey)
      try unlocked.journal().fold()
    }
  }

  /// An `UnlockedVault` for a vault `Vault.create` just made: the PIN was just set, so it may
  /// activate biometric unlock in the same command.
  public func created(_ created: Vault.Created) throws -> UnlockedVault {
    try UnlockedVault(
      vault: created.vault, gate: gate, masterKey: created.masterKey, source: .pin,
      purpose: .activateBiometry)
  }

  // MARK: - Steps

  private func fromSessionOrPIN(
    _ purpose: AccessPurpose, reason: String, _ credentials: CredentialSource
  ) throws -> UnlockedVault {
    if let held = credentials.heldKey {
      return try fromAgent(held, purpose, credentials)
    }
    // A session's grant serves a command through the agent's worker (`heldKey` above): here,
    // a token given means the agent did not serve it.
    let sessionProblem = credentials.sessionToken.flatMap { $0.isEmpty ? nil : sessionEnded($0) }
    guard credentials.canAskForPIN else {
      // A session given and no longer valid is what the command lacks, and is said first (exit
      // 10, biometry.md section 8, scenario 14). Without one, every refusal that needs no key
      // comes before "no terminal" (review of 0.11.0, item 20): a terminal would not help.
      if let sessionProblem { throw sessionProblem }
      try refuseBeforeAsking(vault.device.read())
      if let reason = sessions.revocation(of: vault.vaultID) {
        throw VaultError.locked(.sessionsRevoked(reason, noTerminal: true))
      }
      throw VaultError.locked(.noSessionNoTerminal)
    }
    return try withPIN(purpose, reason: reason, request: .unlock, credentials)
  }

  /// Why the session of `token` did not serve the command: a token of an older release (whose
  /// session files are then removed), a malformed one, or a grant the agent no longer holds (its
  /// time ran out, the vault was let go, the agent ended), with the recorded reason when every
  /// session of the vault was ended for one.
  private func sessionEnded(_ token: String) -> VaultError {
    switch SessionToken.parse(token) {
    case .olderRelease:
      sessions.removeOlderReleaseSessions()
      return .locked(.sessionFromOlderRelease)
    case .malformed:
      return .locked(.malformedSessionToken)
    case .token(let parsed):
      if let reason = sessions.revocation(of: vault.vaultID) {
        return .locked(.sessionsRevoked(reason, noTerminal: false))
      }
      if let grant = AgentClient(environment: vault.environment).grantStatus(token: parsed),
        grant.vaultID != vault.vaultID
      {
        return .locked(.sessionOfAnotherVault)
      }
      return .locked(.sessionEnded)
    }
  }

  /// The agent's key (its plain hold's or a session's grant's), checked.
  ///
  /// The vault id it was released for, the header's MAC, the biometric binding, the state: any
  /// of them failing makes the agent let it go.
  private func fromAgent(
    _ held: HeldKey, _ purpose: AccessPurpose, _ credentials: CredentialSource
  ) throws -> UnlockedVault {
    do {
      guard held.vaultID == vault.vaultID else {
        // The key still verifies the newest state under the id it was unlocked for: this is
        // that vault, its header's id edited. Otherwise another vault took the file's place.
        if vault.stateVerifies(masterKey: held.key, vaultID: held.vaultID) {
          throw VaultError.integrity(.session(.vaultIDChanged))
        }
        throw VaultError.locked(.agentVaultReplaced(path: vault.path))
      }
      do {
        try vault.verifyHeader(masterKey: held.key)
      } catch let error
        where VaultError(error)?.isIntegrityFailure == true
        && (try? vault.device.read()).map(vault.headerIsAuthenticatedHere) == true
        && !vault.isCurrentKey(held.key)
      {
        throw VaultError.locked(.agentKeyRotated)
      }
      if vault.policy.requiresBiometry {
        try binding.checkSession(masterKey: held.key)
      }
      return try UnlockedVault(
        vault: vault, gate: gate, masterKey: held.key,
        source: held.isGrant ? .session : .agent, purpose: purpose)
    } catch let thrown {
      guard let error = VaultError(thrown) else { throw thrown }
      switch error {
      case .enrollmentChanged:
        credentials.heldKeyRejected(everything: true)
      case .locked, .integrity, .malformedHeader, .staleState,
        .vaultChanged, .biometryDisabled,
        .biometryNotActivated:
        credentials.heldKeyRejected(everything: false)
      default: break
      }
      throw error
    }
  }

  /// The PIN, then the match the policy requires; every check that needs no key comes first.
  private func withPIN(
    _ purpose: AccessPurpose, reason: String, request: PINRequest,
    _ credentials: CredentialSource
  ) throws -> UnlockedVault {
    try refuseBeforeAsking(vault.device.read())
    let key = try unlockAskingAgain(request, credentials)
    try gate.credentialVerified()
    var reused = false
    if vault.policy.requiresBiometry {
      reused = try binding.checkPresence(
        masterKey: key, reason: reason, reuse: try reuseWindow(purpose, masterKey: key))
    }
    return try UnlockedVault(
      vault: vault, gate: gate, masterKey: key, source: reused ? .pinByReuse : .pin,
      purpose: purpose)
  }

  /// Every refusal that needs no key, before the PIN is asked for: the vault's lockout rule,
  /// biometry not activated or disabled, an unusable sensor or an emptied enrollment (disabled
  /// there), a PIN bound to another device, edited keyslots, a PIN delay.
  private func refuseBeforeAsking(_ device: DeviceState) throws {
    if vault.policy.requiresBiometry { try checkBiometryBeforePIN(device) }
    _ = try vault.checkBeforePIN(device)
  }

  /// The reuse window an unlock allows (the `biometric_reuse_seconds` setting); 0 for every other
  /// purpose: a guarded read, an activation and an administrative change always ask for a match.
  private func reuseWindow(_ purpose: AccessPurpose, masterKey: SymmetricKey) throws -> Double {
    switch purpose {
    case .startSession, .use:
      let settings = try EntryStore(vault: vault, masterKey: masterKey).settings()
      return Double(settings.value(VaultSettings.biometricReuse))
    default:
      return 0
    }
  }

  /// The PIN before an activation: the sensor must be able to evaluate (a lockout is cleared by
  /// the PIN), and no match is asked here; `UnlockedVault.activateBiometry` asks for it.
  private func forActivation(_ credentials: CredentialSource) throws -> UnlockedVault {
    let device = try vault.device.read()
    try binding.checkStrikes(device)
    try preflight(allowLockout: true)
    _ = try vault.checkBeforePIN(device)
    let key = try unlockAskingAgain(.unlock, credentials)
    try gate.credentialVerified()
    return try UnlockedVault(
      vault: vault, gate: gate, masterKey: key, source: .pin, purpose: .activateBiometry)
  }

  /// Refuses before any prompt what the vault and the sensor already tell: only when the header
  /// is one this device authenticated (an edited header goes on to the PIN, whose check of the
  /// header MAC reports the edit as an integrity failure).
  func checkBiometryBeforePIN(_ device: DeviceState) throws {
    try binding.checkStrikes(device)
    guard vault.headerIsAuthenticatedHere(device) else { return }
    switch Self.biometryStatus(of: vault, device: device) {
    case .off: return
    case .notActivated: throw VaultError.biometryNotActivated
    case .disabled(let since, let reason):
      throw VaultError.biometryDisabled(since: since, reason: reason)
    case .active:
      do {
        try preflight(allowLockout: true)
      } catch VaultError.notEnrolled {
        // The sealed enrollment is gone: nothing can ever match it again.
        try binding.disableWithoutKey(reason: binding.emptiedReason(device))
      }
    }
  }

  private func preflight(allowLockout: Bool) throws {
    do {
      try gate.preflight()
    } catch BiometricFailure.lockout where allowLockout {
      // The PIN, the device credential, clears it.
    } catch let failure as BiometricFailure {
      throw BiometricBinding.map(failure)
    }
  }

  /// The PIN with its checks and nothing else.
  func pinAlone(_ request: PINRequest, _ credentials: CredentialSource) throws
    -> SymmetricKey
  {
    _ = try vault.checkBeforePIN(vault.device.read())
    return try unlockAskingAgain(request, credentials)
  }

  /// The PIN asked for and checked, and asked again after a wrong one.
  ///
  /// Up to `credentials.pinTries` in all. Each wrong one is counted by the attempt limiter as ever;
  /// one that starts a delay (`.wrongPINDelayed`) ends the command, as does a delay in force.
  ///
  /// - Throws: the last attempt's error; `.wrongPINDelayed`, `.pinDelay` at once.
  private func unlockAskingAgain(_ request: PINRequest, _ credentials: CredentialSource) throws
    -> SymmetricKey
  {
    var tries = 0
    while true {
      tries += 1
      do {
        return try vault.unlock(pin: credentials.pin(request))
      } catch let thrown {
        guard let error = VaultError(thrown) else { throw thrown }
        guard case .wrongPIN = error, tries < credentials.pinTries else { throw error }
        credentials.pinRejected(error)
      }
    }
  }

  /// A disable this device found without a key is written into the header once a key is here.
  private func recordPendingDisable(_ unlocked: UnlockedVault) throws {
    guard !unlocked.source.isHeld, vault.biometry?.state == .active,
      let pending = try vault.device.read().pendingDisables[vault.vaultID.hex],
      unlocked.purpose != .activateBiometry
    else { return }
    try binding.markDisabled(
      masterKey: unlocked.masterKey, reason: pending.reason, at: pending.at)
  }
}
