import FoundationEssentials
import Glibc
import VaultCrypto

/// One wrapped copy of the master key.
///
/// The master key is sealed with XChaCha20-Poly1305 under a key-encryption key (KEK). For the PIN
/// slot the KEK is keyed BLAKE2b under the device secret of the Argon2id output, so the vault file
/// alone cannot be attacked offline; the recovery slot's KEK is the Argon2id output of the
/// recovery code alone, so it opens on any machine. Associated data: `vault.keyslot.v1` ||
/// vault id || type.
public struct Keyslot: Codable, Equatable, Sendable {
  /// Keyslot types.
  public enum Kind: String, Codable, Sendable {
    /// Opened by the PIN entangled with the device secret.
    case pin
    /// Opened by the recovery code.
    case recovery
  }

  /// The slot type.
  public var type: Kind
  /// Argon2id salt, base64 (16 bytes).
  public var salt: String
  /// `nonce || ciphertext || tag` of the 32-byte master key, base64 (72 bytes).
  public var wrapped: String

  func validate() throws {
    _ = try [UInt8](base64: salt, count: Salt.byteCount, field: "keyslot salt")
    _ = try [UInt8](
      base64: wrapped, count: Nonce.byteCount + 32 + AEAD.tagByteCount, field: "keyslot key")
  }

  static func associatedData(vaultID: VaultID, type: Kind) -> [UInt8] {
    DomainLabel.keyslot.bytes + vaultID.bytes + Array(type.rawValue.utf8)
  }

  /// The key-encryption key did not open the slot: a wrong PIN or recovery code.
  struct WrongKey: Error {}

  /// Derives the KEK for this slot from `secret` (the PIN bytes or the recovery code).
  ///
  /// - Parameter deviceSecret: required for the `pin` slot, ignored for `recovery`.
  /// - Throws: `VaultError.storage` when Argon2id cannot allocate its memory.
  public static func kek(
    type: Kind, secret: SecureBytes, salt: Salt, parameters: KDFParameters, vaultID: VaultID,
    deviceSecret: DeviceSecret?
  ) throws -> SymmetricKey {
    let stretched = try Argon2id.derive(secret: secret, salt: salt, parameters: parameters)
    switch type {
    case .recovery:
      return SymmetricKey(stretched)
    case .pin:
      guard let deviceSecret else { preconditionFailure("the PIN keyslot needs the device secret") }
      return GenericHash.keyedSecret(
        key: deviceSecret.bytes, prefix: DomainLabel.pinKEK.bytes + vaultID.bytes,
        secret: stretched)
    }
  }

  /// Wraps `masterKey` under `kek` with a fresh nonce.
  public static func make(
    type: Kind, salt: Salt, kek: SymmetricKey, masterKey: SymmetricKey, vaultID: VaultID
  ) -> Keyslot {
    let box = masterKey.bytes.withBytes {
      AEAD.seal($0, key: kek, associatedData: associatedData(vaultID: vaultID, type: type))
    }
    return Keyslot(type: type, salt: salt.bytes.base64, wrapped: box.base64)
  }

  /// The salt (validated when the header was parsed).
  ///
  /// - Throws: `VaultError.malformedHeader` when it is not 16 bytes of base64.
  public func saltValue() throws -> Salt {
    try Salt([UInt8](base64: salt, count: Salt.byteCount, field: "keyslot salt"))
  }

  /// Unwraps the master key.
  ///
  /// - Throws: `WrongKey` when `kek` does not open it (AEAD verification fails);
  ///   `VaultError.malformedHeader` when the stored box is not base64 of a wrapped key.
  func open(kek: SymmetricKey, vaultID: VaultID) throws -> SymmetricKey {
    let box = try [UInt8](
      base64: wrapped, count: Nonce.byteCount + SymmetricKey.byteCount + AEAD.tagByteCount,
      field: "keyslot key")
    guard
      let key = try? AEAD.open(
        box, key: kek, associatedData: Self.associatedData(vaultID: vaultID, type: type),
        what: "keyslot")
    else { throw WrongKey() }
    return SymmetricKey(key)
  }
}
