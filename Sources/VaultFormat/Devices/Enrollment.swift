import FoundationEssentials
import VaultCrypto

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

  /// `"vault.enrollment.v2" || vault id || device id || X25519 public key || Ed25519 writer
  /// key || u64be(serial)` (123 bytes); without a serial (a record of a release before
  /// 0.11.0), `"vault.enrollment.v1"` and no serial (115 bytes).
  static func message(
    vaultID: VaultID, deviceID: [UInt8], publicKey: [UInt8], writerKey: [UInt8], serial: Int?
  ) -> [UInt8] {
    guard let serial else {
      return DomainLabel.enrollment.bytes + vaultID.bytes + deviceID + publicKey + writerKey
    }
    return DomainLabel.enrollmentV2.bytes + vaultID.bytes + deviceID + publicKey + writerKey
      + RecordBox.u64(UInt64(serial))
  }

  /// The message of `record`, nil when its public key or writer key is not 32 bytes of base64.
  private static func message(of record: DeviceRecord, vaultID: VaultID) -> [UInt8]? {
    guard let publicKey = try? [UInt8](base64: record.publicKey, count: 32, field: "public_key"),
      let writerKey = try? [UInt8](base64: record.writerKey, count: 32, field: "writer_key")
    else { return nil }
    return message(
      vaultID: vaultID, deviceID: record.deviceIDBytes, publicKey: publicKey,
      writerKey: writerKey, serial: record.enrollmentSerial)
  }

  /// `record` with its `enrollment` signed by `key` (`crypto_sign_detached`, Ed25519).
  package static func enrolled(_ record: DeviceRecord, by key: SigningKeyPair, vaultID: VaultID)
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

  /// `"vault.revocation.v1" || vault id || device id || Ed25519 writer key` (83 bytes).
  static func revocationMessage(vaultID: VaultID, deviceID: [UInt8], writerKey: [UInt8])
    -> [UInt8]
  {
    DomainLabel.revocation.bytes + vaultID.bytes + deviceID + writerKey
  }

  /// The revocation of the device `deviceID` whose last writer key is `writerKey` (base64, 16
  /// and 32 bytes), signed by `key` (`crypto_sign_detached`, Ed25519); nil for a malformed id
  /// or key.
  package static func revocation(
    of deviceID: String, writerKey: String, by key: SigningKeyPair, vaultID: VaultID
  ) -> SignedRevocation? {
    guard let id = try? [UInt8](base64: deviceID, count: 16, field: "revoked_devices"),
      let writer = try? [UInt8](base64: writerKey, count: 32, field: "writer_key")
    else { return nil }
    let signature = revocationMessage(vaultID: vaultID, deviceID: id, writerKey: writer)
      .withUnsafeBytes { key.sign($0) }
    return SignedRevocation(writerKey: writerKey, signature: signature.base64)
  }

  /// True when `revoked` has a revocation that verifies under `enrollmentKey` (32 bytes;
  /// `crypto_sign_verify_detached`).
  static func verifies(_ revoked: RevokedDevice, enrollmentKey: [UInt8], vaultID: VaultID)
    -> Bool
  {
    guard let signed = revoked.signed,
      let signature = try? [UInt8](
        base64: signed.signature, count: Signing.signatureByteCount, field: "revocations"),
      let id = try? [UInt8](base64: revoked.deviceID, count: 16, field: "revoked_devices"),
      let writer = try? [UInt8](base64: signed.writerKey, count: 32, field: "revocations")
    else { return false }
    return revocationMessage(vaultID: vaultID, deviceID: id, writerKey: writer).withUnsafeBytes {
      Signing.verify(signature, message: $0, publicKey: enrollmentKey)
    }
  }
}

/// One entry of the header's `revocations` (`vault(5)` ENROLLMENT): the revoked device's last
/// writer key and the recovery code's signature of its revocation.
public struct SignedRevocation: Encodable, Equatable, Sendable {
  /// The writer key the revocation retired, base64 of 32 bytes.
  public var writerKey: String
  /// Ed25519 signature by the code's enrollment key, base64 of 64 bytes.
  public var signature: String

  enum CodingKeys: String, CodingKey {
    case writerKey = "writer_key"
    case signature
  }
}

/// A revoked device id (base64) and its revocation, nil where the header has none.
public struct RevokedDevice: Equatable, Sendable {
  /// The value of each stored property, in order.
  package init(deviceID: String, signed: SignedRevocation?) {
    self.deviceID = deviceID
    self.signed = signed
  }

  /// The revoked device's id, base64 of 16 bytes.
  public let deviceID: String
  /// Its revocation, signed with the code's enrollment key.
  public let signed: SignedRevocation?
}

extension Header {
  /// The recovery slot's enrollment public key (32 bytes), nil in a header no code enrolled yet.
  package var enrollmentKey: [UInt8]? {
    recovery.enrollmentKey.flatMap { try? [UInt8](base64: $0, count: 32, field: "enrollment_key") }
  }

  /// Checks every device record's enrollment under the slot's enrollment key.
  ///
  /// - Throws: `VaultError.integrity` naming the first record that does not verify, or when the
  ///   header has no enrollment key.
  package func verifyEnrollments() throws {
    guard let key = enrollmentKey else {
      throw VaultError.integrity(.device(.notEnrolled))
    }
    for device in devices
    where !Enrollment.verifies(device, enrollmentKey: key, vaultID: vaultID) {
      throw VaultError.integrity(.device(.recordNotEnrolled(deviceID: device.deviceIDBytes.hex)))
    }
    for revoked in revocationPairs
    where !Enrollment.verifies(revoked, enrollmentKey: key, vaultID: vaultID) {
      throw VaultError.integrity(
        .device(.revocationNotAuthorized(deviceID: Self.hexID(revoked.deviceID))))
    }
  }

  /// The first 8 hex digits of a base64 device id.
  package static func shortHex(_ deviceID: String) -> String {
    String(hexID(deviceID).prefix(8))
  }

  /// A base64 device id in hex (empty when it is not base64).
  package static func hexID(_ deviceID: String) -> String {
    ((try? [UInt8](base64: deviceID, field: "device_id")) ?? []).hex
  }

  /// Each revoked id with its revocation, oldest first.
  public var revocationPairs: [RevokedDevice] {
    let ids = revokedDevices ?? []
    let signed = revocations ?? []
    return ids.enumerated().map { index, id in
      RevokedDevice(deviceID: id, signed: index < signed.count ? signed[index] : nil)
    }
  }

  /// Sets `revokedDevices` and `revocations` from `pairs` (nil when empty; no revocations when
  /// one of them has none, which `verifyEnrollments` then refuses).
  package mutating func setRevocations(_ pairs: [RevokedDevice]) {
    revokedDevices = pairs.isEmpty ? nil : pairs.map(\.deviceID)
    let signed = pairs.compactMap(\.signed)
    revocations = pairs.isEmpty || signed.count < pairs.count ? nil : signed
  }

  /// This header enrolled by `key`: its public key as the slot's `enrollment_key`, and every
  /// device record and revocation signed with it.
  package func enrolled(by key: SigningKeyPair) -> Header {
    var header = self
    header.recovery.enrollmentKey = key.publicKey.base64
    header.devices = devices.map { Enrollment.enrolled($0, by: key, vaultID: vaultID) }
    // A revocation keeps the writer key it retired; one with none (never enrolled) retired the
    // newest the header lists for that device.
    header.setRevocations(
      revocationPairs.map { revoked in
        let writer =
          revoked.signed?.writerKey
          ?? retiredWriters?.last(where: { $0.deviceID == revoked.deviceID })?.writerKey ?? ""
        return RevokedDevice(
          deviceID: revoked.deviceID,
          signed: Enrollment.revocation(
            of: revoked.deviceID, writerKey: writer, by: key, vaultID: vaultID))
      })
    return header
  }
}
