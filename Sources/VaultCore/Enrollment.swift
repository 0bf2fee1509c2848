import FoundationEssentials

/// The recovery code's enrollment key and the signatures it makes (`vault(5)` ENROLLMENT): a
/// device record is admitted to the vault only by someone who holds the code, never by the
/// master key alone.
public enum Enrollment {
  /// The Ed25519 key pair of `code` for `vaultID`: `crypto_sign_seed_keypair` of the seed
  /// `BLAKE2b-256(key: code, "vault.enrollment-seed.v1" || vault id)`.
  ///
  /// - Parameter code: the recovery code in canonical form (32 ASCII symbols).
  /// - Throws: `VaultError.integrity` (never, for a 32-byte seed).
  public static func key(code: SecureBytes, vaultID: VaultID) throws -> SigningKeyPair {
    let seed = GenericHash.keyedSecret(
      key: code, parts: [DomainLabel.enrollmentSeed.bytes, vaultID.bytes])
    return try Signing.keyPair(seed: seed)
  }

  /// `"vault.enrollment.v1" || vault id || device id || X25519 public key` (83 bytes).
  static func message(vaultID: VaultID, deviceID: [UInt8], publicKey: [UInt8]) -> [UInt8] {
    DomainLabel.enrollment.bytes + vaultID.bytes + deviceID + publicKey
  }

  /// The message of `record`, nil when its public key is not 32 bytes of base64.
  private static func message(of record: DeviceRecord, vaultID: VaultID) -> [UInt8]? {
    guard let publicKey = try? [UInt8](base64: record.publicKey, count: 32, field: "public_key")
    else { return nil }
    return message(vaultID: vaultID, deviceID: record.deviceIDBytes, publicKey: publicKey)
  }

  /// `record` with its `enrollment` signed by `key` (`crypto_sign_detached`, Ed25519).
  static func enrolled(_ record: DeviceRecord, by key: SigningKeyPair, vaultID: VaultID)
    -> DeviceRecord
  {
    var record = record
    let signed = message(of: record, vaultID: vaultID) ?? []
    record.enrollment = signed.withUnsafeBytes { key.sign($0) }.base64
    return record
  }

  /// True when `record`'s enrollment verifies under `enrollmentKey` (32 bytes;
  /// `crypto_sign_verify_detached`).
  static func verifies(_ record: DeviceRecord, enrollmentKey: [UInt8], vaultID: VaultID) -> Bool {
    guard let enrollment = record.enrollment,
      let signature = try? [UInt8](
        base64: enrollment, count: Signing.signatureByteCount, field: "enrollment"),
      let signed = message(of: record, vaultID: vaultID)
    else { return false }
    return signed.withUnsafeBytes {
      Signing.verify(signature, message: $0, publicKey: enrollmentKey)
    }
  }
}

extension Header {
  /// The recovery slot's enrollment public key (32 bytes), nil in a header no code enrolled yet.
  var enrollmentKey: [UInt8]? {
    recovery.enrollmentKey.flatMap { try? [UInt8](base64: $0, count: 32, field: "enrollment_key") }
  }

  /// Checks every device record's enrollment under the slot's enrollment key.
  ///
  /// - Throws: `VaultError.integrity` naming the first record that does not verify, or when the
  ///   header has no enrollment key.
  func verifyEnrollments() throws {
    guard let key = enrollmentKey else {
      throw VaultError.integrity("the vault's devices are not enrolled with its recovery code")
    }
    for device in devices
    where !Enrollment.verifies(device, enrollmentKey: key, vaultID: vaultID) {
      throw VaultError.integrity(
        "the device record \(device.deviceIDBytes.hex.prefix(8)) was not enrolled with the"
          + " vault's recovery code (a device that held the master key added or changed it)")
    }
  }

  /// This header enrolled by `key`: its public key as the slot's `enrollment_key`, and every
  /// device record signed with it.
  func enrolled(by key: SigningKeyPair) -> Header {
    var header = self
    header.recovery.enrollmentKey = key.publicKey.base64
    header.devices = devices.map { Enrollment.enrolled($0, by: key, vaultID: vaultID) }
    return header
  }
}
