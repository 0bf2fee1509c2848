import Foundation

/// The vault's authentication rules (`biometry.md` section 8): PIN first, then a biometric match
/// whose domain state equals the sealed value; mismatch disables biometric unlock and revokes every
/// session; activation and deactivation.
public struct Authenticator {
  /// The vault being unlocked.
  public let vault: Vault
  /// The sensor, shaped like `LAContext`.
  public let gate: BiometricGate
  /// The vault's sessions (revoked on mismatch).
  public let sessions: SessionStore

  /// Rules for `vault` over `gate`.
  public init(vault: Vault, gate: BiometricGate) {
    self.vault = vault
    self.gate = gate
    self.sessions = SessionStore(environment: vault.environment)
  }

  /// The command that re-activates biometric unlock, quoted in errors.
  public static let reactivate = "vault biometry activate"

  private static func sealAD(_ vaultID: [UInt8]) -> [UInt8] {
    Array("vault.biometry.v1".utf8) + vaultID
  }

  /// True when the policy needs a biometric match.
  public var requiresBiometry: Bool { vault.header.policy == Header.policyBiometric }

  /// Unlocks with the PIN and, when the policy requires it, a biometric match.
  ///
  /// A correct PIN clears a biometric lockout, as the device passcode does.
  ///
  /// - Throws: the PIN errors of `Vault.unlock(pin:)`; `VaultError.enrollmentChanged` when
  ///   biometric unlock is disabled or the domain state does not match (then it is disabled and
  ///   every session revoked); `.biometryUnavailable` when it was never activated or the sensor is
  ///   unavailable; the mapped `BiometricFailure` otherwise.
  public func unlock(pin: PIN, reason: String) throws -> SymmetricKey {
    let masterKey = try vault.unlock(pin: pin)
    try gate.credentialVerified()
    guard requiresBiometry else { return masterKey }
    try checkPresence(masterKey: masterKey, reason: reason)
    return masterKey
  }

  /// A fresh biometric evaluation compared with the sealed domain state (unlock and guarded reads).
  ///
  /// - Throws: as `unlock(pin:reason:)` after the PIN.
  public func checkPresence(masterKey: SymmetricKey, reason: String) throws {
    let seal = try activeSeal(masterKey: masterKey)
    let match: BiometricMatch
    do {
      match = try gate.evaluate(reason: reason)
    } catch BiometricFailure.notEnrolled {
      try disable(masterKey: masterKey, reason: "the enrollment was emptied")
    } catch let failure as BiometricFailure {
      throw Self.map(failure)
    }
    guard match.type == seal.type else {
      try disable(
        masterKey: masterKey, reason: "the biometry type changed from \(seal.type) to \(match.type)"
      )
    }
    let sealed = (try? [UInt8](base64: seal.domainState, count: 32, field: "domain state")) ?? []
    guard constantTimeEqual(sealed, match.domainState) else {
      try disable(masterKey: masterKey, reason: "the biometric enrollment changed")
    }
  }

  /// The sealed activation record, or an error saying why there is none.
  ///
  /// - Throws: `.enrollmentChanged` when disabled, `.biometryUnavailable` when never activated,
  ///   `.integrity` when the seal does not open.
  public func activeSeal(masterKey: SymmetricKey) throws -> BiometricSeal {
    guard let record = vault.header.biometry else {
      throw VaultError.biometryUnavailable(
        "biometric unlock is not activated for this vault; run '\(Self.reactivate)'")
    }
    guard record.state == "active", let sealText = record.seal else {
      throw VaultError.enrollmentChanged(
        "biometric unlock is disabled since \(record.changedAt): \(record.reason ?? "unknown");"
          + " run '\(Self.reactivate)'")
    }
    let box = try [UInt8](base64: sealText, field: "seal")
    let plain = try AEAD.open(
      box, key: masterKey.derive(.biometry), associatedData: Self.sealAD(vault.vaultID),
      what: "the biometric seal")
    guard
      let seal = try? plain.withBytes({
        try JSONDecoder().decode(BiometricSeal.self, from: Data($0))
      })
    else { throw VaultError.integrity("the biometric seal is malformed") }
    return seal
  }

  /// Disables biometric unlock (reason and time authenticated in the header), revokes every session and throws `VaultError.enrollmentChanged`.
  ///
  /// Never re-seals.
  public func disable(masterKey: SymmetricKey, reason: String) throws -> Never {
    try markDisabled(masterKey: masterKey, reason: reason)
    throw VaultError.enrollmentChanged(
      "\(reason) since biometric unlock was activated; it is now disabled and every session"
        + " was revoked; run '\(Self.reactivate)'")
  }

  /// Records biometric unlock as disabled (reason and time, authenticated in the header) and
  /// revokes every session of the vault.
  ///
  /// - Throws: `VaultError.storage` when the header cannot be written.
  public func markDisabled(masterKey: SymmetricKey, reason: String) throws {
    var header = vault.header
    header.biometry = BiometryRecord(
      state: "disabled", changedAt: Timestamp.utc(vault.environment.clock.wallNow),
      reason: reason, seal: nil)
    try vault.writeHeader(header, masterKey: masterKey)
    try sessions.revokeAll(vaultID: vault.vaultID)
  }

  /// Activates (or re-activates) biometric unlock after the PIN was verified: a biometrics-only match, whose domain state is sealed with the type and time.
  ///
  /// The policy becomes PIN + biometry.
  ///
  /// - Throws: the mapped `BiometricFailure`; nothing is written unless the match succeeds.
  public func activate(masterKey: SymmetricKey, reason: String) throws -> BiometricSeal {
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
    var json = (try? [UInt8](encoder.encode(seal))) ?? []
    defer { wipe(&json) }
    let box = AEAD.seal(
      json, key: masterKey.derive(.biometry), associatedData: Self.sealAD(vault.vaultID))
    var header = vault.header
    header.policy = Header.policyBiometric
    header.biometry = BiometryRecord(state: "active", changedAt: now, reason: nil, seal: box.base64)
    try vault.writeHeader(header, masterKey: masterKey)
    return seal
  }

  /// Makes the vault PIN-only and revokes every session.
  ///
  /// The caller has verified the PIN and a match, or the recovery code.
  public func deactivate(masterKey: SymmetricKey) throws {
    var header = vault.header
    header.policy = Header.policyPINOnly
    header.biometry = nil
    try vault.writeHeader(header, masterKey: masterKey)
    try sessions.revokeAll(vaultID: vault.vaultID)
  }

  /// Maps a sensor failure to the vault's error (and so to its exit code).
  public static func map(_ failure: BiometricFailure) -> VaultError {
    switch failure {
    case .notRecognised: .biometricNotRecognised
    case .cancelled(let why): .cancelled(why)
    case .lockout: .biometricLockout
    case .notInteractive:
      .noTerminal(
        "a biometric match is needed and there is no terminal to ask on",
        hint: "run it on a terminal, or queue the simulated sensor's answer: biosim next match")
    case .notAvailable(let why): .biometryUnavailable(why)
    case .notEnrolled:
      .biometryUnavailable("no finger or face is enrolled on the sensor; run 'biosim enroll'")
    }
  }
}
