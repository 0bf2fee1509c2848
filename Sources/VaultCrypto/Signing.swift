import CSodium

/// Ed25519 signatures (RFC 8032) through libsodium's `crypto_sign_*`: a writer's key pair, and
/// the check of a signature against a writer's public key.
public enum Signing {
  /// Public key length in bytes (32).
  public static let publicKeyByteCount = Int(crypto_sign_publickeybytes())
  /// Secret key length in bytes (64: libsodium's seed followed by the public key).
  public static let secretKeyByteCount = Int(crypto_sign_secretkeybytes())
  /// Seed length in bytes (32: RFC 8032's private key).
  public static let seedByteCount = Int(crypto_sign_seedbytes())
  /// Signature length in bytes (64).
  public static let signatureByteCount = Int(crypto_sign_bytes())

  /// A fresh key pair from the OS CSPRNG (`crypto_sign_keypair`); the secret half in guarded
  /// memory.
  public static func generate() -> SigningKeyPair {
    _ = Sodium.ready
    var publicKey = [UInt8](repeating: 0, count: publicKeyByteCount)
    let secretKey = SecureBytes(count: secretKeyByteCount)
    crypto_sign_keypair(&publicKey, secretKey.bytePointer)
    return SigningKeyPair(publicKey: publicKey, checkedSecretKey: secretKey)
  }

  /// The key pair of a 32-byte seed, RFC 8032's private key (`crypto_sign_seed_keypair`).
  ///
  /// - Throws: `CryptoError.wrongLength` when `seed` is not 32 bytes.
  public static func keyPair(seed: SecureBytes) throws -> SigningKeyPair {
    _ = Sodium.ready
    guard seed.count == seedByteCount else {
      throw CryptoError.wrongLength(
        material: .signingSeed, expected: seedByteCount, found: seed.count)
    }
    var publicKey = [UInt8](repeating: 0, count: publicKeyByteCount)
    let secretKey = SecureBytes(count: secretKeyByteCount)
    crypto_sign_seed_keypair(&publicKey, secretKey.bytePointer, seed.bytePointer)
    return SigningKeyPair(publicKey: publicKey, checkedSecretKey: secretKey)
  }

  /// Whether `signature` is `publicKey`'s Ed25519 signature of `message`
  /// (`crypto_sign_verify_detached`, which also refuses non-canonical and small-order values).
  ///
  /// False for a signature that is not 64 bytes or a public key that is not 32.
  public static func verify(
    _ signature: [UInt8], message: UnsafeRawBufferPointer, publicKey: [UInt8]
  ) -> Bool {
    _ = Sodium.ready
    guard signature.count == signatureByteCount, publicKey.count == publicKeyByteCount else {
      return false
    }
    return withStart(of: message) {
      crypto_sign_verify_detached(signature, $0, UInt64(message.count), publicKey) == 0
    }
  }

  /// Calls `body` with the start of `message`, or of a lone byte when `message` has no address
  /// (an empty buffer), since libsodium takes a pointer even for 0 bytes.
  static func withStart<R>(
    of message: UnsafeRawBufferPointer, _ body: (UnsafePointer<UInt8>) -> R
  ) -> R {
    if let base = message.baseAddress { return body(base.assumingMemoryBound(to: UInt8.self)) }
    let empty: UInt8 = 0
    return withUnsafePointer(to: empty) { body($0) }
  }
}

/// An Ed25519 key pair (RFC 8032) that signs with libsodium's `crypto_sign_detached`.
///
/// Printed, the secret key shows as `<redacted>`.
public struct SigningKeyPair: Sendable {
  /// The 32-byte public key.
  public let publicKey: [UInt8]
  /// The 64-byte secret key in libsodium's form, seed then public key, in guarded memory.
  public let secretKey: SecureBytes

  /// The pair of a stored 64-byte secret key, copied into new guarded memory.
  ///
  /// The public key is the secret key's second half (`crypto_sign_ed25519_sk_to_pk`), checked
  /// against the one its seed (`crypto_sign_ed25519_sk_to_seed`) makes with
  /// `crypto_sign_seed_keypair`: signing with a mismatched half could leak the seed.
  ///
  /// - Throws: `CryptoError.wrongLength` when the key is not 64 bytes, `.signingKeyMismatch` when
  ///   its halves do not match.
  public init(secretKey: SecureBytes) throws {
    _ = Sodium.ready
    guard secretKey.count == Signing.secretKeyByteCount else {
      throw CryptoError.wrongLength(
        material: .signingKey, expected: Signing.secretKeyByteCount, found: secretKey.count)
    }
    let seed = SecureBytes(count: Signing.seedByteCount)
    crypto_sign_ed25519_sk_to_seed(seed.bytePointer, secretKey.bytePointer)
    var stored = [UInt8](repeating: 0, count: Signing.publicKeyByteCount)
    crypto_sign_ed25519_sk_to_pk(&stored, secretKey.bytePointer)
    let derived = try Signing.keyPair(seed: seed)
    guard constantTimeEqual(stored, derived.publicKey) else {
      throw CryptoError.signingKeyMismatch
    }
    self.init(publicKey: stored, checkedSecretKey: derived.secretKey)
  }

  /// Wraps a pair libsodium made or that was checked.
  init(publicKey: [UInt8], checkedSecretKey: SecureBytes) {
    self.publicKey = publicKey
    self.secretKey = checkedSecretKey
  }

  /// The 64-byte Ed25519 signature of `message` (`crypto_sign_detached`; deterministic, so the
  /// same message always gives the same signature).
  public func sign(_ message: UnsafeRawBufferPointer) -> [UInt8] {
    var signature = [UInt8](repeating: 0, count: Signing.signatureByteCount)
    Signing.withStart(of: message) {
      _ = crypto_sign_detached(&signature, nil, $0, UInt64(message.count), secretKey.bytePointer)
    }
    return signature
  }
}
