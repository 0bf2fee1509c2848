import CSodium

/// Authenticated encryption with XChaCha20-Poly1305 (IETF construction).
///
/// Wraps `crypto_aead_xchacha20poly1305_ietf_encrypt` / `_decrypt` (draft-irtf-cfrg-xchacha,
/// RFC 8439 Poly1305). A sealed box is `nonce (24 bytes) || ciphertext || tag (16 bytes)`.
public enum AEAD {
  /// Poly1305 tag length in bytes (16).
  public static let tagByteCount = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

  /// Encrypts `plaintext` under `key` with a fresh random nonce, binding `associatedData`.
  ///
  /// - Returns: `nonce || ciphertext || tag`, `24 + plaintext.count + 16` bytes.
  public static func seal(
    _ plaintext: UnsafeRawBufferPointer, key: SymmetricKey, associatedData: [UInt8]
  ) -> [UInt8] {
    let nonce = Nonce.random()
    return nonce.bytes + seal(plaintext, key: key, nonce: nonce, associatedData: associatedData)
  }

  /// Encrypts with an explicit nonce; returns `ciphertext || tag` (no nonce).
  ///
  /// For known-answer tests and callers that store the nonce separately. Never reuse a nonce under
  /// one key.
  public static func seal(
    _ plaintext: UnsafeRawBufferPointer, key: SymmetricKey, nonce: Nonce, associatedData: [UInt8]
  ) -> [UInt8] {
    _ = Sodium.ready
    var out = [UInt8](repeating: 0, count: plaintext.count + tagByteCount)
    var outLength: UInt64 = 0
    let message = plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self)
    _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
      &out, &outLength, message, UInt64(plaintext.count), associatedData,
      UInt64(associatedData.count), nil, nonce.bytes,
      key.bytes.bytePointer)
    return out
  }

  /// Convenience for sealing an ordinary byte array (non-secret or already-exposed plaintext).
  public static func seal(_ plaintext: [UInt8], key: SymmetricKey, associatedData: [UInt8])
    -> [UInt8]
  {
    plaintext.withUnsafeBytes { seal($0, key: key, associatedData: associatedData) }
  }

  /// Opens `nonce || ciphertext || tag` into guarded memory (a piece of a shared slab when
  /// `packed`, for plaintexts opened in bulk).
  ///
  /// - Throws: `CryptoError.truncated` when the box is too short, `.authenticationFailed` when verification fails (wrong key,
  ///   wrong associated data, or modified bytes).
  public static func open(
    _ box: [UInt8], key: SymmetricKey, associatedData: [UInt8], what: @autoclosure () -> String,
    packed: Bool = false
  ) throws -> SecureBytes {
    guard box.count >= Nonce.byteCount + tagByteCount else {
      throw CryptoError.truncated(object: what())
    }
    let nonce = try Nonce(Array(box[0..<Nonce.byteCount]))
    return try open(
      ciphertext: Array(box[Nonce.byteCount...]), key: key, nonce: nonce,
      associatedData: associatedData, what: what(), packed: packed)
  }

  /// Opens `ciphertext || tag` with an explicit nonce.
  ///
  /// - Throws: `CryptoError.truncated` or `.authenticationFailed`.
  public static func open(
    ciphertext: [UInt8], key: SymmetricKey, nonce: Nonce, associatedData: [UInt8],
    what: @autoclosure () -> String, packed: Bool = false
  ) throws -> SecureBytes {
    _ = Sodium.ready
    guard ciphertext.count >= tagByteCount else {
      throw CryptoError.truncated(object: what())
    }
    let out = SecureBytes(count: ciphertext.count - tagByteCount, packed: packed)
    var outLength: UInt64 = 0
    let rc = crypto_aead_xchacha20poly1305_ietf_decrypt(
      out.pointer.assumingMemoryBound(to: UInt8.self), &outLength, nil, ciphertext,
      UInt64(ciphertext.count), associatedData, UInt64(associatedData.count), nonce.bytes,
      key.bytes.bytePointer)
    guard rc == 0 else { throw CryptoError.authenticationFailed(object: what()) }
    return out
  }
}
