import FoundationEssentials
import Glibc
import VaultCrypto

/// The header of a format-1 vault (release 0.1.0), read only to migrate it to format 2.
///
/// Serialized as JSON with sorted keys; the MAC (keyed BLAKE2b under the `header` subkey) covers the
/// exact stored bytes. See "FORMAT 1" in `vault(5)`.
public struct FormatOneHeader: Codable, Equatable, Sendable {
  /// The format this type reads.
  public static let format = 1

  /// Format version (1).
  public var format: Int
  /// Bound into every record's associated data (`vault_id`, base64).
  public var vaultID: VaultID
  /// Argon2id parameters for the PIN and recovery keyslots.
  public var kdf: KDFParameters
  /// What unlocking needs.
  public var policy: Policy
  /// Exactly one `pin` and one `recovery` keyslot.
  public var keyslots: [Keyslot]
  /// X25519 public key (32 bytes, base64) that journal entries are sealed to.
  public var journalPublicKey: String
  /// The matching secret key, sealed under the `journal` subkey (base64 AEAD box).
  public var journalSecretKey: String
  /// Biometric activation state (nil until biometry was ever activated or disabled).
  public var biometry: BiometryRecord?
  /// Keyed BLAKE2b of the vault id under the device secret the PIN slot is bound to (16 bytes,
  /// base64): tells "this PIN slot belongs to another device" apart from "wrong PIN".
  public var deviceTag: String
  /// Keyed BLAKE2b under the same device secret over the KDF parameters and both keyslots (16
  /// bytes, base64): an edit of those, which would otherwise look like a wrong PIN, is detected
  /// on the device before any PIN is tried.
  public var slotTag: String

  /// The slot tag of `kdf` and `keyslots` for `deviceSecret`: `BLAKE2b-128(key: device secret,
  /// "vault.slot-tag.v1" || vault id || profile "|" opslimit "|" memlimit || each keyslot's type,
  /// salt and wrapped key, as stored)`.
  public static func slotTag(
    deviceSecret: DeviceSecret, vaultID: VaultID, kdf: KDFParameters, keyslots: [Keyslot]
  ) -> String {
    var parts: [[UInt8]] = [
      DomainLabel.slotTag.bytes, vaultID.bytes,
      Array("\(kdf.profile)|\(kdf.opsLimit)|\(kdf.memLimit)".utf8),
    ]
    for slot in keyslots {
      parts += [Array("|\(slot.type.rawValue)|\(slot.salt)|\(slot.wrapped)".utf8)]
    }
    return GenericHash.keyed(key: deviceSecret.bytes, parts: parts, outputLength: 16).base64
  }

  /// The device tag for `deviceSecret`: `BLAKE2b-128(key: device secret,
  /// "vault.device-tag.v1" || vault id)`.
  public static func deviceTag(deviceSecret: DeviceSecret, vaultID: VaultID) -> String {
    GenericHash.keyed(
      key: deviceSecret.bytes, parts: [DomainLabel.deviceTag.bytes, vaultID.bytes],
      outputLength: 16
    ).base64
  }

  /// The keyslot of the given type.
  public func keyslot(_ type: Keyslot.Kind) -> Keyslot? {
    keyslots.first { $0.type == type }
  }

  /// Parses header bytes strictly: known format, bounded KDF parameters, well-formed fields.
  ///
  /// - Throws: `VaultError.unsupportedVersion` for another format, `VaultError.malformedHeader`
  ///   for anything else out of place.
  public static func parse(_ body: [UInt8]) throws -> FormatOneHeader {
    let (object, format) = try HeaderJSON.object(body)
    guard format == Self.format else { throw VaultError.unsupportedVersion(format) }
    let known: Set<String> = [
      "format", "vault_id", "kdf", "policy", "keyslots", "journal_public_key",
      "journal_secret_key", "biometry", "device_tag", "slot_tag",
    ]
    if let unknown = object.keys.first(where: { !known.contains($0) }) {
      throw VaultError.malformedHeader(.unknownField(.header, name: unknown))
    }
    if let policy = try? object.optionalString("policy"), Policy(rawValue: policy) == nil {
      throw VaultError.malformedHeader(.unknownPolicy(policy))
    }
    if let biometry = object.value("biometry").flatMap({ try? JSONFields($0) }),
      let state = try? biometry.optionalString("state"),
      BiometryState(rawValue: state) == nil
    {
      throw VaultError.malformedHeader(.unknownBiometryState(state))
    }
    let decoder = JSONDecoder()
    let header: FormatOneHeader
    do {
      header = try decoder.decode(FormatOneHeader.self, from: Data(body))
    } catch {
      throw VaultError.malformedHeader(.body(.fieldsNotValid))
    }
    try header.validate()
    return header
  }

  func validate() throws {
    try kdf.validate()
    guard keyslots.count == 2, keyslot(.pin) != nil, keyslot(.recovery) != nil else {
      throw VaultError.malformedHeader(.keyslots(.formatOneSlots))
    }
    for slot in keyslots { try slot.validate() }
    _ = try [UInt8](base64: journalPublicKey, count: 32, field: "journal_public_key")
    _ = try [UInt8](base64: journalSecretKey, count: 24 + 32 + 16, field: "journal_secret_key")
    try biometry?.validate()
    _ = try [UInt8](base64: deviceTag, count: 16, field: "device_tag")
    _ = try [UInt8](base64: slotTag, count: 16, field: "slot_tag")
  }

  /// Keyed BLAKE2b MAC of the stored bytes under the `header` subkey (32 bytes).
  public static func mac(_ body: [UInt8], masterKey: SymmetricKey) -> [UInt8] {
    GenericHash.keyed(
      key: masterKey.derive(.header).bytes, parts: [DomainLabel.header.bytes, body])
  }
}

extension FormatOneHeader {
  enum CodingKeys: String, CodingKey {
    case format, kdf, policy, keyslots, biometry
    case vaultID = "vault_id"
    case journalPublicKey = "journal_public_key"
    case journalSecretKey = "journal_secret_key"
    case deviceTag = "device_tag"
    case slotTag = "slot_tag"
  }
}
