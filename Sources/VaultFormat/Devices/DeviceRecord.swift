import FoundationEssentials
import Glibc
import VaultCrypto

/// One device's record in the header.
///
/// Its key pair, its PIN keyslot, the master key sealed to it, its journal writer key and its
/// biometric activation. See "DEVICES" in `vault(5)`.
///
/// The device's X25519 secret key is wrapped (XChaCha20-Poly1305) under the PIN KEK entangled
/// with the device secret; the master key is sealed to the public key with `crypto_box_seal`, so
/// a later master-key rotation re-seals it to every device without knowing any PIN.
public struct DeviceRecord: Encodable, Equatable, Sendable {
  /// 16 random bytes, base64.
  public var deviceID: String
  /// `BLAKE2b-128(key: device secret, "vault.device-tag.v1" || vault id)`, base64.
  public var deviceTag: String
  /// The device's X25519 public key (32 bytes, base64).
  public var publicKey: String
  /// Argon2id salt of the PIN keyslot (16 bytes, base64).
  public var pinSalt: String
  /// The device's secret key sealed under the PIN KEK (72 bytes, base64).
  public var pinWrapped: String
  /// `crypto_box_seal` of `"vault.master-box.v2" || vault id || device id || master key` to
  /// `publicKey` (131 bytes, base64).
  public var masterBox: String
  /// `BLAKE2b-128(key: device secret, …)` over the KDF parameters and this record's slot
  /// (16 bytes, base64): an edit is found before any PIN is tried.
  public var slotTag: String
  /// The device's Ed25519 journal writer public key (32 bytes, base64).
  public var writerKey: String
  /// The device's biometric activation, nil until activated (or after it was turned off).
  public var biometry: BiometryRecord?
  /// Ed25519 signature (64 bytes, base64) by the recovery code's enrollment key over the
  /// device id and `publicKey` (`Enrollment`); nil in a header no code enrolled yet.
  public var enrollment: String?
  /// How many times the recovery code enrolled this device id (1 and up; signed in
  /// `enrollment`), nil for a record of a release before 0.11.0: of two records with one id,
  /// the higher is the newer (`vault(5)` ENROLLMENT).
  public var enrollmentSerial: Int? = nil
  /// The policy this device unlocks under (`vault(5)` DEVICES `policy`); nil for the header's
  /// (a record of a release before 0.11.0, or a new one before its device set its own).
  public var policy: Policy? = nil

  static let fieldNames = [
    "device_id", "device_tag", "public_key", "pin_salt", "pin_wrapped", "master_box", "slot_tag",
    "writer_key", "biometry", "enrollment", "enrollment_serial", "policy",
  ]

  /// The largest `enrollment_serial` (2^53, as JSON numbers are exact up to it).
  static let maximumEnrollmentSerial = 1 << 53

  enum CodingKeys: String, CodingKey {
    case biometry, enrollment, policy
    case deviceID = "device_id"
    case deviceTag = "device_tag"
    case publicKey = "public_key"
    case pinSalt = "pin_salt"
    case pinWrapped = "pin_wrapped"
    case masterBox = "master_box"
    case slotTag = "slot_tag"
    case writerKey = "writer_key"
    case enrollmentSerial = "enrollment_serial"
  }

  /// Length of `master_box` in bytes: the sealed-box overhead and label, ids and key.
  static let masterBoxCount =
    SealedBox.overhead + DomainLabel.masterBox.bytes.count + 16 + 16 + SymmetricKey.byteCount

  func validate() throws {
    _ = try [UInt8](base64: deviceID, count: 16, field: "device_id")
    _ = try [UInt8](base64: deviceTag, count: 16, field: "device_tag")
    _ = try [UInt8](base64: publicKey, count: 32, field: "public_key")
    _ = try [UInt8](base64: pinSalt, count: Salt.byteCount, field: "pin_salt")
    _ = try [UInt8](
      base64: pinWrapped, count: Nonce.byteCount + 32 + AEAD.tagByteCount, field: "pin_wrapped")
    _ = try [UInt8](base64: masterBox, count: Self.masterBoxCount, field: "master_box")
    _ = try [UInt8](base64: slotTag, count: 16, field: "slot_tag")
    _ = try [UInt8](base64: writerKey, count: 32, field: "writer_key")
    if let enrollment {
      _ = try [UInt8](base64: enrollment, count: Signing.signatureByteCount, field: "enrollment")
    }
    if let enrollmentSerial, !(1...Self.maximumEnrollmentSerial).contains(enrollmentSerial) {
      throw VaultError.malformedHeader(
        .deviceRecords(.enrollmentSerialOutOfBounds(enrollmentSerial)))
    }
    try biometry?.validate()
  }

  /// The device id's bytes.
  public var deviceIDBytes: [UInt8] { (try? [UInt8](base64: deviceID, field: "device_id")) ?? [] }

  /// `BLAKE2b-128(key: device secret, "vault.device-tag.v1" || vault id)`, base64.
  public static func deviceTag(deviceSecret: DeviceSecret, vaultID: VaultID) -> String {
    GenericHash.keyed(
      key: deviceSecret.bytes, parts: [DomainLabel.deviceTag.bytes, vaultID.bytes],
      outputLength: 16
    ).base64
  }

  /// The slot tag, base64.
  ///
  /// `BLAKE2b-128(key: device secret, "vault.slot-tag.v3" || vault id || device id || profile
  /// "|" opslimit "|" memlimit || public key || pin salt || pin box)`, the base64 fields decoded.
  /// The master box is left out: a rotation on another device re-seals
  /// it.
  public static func slotTag(
    deviceSecret: DeviceSecret, vaultID: VaultID, kdf: KDFParameters, record: DeviceRecord
  ) -> String {
    tag(.slotTagV3, deviceSecret: deviceSecret, vaultID: vaultID, kdf: kdf, record: record)
  }

  /// The slot tag of release 0.2.0, with `"vault.slot-tag.v2"`, which also covers the master
  /// box; base64.
  static func legacySlotTag(
    deviceSecret: DeviceSecret, vaultID: VaultID, kdf: KDFParameters, record: DeviceRecord
  ) -> String {
    tag(.slotTagV2, deviceSecret: deviceSecret, vaultID: vaultID, kdf: kdf, record: record)
  }

  private static func tag(
    _ label: DomainLabel, deviceSecret: DeviceSecret, vaultID: VaultID, kdf: KDFParameters,
    record: DeviceRecord
  ) -> String {
    var covered = [record.publicKey, record.pinSalt, record.pinWrapped]
    if label == .slotTagV2 { covered.append(record.masterBox) }
    let fields = covered.map { (try? [UInt8](base64: $0, field: "slot")) ?? [] }
    let parts: [[UInt8]] =
      [
        label.bytes, vaultID.bytes, record.deviceIDBytes,
        Array("\(kdf.profile)|\(kdf.opsLimit)|\(kdf.memLimit)".utf8),
      ] + fields
    return GenericHash.keyed(key: deviceSecret.bytes, parts: parts, outputLength: 16).base64
  }

  /// How this record's slot tag verifies with `deviceSecret`.
  package enum SlotTagCheck: Equatable {
    /// In the current form.
    case current
    /// In the form of release 0.2.0 (rewritten at the next unlock with the PIN).
    case legacy
    /// Not at all: the KDF parameters or the keyslot were edited.
    case mismatch
  }

  /// Checks the slot tag, in constant time, in either form.
  package func checkSlotTag(deviceSecret: DeviceSecret, vaultID: VaultID, kdf: KDFParameters)
    -> SlotTagCheck
  {
    let stored = Array(slotTag.utf8)
    let current = Self.slotTag(deviceSecret: deviceSecret, vaultID: vaultID, kdf: kdf, record: self)
    if constantTimeEqual(Array(current.utf8), stored) { return .current }
    let legacy = Self.legacySlotTag(
      deviceSecret: deviceSecret, vaultID: vaultID, kdf: kdf, record: self)
    return constantTimeEqual(Array(legacy.utf8), stored) ? .legacy : .mismatch
  }

  /// This record with the master key sealed again to its public key and its biometric seal
  /// sealed again under the new key's biometry subkey: the rotation's work, which needs no PIN.
  ///
  /// - Throws: `VaultError.integrity` when the seal does not open under `old`.
  package func resealed(masterKey: SymmetricKey, from old: SymmetricKey, vaultID: VaultID) throws
    -> DeviceRecord
  {
    let publicKey = try [UInt8](base64: publicKey, count: 32, field: "public_key")
    let plain = SecureBytes(
      concatenating: Self.masterPlaintextPrefix(vaultID: vaultID, deviceID: deviceIDBytes),
      masterKey.bytes)
    var record = try resealedBiometry(masterKey: masterKey, from: old, vaultID: vaultID)
    record.masterBox = plain.withBytes { SealedBox.seal($0, to: publicKey) }.base64
    return record
  }

  /// This record with its biometric seal, if any, opened under `old` and sealed again under
  /// `masterKey`'s biometry subkey (XChaCha20-Poly1305, the same associated data): a device
  /// taking another device's rotation keeps its activation.
  ///
  /// - Throws: `VaultError.integrity` when the seal does not open under `old`.
  package func resealedBiometry(masterKey: SymmetricKey, from old: SymmetricKey, vaultID: VaultID)
    throws
    -> DeviceRecord
  {
    var record = self
    guard let seal = biometry?.seal else { return record }
    let ad = BiometricSeal.associatedData(vaultID, deviceID: deviceIDBytes)
    let opened = try AEAD.open(
      try [UInt8](base64: seal, field: "seal"), key: old.derive(.biometry), associatedData: ad,
      what: "the biometric seal")
    record.biometry?.seal =
      opened.withBytes { AEAD.seal($0, key: masterKey.derive(.biometry), associatedData: ad) }
      .base64
    return record
  }

  static func keyAD(vaultID: VaultID, deviceID: [UInt8]) -> [UInt8] {
    DomainLabel.deviceKey.bytes + vaultID.bytes + deviceID
  }

  static func masterPlaintextPrefix(vaultID: VaultID, deviceID: [UInt8]) -> [UInt8] {
    DomainLabel.masterBox.bytes + vaultID.bytes + deviceID
  }

  /// The KEK of a PIN keyslot: `BLAKE2b-256(key: device secret, "vault.pin-kek.v1" || vault id ||
  /// Argon2id(PIN, salt, kdf))`.
  ///
  /// - Throws: `VaultError.storage` when Argon2id cannot allocate its memory.
  public static func pinKEK(
    pin: SecureBytes, salt: Salt, kdf: KDFParameters, vaultID: VaultID, deviceSecret: DeviceSecret
  ) throws -> SymmetricKey {
    try Keyslot.kek(
      type: .pin, secret: pin, salt: salt, parameters: kdf, vaultID: vaultID,
      deviceSecret: deviceSecret)
  }

  /// A new record for a device: a fresh X25519 key pair whose secret key is wrapped under `kek`
  /// (made with `salt`), the master key sealed to its public key, and `writerKey` as its journal
  /// writer; not enrolled (`Enrollment.enrolled` signs it).
  public static func make(
    deviceID: [UInt8], deviceSecret: DeviceSecret, vaultID: VaultID, kdf: KDFParameters,
    salt: Salt, kek: SymmetricKey, masterKey: SymmetricKey, writerKey: [UInt8],
    biometry: BiometryRecord? = nil,
    keeping kept: (publicKey: [UInt8], secretKey: SecureBytes)? = nil
  ) -> DeviceRecord {
    let pair = kept ?? SealedBox.keyPair()
    let wrapped = pair.secretKey.withBytes {
      AEAD.seal($0, key: kek, associatedData: keyAD(vaultID: vaultID, deviceID: deviceID))
    }
    let plain = SecureBytes(
      concatenating: masterPlaintextPrefix(vaultID: vaultID, deviceID: deviceID), masterKey.bytes)
    let box = plain.withBytes { SealedBox.seal($0, to: pair.publicKey) }
    var record = DeviceRecord(
      deviceID: deviceID.base64,
      deviceTag: deviceTag(deviceSecret: deviceSecret, vaultID: vaultID),
      publicKey: pair.publicKey.base64, pinSalt: salt.bytes.base64, pinWrapped: wrapped.base64,
      masterBox: box.base64, slotTag: "", writerKey: writerKey.base64, biometry: biometry)
    record.slotTag = slotTag(deviceSecret: deviceSecret, vaultID: vaultID, kdf: kdf, record: record)
    return record
  }

  /// The PIN KEK did not open the device's secret key: a wrong PIN.
  package struct WrongKey: Error {}

  /// Opens the device's secret key with `kek`.
  ///
  /// - Throws: `WrongKey` when the box does not open; `VaultError.malformedHeader` for a box
  ///   that is not base64 of the right size.
  package func openSecretKey(kek: SymmetricKey, vaultID: VaultID) throws -> SecureBytes {
    let box = try [UInt8](
      base64: pinWrapped, count: Nonce.byteCount + 32 + AEAD.tagByteCount, field: "pin_wrapped")
    guard
      let key = try? AEAD.open(
        box, key: kek, associatedData: Self.keyAD(vaultID: vaultID, deviceID: deviceIDBytes),
        what: "device key")
    else { throw WrongKey() }
    return key
  }

  /// Opens the master key sealed to this device with its secret key.
  ///
  /// - Throws: `VaultError.integrity` when the box does not open or is bound to another vault or
  ///   device.
  package func openMasterKey(secretKey: SecureBytes, vaultID: VaultID) throws -> SymmetricKey {
    let box = try [UInt8](base64: masterBox, count: Self.masterBoxCount, field: "master_box")
    let publicKey = try [UInt8](base64: publicKey, count: 32, field: "public_key")
    let plain = try SealedBox.open(
      box, publicKey: publicKey, secretKey: secretKey, what: "journal entry")
    let prefix = Self.masterPlaintextPrefix(vaultID: vaultID, deviceID: deviceIDBytes)
    guard plain.count == prefix.count + SymmetricKey.byteCount,
      plain.withBytes({ constantTimeEqual(Array($0.prefix(prefix.count)), prefix) })
    else {
      throw VaultError.integrity(.device(.masterKeyBoundElsewhere))
    }
    return SymmetricKey(plain.suffix(from: prefix.count))
  }
}
