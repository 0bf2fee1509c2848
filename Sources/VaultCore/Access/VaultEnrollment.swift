import FoundationEssentials
import VaultCrypto
import VaultFormat

extension Vault {
  /// True when a rotation here needs the recovery code in force (`vault(5)` MASTER-KEY
  /// ROTATION): the header has enrollments and a device record other than this device's.
  public var needsCurrentCode: Bool { needsCurrentCode(revoking: nil) }

  /// `needsCurrentCode` once the device `revoked` (id, base64) has been revoked.
  public func needsCurrentCode(revoking revoked: String?) -> Bool {
    guard header.enrollmentKey != nil else { return false }
    let own = localDevice?.deviceID
    return header.devices.contains { $0.deviceID != own && $0.deviceID != revoked }
  }

  /// True when the header has an enrollment key (`vault(5)` ENROLLMENT).
  public var isEnrolled: Bool { header.enrollmentKey != nil }

  /// The enrollment key of `code`, checked to be the code in force: its verifier first (no key
  /// derivation), then, in a header with enrollments, the slot's enrollment key.
  ///
  /// - Parameter code: a recovery code in canonical form.
  /// - Throws: `VaultError.wrongRecoveryCode` when the verifier differs; `.integrity` when it
  ///   matches and the enrollment key does not (the slot was edited).
  func checkedEnrollmentKey(code: SecureBytes) throws -> SigningKeyPair {
    if let verifier = header.recovery.verifier {
      let expected = RecoverySlot.verifier(code: code, vaultID: vaultID)
      guard constantTimeEqual(Array(expected.utf8), Array(verifier.utf8)) else {
        throw VaultError.wrongRecoveryCode
      }
    }
    return try enrollmentKey(ofCodeInForce: code)
  }

  /// The enrollment key of `code`, a code already proven (its verifier, or the slot it opened),
  /// checked against the slot's enrollment key in a header with enrollments.
  ///
  /// - Throws: `VaultError.integrity` when they differ (the slot was edited).
  func enrollmentKey(ofCodeInForce code: SecureBytes) throws -> SigningKeyPair {
    let signer = try Enrollment.key(code: code, vaultID: vaultID)
    if let enrolled = header.enrollmentKey, !constantTimeEqual(enrolled, signer.publicKey) {
      throw VaultError.integrity(.keys(.enrollmentKeyNotRecoveryCodes))
    }
    return signer
  }

  /// Enrolls every device record of a header that has no enrollment key with `code`: the slot
  /// gains the code's enrollment key and each record its enrollment (`vault(5)` ENROLLMENT).
  ///
  /// The code is proven by opening the recovery slot with it (one Argon2id run), which must
  /// give `masterKey`. Does nothing in a header that has enrollments.
  ///
  /// - Throws: `VaultError.wrongRecoveryCode`; `.integrity` when the slot opens to another key;
  ///   the errors of a header write.
  public func enroll(code: SecureBytes, masterKey: SymmetricKey) throws {
    guard header.enrollmentKey == nil else { return }
    let opened = try header.recovery.open(code: code, vaultID: vaultID, kdf: header.kdf)
    guard opened.bytes == masterKey.bytes else {
      throw VaultError.integrity(.keys(.recoverySlotHoldsAnotherKey))
    }
    var updated = header
    if updated.recovery.verifier == nil {
      updated.recovery = updated.recovery.completed(code: code, vaultID: vaultID, kdf: header.kdf)
    }
    try writeHeader(
      updated.enrolled(by: try Enrollment.key(code: code, vaultID: vaultID)),
      masterKey: masterKey)
  }
}
