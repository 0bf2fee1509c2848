import FoundationEssentials
import Glibc

/// The biometric half of the vault's rules (`biometry.md` section 8): the sealed domain state,
/// a fresh evaluation compared with it in constant time, disabling on a mismatch (with every
/// session revoked), activation and deactivation.
///
/// Used by `VaultAccess` and `UnlockedVault`, which decide when each step runs.
struct BiometricBinding {
  let vault: Vault
  let gate: BiometricGate

  private var sessions: SessionStore { SessionStore(environment: vault.environment) }

  /// `"vault.biometry.v2" || vault id || device id`: a seal belongs to one device's sensor.
  static func sealAD(_ vaultID: VaultID, deviceID: [UInt8]) -> [UInt8] {
    DomainLabel.biometryV2.bytes + vaultID.bytes + deviceID
  }

  /// This device's record in the header.
  ///
  /// - Throws: `VaultError.otherDevice` when it has none.
  private func localDevice() throws -> DeviceRecord {
    guard let device = vault.localDevice else { throw VaultError.otherDevice }
    return device
  }

  /// A fresh biometrics-only evaluation whose domain state must equal the sealed one.
  ///
  /// - Throws: `.biometryNotActivated`, `.biometryDisabled`; `.enrollmentChanged` after
  ///   disabling on a mismatch, an emptied enrollment or a changed type; `.integrity` when the
  ///   seal does not open or is malformed; the mapped `BiometricFailure` otherwise.
  func checkPresence(masterKey: SymmetricKey, reason: String) throws {
    let seal = try activeSeal(masterKey: masterKey)
    let match: BiometricMatch
    do {
      match = try gate.evaluate(reason: reason)
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
    } catch let error as VaultError {
      if case .integrity = error { throw error }
      try sessions.revokeAll(vaultID: vault.vaultID, reason: .biometricChange)
      throw error
    }
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
      // Unavailable or disconnected for now, or locked out: no verdict; the binding is checked
      // again at the next use.
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
      associatedData: Self.sealAD(vault.vaultID, deviceID: device.deviceIDBytes),
      what: "the biometric seal")
    do {
      return try plain.withBytes { try JSONDecoder().decode(BiometricSeal.self, from: Data($0)) }
    } catch {
      throw VaultError.integrity("the biometric seal is malformed")
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
    try vault.device.update { $0.pendingDisables[vault.vaultID.hex] = nil }
    try sessions.revokeAll(vaultID: vault.vaultID, reason: .biometricChange)
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
    try sessions.revokeAll(vaultID: vault.vaultID, reason: .biometricChange)
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
      match = try gate.evaluate(reason: reason)
    } catch let failure as BiometricFailure {
      throw Self.map(failure)
    }
    let now = Timestamp.utc(vault.environment.clock.wallNow)
    let seal = BiometricSeal(domainState: match.domainState, type: match.type, activatedAt: now)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var json = try [UInt8](encoder.encode(seal))
    defer { wipe(&json) }
    var device = try localDevice()
    let box = AEAD.seal(
      json, key: masterKey.derive(.biometry),
      associatedData: Self.sealAD(vault.vaultID, deviceID: device.deviceIDBytes))
    var header = vault.header
    header.policy = .pinAndBiometry
    device.biometry = BiometryRecord(state: .active, changedAt: now, reason: nil, seal: box.base64)
    header.setDevice(device)
    try vault.writeHeader(header, masterKey: masterKey)
    try vault.device.update { $0.pendingDisables[vault.vaultID.hex] = nil }
    // Sessions were authorized under the old binding (perhaps before another finger was
    // enrolled): they end with it.
    try sessions.revokeAll(vaultID: vault.vaultID, reason: nil)
    return seal
  }

  /// Makes the vault PIN-only and revokes every session.
  ///
  /// - Throws: `VaultError.storage` when the header cannot be written.
  func deactivate(masterKey: SymmetricKey) throws {
    var header = vault.header
    header.policy = .pinOnly
    for index in header.devices.indices { header.devices[index].biometry = nil }
    try vault.writeHeader(header, masterKey: masterKey)
    try vault.device.update { $0.pendingDisables[vault.vaultID.hex] = nil }
    try sessions.revokeAll(vaultID: vault.vaultID, reason: .biometryOff)
  }

  /// Maps a sensor failure to the vault's error (and so to its exit code).
  static func map(_ failure: BiometricFailure) -> VaultError {
    switch failure {
    case .notRecognised: .biometricNotRecognised
    case .cancelled(let why): .cancelled(why)
    case .lockout: .biometricLockout
    case .notInteractive: .biometricNotInteractive
    case .notAvailable(let why): .biometryUnavailable(why)
    case .notEnrolled: .notEnrolled
    }
  }
}
