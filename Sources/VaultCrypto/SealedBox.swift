import CSodium

/// Anonymous public-key encryption to the vault's journal key (`crypto_box_seal`: X25519,
/// XSalsa20-Poly1305, ephemeral sender key), so entries can be written without unlocking.
public enum SealedBox {
  /// Public key length (32).
  public static let publicKeyByteCount = Int(crypto_box_PUBLICKEYBYTES)
  /// Overhead of a sealed box (48: ephemeral public key + tag).
  public static let overhead = Int(crypto_box_sealbytes())

  /// A fresh X25519 key pair (`crypto_box_keypair`); the secret half in guarded memory.
  public static func keyPair() -> (publicKey: [UInt8], secretKey: SecureBytes) {
    _ = Sodium.ready
    var publicKey = [UInt8](repeating: 0, count: publicKeyByteCount)
    let secretKey = SecureBytes(count: Int(crypto_box_SECRETKEYBYTES))
    crypto_box_keypair(&publicKey, secretKey.pointer.assumingMemoryBound(to: UInt8.self))
    return (publicKey, secretKey)
  }

  /// Seals `message` to `publicKey`; `message.count + 48` bytes.
  public static func seal(_ message: UnsafeRawBufferPointer, to publicKey: [UInt8]) -> [UInt8] {
    _ = Sodium.ready
    var out = [UInt8](repeating: 0, count: message.count + overhead)
    crypto_box_seal(
      &out, message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count),
      publicKey)
    return out
  }

  /// Opens a sealed box with the key pair.
  ///
  /// - Throws: `CryptoError.truncated` or `.authenticationFailed` naming `what`.
  public static func open(
    _ box: [UInt8], publicKey: [UInt8], secretKey: SecureBytes, what: String
  ) throws
    -> SecureBytes
  {
    _ = Sodium.ready
    guard box.count >= overhead else { throw CryptoError.truncated(object: what) }
    let out = SecureBytes(count: box.count - overhead)
    let rc = crypto_box_seal_open(
      out.pointer.assumingMemoryBound(to: UInt8.self), box, UInt64(box.count), publicKey,
      secretKey.pointer.assumingMemoryBound(to: UInt8.self))
    guard rc == 0 else { throw CryptoError.authenticationFailed(object: what) }
    return out
  }
}
