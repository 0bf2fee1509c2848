import CSodium

/// A 256-bit symmetric key in guarded memory: a master key, KEK, DEK or subkey.
///
/// Never an array of bytes: keys live only inside `SecureBytes` and are wiped on release.
public struct SymmetricKey: Sendable, CustomStringConvertible, Equatable {
  /// Key length in bytes (32, the XChaCha20-Poly1305 and `crypto_kdf` key size).
  public static let byteCount = 32
  /// The key material.
  public let bytes: SecureBytes

  /// Wraps existing guarded bytes; they must be exactly `byteCount` long.
  public init(_ bytes: SecureBytes) {
    precondition(bytes.count == Self.byteCount, "a symmetric key is 32 bytes")
    self.bytes = bytes
  }

  /// A fresh random key from `randombytes_buf`.
  public static func random() -> SymmetricKey {
    SymmetricKey(SecureBytes.random(count: byteCount))
  }

  /// Always `<redacted>`.
  public var description: String { "<redacted>" }
}

/// A 24-byte XChaCha20-Poly1305 nonce, random per encryption.
public struct Nonce: Sendable, Equatable {
  /// Nonce length: `crypto_aead_xchacha20poly1305_ietf_NPUBBYTES` (24).
  public static let byteCount = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
  /// The nonce bytes (not secret).
  public let bytes: [UInt8]

  /// Wraps nonce bytes.
  ///
  /// - Throws: `CryptoError.wrongLength` unless exactly 24 bytes (a record with a short nonce is
  ///   damaged).
  public init(_ bytes: [UInt8]) throws {
    guard bytes.count == Self.byteCount else {
      throw CryptoError.wrongLength(material: .nonce, expected: Self.byteCount, found: bytes.count)
    }
    self.bytes = bytes
  }

  /// A fresh random nonce (`randombytes_buf`); 192 bits make random nonces safe to use.
  public static func random() -> Nonce {
    _ = Sodium.ready
    var out = [UInt8](repeating: 0, count: byteCount)
    randombytes_buf(&out, byteCount)
    return Nonce(unchecked: out)
  }

  private init(unchecked: [UInt8]) { self.bytes = unchecked }
}

/// A 16-byte Argon2id salt (`crypto_pwhash_SALTBYTES`), random per keyslot.
public struct Salt: Sendable, Equatable {
  /// Salt length in bytes (16).
  public static let byteCount = Int(crypto_pwhash_SALTBYTES)
  /// The salt bytes (not secret).
  public let bytes: [UInt8]

  /// Wraps salt bytes.
  ///
  /// - Throws: `CryptoError.wrongLength` unless exactly 16 bytes (salts live in the header).
  public init(_ bytes: [UInt8]) throws {
    guard bytes.count == Self.byteCount else {
      throw CryptoError.wrongLength(material: .salt, expected: Self.byteCount, found: bytes.count)
    }
    self.bytes = bytes
  }

  /// A fresh random salt.
  public static func random() -> Salt {
    _ = Sodium.ready
    var out = [UInt8](repeating: 0, count: byteCount)
    randombytes_buf(&out, byteCount)
    return Salt(unchecked: out)
  }

  private init(unchecked: [UInt8]) { self.bytes = unchecked }
}
