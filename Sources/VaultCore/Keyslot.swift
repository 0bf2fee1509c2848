import Foundation

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

  static func associatedData(vaultID: [UInt8], type: Kind) -> [UInt8] {
    Array("vault.keyslot.v1".utf8) + vaultID + Array(type.rawValue.utf8)
  }

  /// Derives the KEK for this slot from `secret` (the PIN bytes or the recovery code).
  ///
  /// - Parameter deviceSecret: required for the `pin` slot, ignored for `recovery`.
  /// - Throws: `VaultError.storage` when Argon2id cannot allocate its memory.
  public static func kek(
    type: Kind, secret: SecureBytes, salt: Salt, parameters: KDFParameters, vaultID: [UInt8],
    deviceSecret: SecureBytes?
  ) throws -> SymmetricKey {
    let stretched = try Argon2id.derive(secret: secret, salt: salt, parameters: parameters)
    switch type {
    case .recovery:
      return SymmetricKey(stretched)
    case .pin:
      guard let deviceSecret else { preconditionFailure("the PIN keyslot needs the device secret") }
      return GenericHash.keyedSecret(
        key: deviceSecret, prefix: Array("vault.pin-kek.v1".utf8) + vaultID, secret: stretched)
    }
  }

  /// Wraps `masterKey` under `kek` with a fresh nonce.
  public static func make(
    type: Kind, salt: Salt, kek: SymmetricKey, masterKey: SymmetricKey, vaultID: [UInt8]
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
    guard let salt = Salt(try [UInt8](base64: salt, count: Salt.byteCount, field: "keyslot salt"))
    else { throw VaultError.malformedHeader("keyslot salt is not valid") }
    return salt
  }

  /// Unwraps the master key, or returns nil when `kek` is wrong (AEAD verification fails).
  public func open(kek: SymmetricKey, vaultID: [UInt8]) -> SymmetricKey? {
    guard let box = try? [UInt8](base64: wrapped, field: "keyslot"),
      let key = try? AEAD.open(
        box, key: kek, associatedData: Self.associatedData(vaultID: vaultID, type: type),
        what: "keyslot"),
      key.count == SymmetricKey.byteCount
    else { return nil }
    return SymmetricKey(key)
  }
}
