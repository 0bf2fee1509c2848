import FoundationEssentials
import Glibc
import VaultAgent
import VaultCrypto
import VaultFormat

extension Vault {
  /// The checks of a PIN unlock that need no PIN: this device has a record, its KDF parameters
  /// and keyslot are as this device recorded them, and no PIN delay runs.
  ///
  /// - Returns: the device secret and this device's record, for the unlock that follows.
  /// - Throws: `VaultError.otherDevice`, `.integrity` (an edited KDF or keyslot), `.pinDelay`.
  @discardableResult
  public func checkBeforePIN(_ device: DeviceState) throws -> (DeviceSecret, DeviceRecord) {
    let deviceSecret = device.deviceSecret
    guard let record = header.device(for: deviceSecret) else {
      // A device that authenticated this vault's header before, and finds no record of its own
      // in it now, is looking at an edited header, not at another device's vault.
      if device.headerDigests[vaultID.hex] != nil && !headerIsAuthenticatedHere(device) {
        throw VaultError.integrity(.keys(.editedSinceAuthenticated))
      }
      throw VaultError.otherDevice
    }
    guard
      record.checkSlotTag(deviceSecret: deviceSecret, vaultID: vaultID, kdf: header.kdf)
        != .mismatch
    else {
      throw VaultError.integrity(.keys(.keyslotsEdited))
    }
    let wait = limiter.currentDelay(device)
    if wait > 0 { throw VaultError.pinDelay(seconds: wait) }
    return (deviceSecret, record)
  }

  /// Checks the PIN against this device's keyslot, counting the attempt before the KDF runs.
  ///
  /// The count is in the device-side store. This is the PIN check alone: commands go through
  /// `VaultAccess`, which adds the biometric rules and verifies the state.
  ///
  /// - Returns: the master key, after the header MAC has been verified with it.
  /// - Throws: the errors of `checkBeforePIN` (none of them counts as an attempt),
  ///   `VaultError.wrongPIN` or `.wrongPINDelayed` when the slot does not open, `.integrity` when
  ///   the header was edited.
  public func unlock(pin: PIN) throws -> SymmetricKey {
    let (deviceSecret, record) = try checkBeforePIN(device.read())
    let salt = try Salt([UInt8](base64: record.pinSalt, count: Salt.byteCount, field: "pin_salt"))
    let (masterKey, seconds) = try Self.checkPIN(limiter: limiter) {
      () throws -> PINTrial<(SymmetricKey, Double)> in
      let (kek, seconds) = try Self.timed {
        try DeviceRecord.pinKEK(
          pin: pin.bytes, salt: salt, kdf: header.kdf, vaultID: vaultID,
          deviceSecret: deviceSecret)
      }
      let secretKey: SecureBytes
      do {
        secretKey = try record.openSecretKey(kek: kek, vaultID: vaultID)
      } catch is DeviceRecord.WrongKey {
        return .wrong(kek: kek)
      }
      do {
        let key = try record.openMasterKey(secretKey: secretKey, vaultID: vaultID)
        deviceSecretKey = secretKey
        return .opened((key, seconds))
      } catch {
        // The PIN was right: an edited master box is never counted as a wrong PIN.
        try limiter.succeeded()
        throw VaultError.integrity(.keys(.masterBoxEdited))
      }
    }
    do {
      try verifyHeader(masterKey: masterKey)
    } catch {
      // The PIN was right: it is never counted as wrong because the header was edited.
      try limiter.succeeded()
      throw error
    }
    // A migration killed between its commit and the removal of its copy left the copy.
    let copy = path + FormatOneMigration.copySuffix
    if FileManager.default.fileExists(atPath: copy) {
      try? FileManager.default.removeItem(atPath: copy)
    }
    // The count goes back to zero. The header is recorded as authenticated here only once the
    // state has verified too (`UnlockedVault`): a header under a key an attacker sealed to this
    // device passes its MAC, never the state.
    let short = !pin.isLongEnoughToSet
    try limiter.succeeded {
      $0.guessSeconds[vaultID.hex] = seconds
      if short { $0.shortPINs.insert(vaultID.hex) } else { $0.shortPINs.remove(vaultID.hex) }
    }
    return masterKey
  }

  /// Opens the recovery slot with a canonical recovery code.
  ///
  /// - Throws: `VaultError.wrongRecoveryCode`, or `.integrity` when the slot, its KDF parameters
  ///   or the header was edited.
  public func unlock(recoveryCode: SecureBytes) throws -> SymmetricKey {
    // A slot without its tag (migrated from format 1, or stripped) cannot tell an edit from a
    // wrong code; a device that authenticated this header before can.
    let state = try device.read()
    if header.recovery.tag == nil && state.headerDigests[vaultID.hex] != nil
      && !headerIsAuthenticatedHere(state)
    {
      throw VaultError.integrity(.keys(.editedSinceAuthenticated))
    }
    let masterKey = try header.recovery.open(code: recoveryCode, vaultID: vaultID, kdf: header.kdf)
    try verifyHeader(masterKey: masterKey)
    enrollmentSigner = try enrollmentKey(ofCodeInForce: recoveryCode)
    if header.recovery.verifier == nil {
      completedRecovery = header.recovery.completed(
        code: recoveryCode, vaultID: vaultID, kdf: header.kdf)
    }
    return masterKey
  }

  /// Sets a new PIN on this device: a new device key pair whose secret key is wrapped under the
  /// new PIN entangled with this machine's device secret, with the master key sealed to it, and
  /// revokes every session of the vault: a rule, not a choice of the caller.
  ///
  /// The device keeps its id, writer key and biometric record; a device with no record (a
  /// recovery on a new machine) gets one, whose biometric unlock, under a policy that needs it,
  /// is disabled until activated here. The old PIN stops working; other devices and the recovery
  /// slot are unchanged.
  ///
  /// - Returns: the seconds of one core that one guess of the new PIN costs here.
  /// - Throws: `VaultError.invalidInput` for a PIN shorter than `PIN.minimumNewLength`,
  ///   `.vaultChanged`, `.storage` on failure.
  @discardableResult
  public func setPIN(_ pin: PIN, masterKey: SymmetricKey) throws -> Double {
    try Self.requireNewPIN(pin)
    let deviceSecret = try device.read().deviceSecret
    let existing = header.device(for: deviceSecret)
    let deviceID =
      existing?.deviceIDBytes ?? SecureBytes.random(count: 16).unprotectedBytes
    let writer = try device.update {
      try Self.writer(for: vaultID, deviceID: deviceID, in: &$0)
    }
    let salt = Salt.random()
    let (kek, seconds) = try Self.timed {
      try DeviceRecord.pinKEK(
        pin: pin.bytes, salt: salt, kdf: header.kdf, vaultID: vaultID, deviceSecret: deviceSecret)
    }
    var biometry = existing?.biometry
    if existing == nil && header.policy.requiresBiometry {
      biometry = BiometryRecord(
        state: .disabled, changedAt: Timestamp.utc(environment.clock.wallNow),
        reason: Self.recoveredElsewhere, seal: nil)
    }
    var updated = header
    if let completedRecovery { updated.recovery = completedRecovery }
    // A new PIN over the old one keeps the device's key pair (its secret key was opened by the
    // PIN in this command): a rotation another device seals to it meanwhile still opens here.
    var kept: (publicKey: [UInt8], secretKey: SecureBytes)?
    if let existing, let secretKey = deviceSecretKey,
      let publicKey = try? [UInt8](base64: existing.publicKey, count: 32, field: "public_key"),
      (try? existing.openMasterKey(secretKey: secretKey, vaultID: vaultID)) != nil
    {
      kept = (publicKey, secretKey)
    }
    var record = DeviceRecord.make(
      deviceID: deviceID, deviceSecret: deviceSecret, vaultID: vaultID, kdf: header.kdf,
      salt: salt, kek: kek, masterKey: masterKey, writerKey: writer.publicKey,
      biometry: biometry, keeping: kept)
    // The policy this device unlocks under is its own, whatever its PIN; a device that joins
    // starts with the vault's.
    record.policy = existing?.policy ?? header.policy
    if let enrollmentSigner {
      // The recovery code is at hand: this record is enrolled with it, and so is every record
      // of a header no code enrolled yet (they opened under the key this code opened). Its
      // serial is one more than the record it replaces, so that one cannot come back.
      if updated.enrollmentKey == nil { updated = updated.enrolled(by: enrollmentSigner) }
      record.enrollmentSerial = (existing?.enrollmentSerial ?? 0) + 1
      record = Enrollment.enrolled(record, by: enrollmentSigner, vaultID: vaultID)
    } else if updated.enrollmentKey != nil {
      // A kept key pair and writer key keep the enrollment, which covers the device id, the
      // public key and the writer key only.
      guard kept != nil, let enrollment = existing?.enrollment,
        existing?.writerKey == writer.publicKey.base64
      else {
        throw VaultError.locked(.newKeyPairNeedsRecovery)
      }
      record.enrollment = enrollment
      record.enrollmentSerial = existing?.enrollmentSerial
    }
    updated.setDevice(record)
    try writeHeader(updated, masterKey: masterKey)
    try limiter.succeeded {
      $0.guessSeconds[vaultID.hex] = seconds
      $0.shortPINs.remove(vaultID.hex)
    }
    SessionLedger(environment: environment).revokeAll(vaultID: vaultID, reason: .pinChange)
    return seconds
  }

  /// Why biometric unlock is disabled on a device that joined by a recovery.
  public static let recoveredElsewhere =
    "this device joined with the recovery code, and a seal belongs to the device that made it"
}
