import FoundationEssentials
import Glibc
import VaultAgent
import VaultCrypto
import VaultFormat

/// The biometric half of the vault's rules (`biometry.md` section 8): the sealed domain state,
/// a fresh evaluation compared with it in constant time, disabling on a mismatch (with every
/// session revoked), activation and deactivation.
///
/// Used by `VaultAccess` and `UnlockedVault`, which decide when each step runs.
struct BiometricBinding {
  let vault: Vault
  let gate: BiometricGate

  private var sessions: SessionLedger { SessionLedger(environment: vault.environment) }

  /// This device's record in the header.
  ///
  /// - Throws: `VaultError.otherDevice` when it has none.
  private func localDevice() throws -> DeviceRecord {
    guard let device = vault.localDevice else { throw VaultError.otherDevice }
    return device
  }

  /// The keychain item an activation on this device stores, bound to the device passcode.
  var passcodeItem: String { "vault:" + vault.vaultID.hex }

  /// A fresh biometrics-only evaluation whose domain state must equal the sealed one.
  ///
  /// - Parameter reuse: The reuse window in seconds (0 for every check but an unlock's): a
  ///   success by reuse witnessed no match, so the domain state compared is the one the
  ///   context's preflight reported.
  /// - Throws: `.biometryNotActivated`, `.biometryDisabled`; `.enrollmentChanged` after
  ///   disabling on a mismatch, an emptied enrollment, a changed type or a removed passcode;
  ///   `.biometricLockoutNeedsRecovery` when this failure reached the vault's lockout rule (every
  ///   session revoked); `.integrity` when the seal does not open or is malformed; the mapped
  ///   `BiometricFailure` otherwise.
  /// - Returns: true when the success was by reuse of a recent device unlock (no match was
  ///   witnessed), which releases no guarded entry.
  @discardableResult
  func checkPresence(masterKey: SymmetricKey, reason: String, reuse: Double = 0) throws -> Bool {
    let seal = try activeSeal(masterKey: masterKey)
    try checkPasscodeItem(seal, masterKey: masterKey)
    let match: BiometricMatch
    do {
      match = try evaluate(reason: reason, reuse: reuse)
    } catch BiometricFailure.notEnrolled {
      try disable(masterKey: masterKey, reason: Self.emptied)
    } catch let failure as BiometricFailure {
      throw Self.map(failure)
    }
    guard match.type == seal.type else {
      try disable(
        masterKey: masterKey, reason: "the biometry type changed from \(seal.type) to \(match.type)"
      )
    }
    let sealed = try [UInt8](base64: seal.domainState, count: 32, field: "sealed domain state")
    guard constantTimeEqual(sealed, match.domainState) else {
      try disable(masterKey: masterKey, reason: "the biometric enrollment changed")
    }
    try rememberSealedDomain(sealed, passcodeBound: seal.passcodeBound == true)
    return match.reused
  }

  /// The gate's evaluation, each attempt counted for the vault's lockout rule in the sensor's own
  /// write.
  ///
  /// - Throws: `.biometricLockoutNeedsRecovery` (every session revoked) when a failure reached
  ///   the rule; the gate's `BiometricFailure` otherwise.
  private func evaluate(reason: String, reuse: Double) throws -> BiometricMatch {
    let vaultID = vault.vaultID
    let clock = vault.environment.clock
    do {
      // Each attempt is counted at its own time, in the locked write that records it.
      let match = try gate.evaluate(reason: reason, reuse: reuse) { state, verdict, run in
        state.countAttempt(verdict, vaultID: vaultID, at: clock.wallNow, run: run)
      }
      // A failure of this prompt (or another command's, meanwhile) that reached the rule: a
      // later match of the same prompt releases nothing.
      if let strikes = try vault.device.read().biometricStrikes[vaultID.hex],
        strikes.recoveryRequiredSince != nil
      {
        sessions.revokeAll(vaultID: vaultID, reason: .biometricChange)
        throw VaultError.biometricLockoutNeedsRecovery(failures: strikes.failures.count)
      }
      return match
    } catch let failure as BiometricFailure {
      if failure == .notRecognised || failure == .lockout,
        let strikes = try vault.device.read().biometricStrikes[vaultID.hex],
        strikes.recoveryRequiredSince != nil
      {
        sessions.revokeAll(vaultID: vaultID, reason: .biometricChange)
        throw VaultError.biometricLockoutNeedsRecovery(failures: strikes.failures.count)
      }
      throw failure
    }
  }

  /// Refuses before any prompt when the vault's lockout rule requires the recovery code.
  ///
  /// - Throws: `.biometricLockoutNeedsRecovery`.
  func checkStrikes(_ device: DeviceState) throws {
    if let strikes = device.biometricStrikes[vault.vaultID.hex],
      strikes.recoveryRequiredSince != nil
    {
      throw VaultError.biometricLockoutNeedsRecovery(failures: strikes.failures.count)
    }
  }

  /// Keeps the device-side digest of the sealed domain state current, for `vault status`.
  private func rememberSealedDomain(_ sealed: [UInt8], passcodeBound: Bool) throws {
    let id = vault.vaultID
    let device = try vault.device.read()
    let record = SealedDomainRecord(
      digest: SealedDomainDigest.of(sealed, vaultID: id, deviceSecret: device.deviceSecret),
      passcodeBound: passcodeBound)
    guard device.sealedDomains[id.hex] != record else { return }
    try vault.device.update { $0.sealedDomains[id.hex] = record }
  }

  /// A seal bound to the device passcode whose keychain item is gone: the passcode was removed
  /// since activation, and biometric unlock is disabled as for an enrollment change.
  private func checkPasscodeItem(_ seal: BiometricSeal, masterKey: SymmetricKey) throws {
    guard seal.passcodeBound == true, try !gate.isBoundToPasscode(passcodeItem) else { return }
    try disable(masterKey: masterKey, reason: Self.passcodeRemoved)
  }

  /// Why biometric unlock is disabled when the passcode-bound keychain item is gone.
  static let passcodeRemoved = PendingDisable.passcodeRemoved

  /// Why an enrollment found empty before the key is at hand ends the seal: the removed device
  /// passcode when the seal was bound to it and its keychain item is gone (removing the passcode
  /// wipes the enrollment), else the emptied enrollment.
  func emptiedReason(_ device: DeviceState) throws -> String {
    guard device.sealedDomains[vault.vaultID.hex]?.passcodeBound == true,
      try !gate.isBoundToPasscode(passcodeItem)
    else { return Self.emptied }
    return Self.passcodeRemoved
  }

  /// A session of a biometric vault is only as good as the binding it was issued under: the
  /// sensor's domain state now (from a preflight, no prompt) must still equal the sealed one.
  ///
  /// A changed or emptied enrollment disables biometric unlock and revokes every session, as at
  /// unlock. An unusable sensor (unavailable, locked out) gives no verdict, and the session goes
  /// on.
  ///
  /// - Throws: `.enrollmentChanged` after disabling; `.biometryDisabled` or
  ///   `.biometryNotActivated` (the session is revoked) when there is no active seal.
  func checkSession(masterKey: SymmetricKey) throws {
    let seal: BiometricSeal
    do {
      seal = try activeSeal(masterKey: masterKey)
    } catch let thrown {
      guard let error = VaultError(thrown) else { throw thrown }
      if error.isIntegrityFailure { throw error }
      sessions.revokeAll(vaultID: vault.vaultID, reason: .biometricChange)
      throw error
    }
    try checkPasscodeItem(seal, masterKey: masterKey)
    let now: BiometricMatch
    do {
      now = try gate.preflight()
    } catch BiometricFailure.notEnrolled {
      try disable(masterKey: masterKey, reason: Self.emptied)
    } catch BiometricFailure.notAvailable where (try? gate.currentType()) == "none" {
      // The sensor itself is gone: the sealed type can never match again.
      try disable(
        masterKey: masterKey, reason: "the biometry type changed from \(seal.type) to none")
    } catch is BiometricFailure {
      // Unavailable or disconnected for now, locked out, or without a passcode: no verdict; the
      // binding is checked again at the next use.
      return
    }
    guard now.type == seal.type else {
      try disable(
        masterKey: masterKey, reason: "the biometry type changed from \(seal.type) to \(now.type)")
    }
    let sealed = try [UInt8](base64: seal.domainState, count: 32, field: "sealed domain state")
    guard constantTimeEqual(sealed, now.domainState) else {
      try disable(masterKey: masterKey, reason: "the biometric enrollment changed")
    }
    try rememberSealedDomain(sealed, passcodeBound: seal.passcodeBound == true)
  }

  /// Why biometric unlock is disabled when the sensor has nothing enrolled.
  static let emptied = PendingDisable.emptiedEnrollment

  /// The sealed activation record.
  ///
  /// - Throws: `.biometryNotActivated`, `.biometryDisabled`, `.integrity` when the seal does
  ///   not open or its contents are malformed (never read as a mismatch).
  func activeSeal(masterKey: SymmetricKey) throws -> BiometricSeal {
    let device = try localDevice()
    guard let record = device.biometry else { throw VaultError.biometryNotActivated }
    guard record.state == .active, let sealText = record.seal else {
      throw VaultError.biometryDisabled(since: record.changedAt, reason: record.reason ?? "unknown")
    }
    let box = try [UInt8](base64: sealText, field: "seal")
    let plain = try AEAD.open(
      box, key: masterKey.derive(.biometry),
      associatedData: BiometricSeal.associatedData(vault.vaultID, deviceID: device.deviceIDBytes),
      what: "the biometric seal")
    do {
      return try plain.withBytes { try JSONDecoder().decode(BiometricSeal.self, from: Data($0)) }
    } catch {
      throw VaultError.integrity(.biometricSealMalformed)
    }
  }

  /// Disables biometric unlock, revokes every session and throws `.enrollmentChanged(reason)`.
  ///
  /// Never re-seals.
  func disable(masterKey: SymmetricKey, reason: String) throws -> Never {
    try markDisabled(
      masterKey: masterKey, reason: reason,
      at: Timestamp.utc(vault.environment.clock.wallNow))
    throw VaultError.enrollmentChanged(reason)
  }

  /// Records biometric unlock as disabled (reason and time, authenticated in the header), drops a
  /// pending device-side record of it, and revokes every session of the vault.
  ///
  /// - Throws: `VaultError.storage` when the header cannot be written.
  func markDisabled(masterKey: SymmetricKey, reason: String, at time: String) throws {
    // A disable must never be lost to a concurrent header change (a PIN change, say): on a
    // conflict, the current header is read, authenticated and disabled in its turn.
    for _ in 0..<5 {
      guard var device = vault.localDevice else { break }
      var header = vault.header
      device.biometry = BiometryRecord(state: .disabled, changedAt: time, reason: reason, seal: nil)
      header.setDevice(device)
      do {
        try vault.writeHeader(header, masterKey: masterKey)
        break
      } catch VaultError.vaultChanged {
        try vault.reloadHeader()
        try vault.verifyHeader(masterKey: masterKey)
      }
    }
    try vault.device.update {
      $0.pendingDisables[vault.vaultID.hex] = nil
      $0.sealedDomains[vault.vaultID.hex] = nil
    }
    sessions.revokeAll(vaultID: vault.vaultID, reason: .biometricChange)
  }

  /// Biometric unlock found dead before any key is at hand (nothing enrolled): every session is
  /// revoked at once and the disable is kept on the device until the header can record it.
  ///
  /// - Throws: `.enrollmentChanged(reason)` always, or `.storage`.
  func disableWithoutKey(reason: String) throws -> Never {
    let now = Timestamp.utc(vault.environment.clock.wallNow)
    try vault.device.update {
      $0.pendingDisables[vault.vaultID.hex] = PendingDisable(reason: reason, at: now)
    }
    sessions.revokeAll(vaultID: vault.vaultID, reason: .biometricChange)
    throw VaultError.enrollmentChanged(reason)
  }

  /// Activates (or re-activates) biometric unlock after the PIN was verified.
  ///
  /// A biometrics-only match, whose domain state is sealed with the type and time. The policy
  /// becomes PIN + biometry, and every session is revoked.
  ///
  /// - Throws: the mapped `BiometricFailure`; nothing is written unless the match succeeds.
  func activate(masterKey: SymmetricKey, reason: String) throws -> BiometricSeal {
    let match: BiometricMatch
    do {
      match = try evaluate(reason: reason, reuse: 0)
      try gate.bindToPasscode(passcodeItem)
    } catch let failure as BiometricFailure {
      throw Self.map(failure)
    }
    let now = Timestamp.utc(vault.environment.clock.wallNow)
    let seal = BiometricSeal(
      domainState: match.domainState, type: match.type, activatedAt: now, passcodeBound: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var json = try [UInt8](encoder.encode(seal))
    defer { wipe(&json) }
    var device = try localDevice()
    let box = AEAD.seal(
      json, key: masterKey.derive(.biometry),
      associatedData: BiometricSeal.associatedData(vault.vaultID, deviceID: device.deviceIDBytes))
    var header = vault.header
    device.policy = .pinAndBiometry
    device.biometry = BiometryRecord(state: .active, changedAt: now, reason: nil, seal: box.base64)
    header.setDevice(device)
    try vault.writeHeader(header, masterKey: masterKey)
    try vault.device.update { $0.pendingDisables[vault.vaultID.hex] = nil }
    try rememberSealedDomain(match.domainState, passcodeBound: true)
    // Sessions were authorized under the old binding (perhaps before another finger was
    // enrolled): they end with it.
    sessions.revokeAll(vaultID: vault.vaultID, reason: nil)
    return seal
  }

  /// Makes this device PIN-only (its own record's policy; the other devices keep theirs) and
  /// revokes every session.
  ///
  /// - Throws: `VaultError.storage` when the header cannot be written.
  func deactivate(masterKey: SymmetricKey) throws {
    var header = vault.header
    var device = try localDevice()
    device.policy = .pinOnly
    device.biometry = nil
    header.setDevice(device)
    try vault.writeHeader(header, masterKey: masterKey)
    try vault.device.update {
      $0.pendingDisables[vault.vaultID.hex] = nil
      $0.sealedDomains[vault.vaultID.hex] = nil
    }
    try? gate.unbindFromPasscode(passcodeItem)
    sessions.revokeAll(vaultID: vault.vaultID, reason: .biometryOff)
  }

  /// Maps a sensor failure to the vault's error (and so to its exit code).
  static func map(_ failure: BiometricFailure) -> VaultError {
    switch failure {
    case .notRecognised: .biometricNotRecognised
    case .cancelled(let code): .biometricCancelled(code)
    case .fallback: .biometricFallback
    case .lockout: .biometricLockout
    case .notInteractive: .biometricNotInteractive
    case .notAvailable(let code): .biometryUnavailable(code)
    case .notEnrolled: .notEnrolled
    case .passcodeNotSet: .passcodeNotSet
    case .script(let refusal): .sensorScript(refusal)
    }
  }
}

extension VaultError {
  /// The vault's error for a sensor failure: what decides the exit code and the message.
  public static func biometric(_ failure: BiometricFailure) -> VaultError {
    BiometricBinding.map(failure)
  }
}
