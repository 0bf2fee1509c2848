/// What a primitive of this module refuses, as facts: which object (named by the caller), which
/// check, which length.
///
/// No case is a sentence: `VaultError(_:)` in VaultFormat gives each the failure class (an
/// integrity failure, a malformed header, a lack of memory) and the words the vault reports.
public enum CryptoError: Error, Equatable, Sendable {
  /// A box or stream piece shorter than its construction's overhead (nonce and tag): `object`
  /// names it as the caller does ("the vault header", "record 3").
  case truncated(object: String)
  /// AEAD, sealed-box or secretstream verification failed: a wrong key or associated data, or
  /// modified bytes.
  case authenticationFailed(object: String)
  /// A content stream without its 24-byte secretstream header.
  case noStreamHeader(object: String)
  /// A secretstream header libsodium refused (`crypto_secretstream_xchacha20poly1305_init_pull`).
  case malformedStreamHeader(object: String)
  /// A secretstream piece shorter than its tag or longer than the stream's piece size.
  case wrongPieceLength(object: String)
  /// A value of fixed length (`material`) had `found` bytes instead of `expected`.
  case wrongLength(material: Material, expected: Int, found: Int)
  /// A stored Ed25519 secret key whose public half is not the one its seed makes.
  case signingKeyMismatch
  /// An Argon2id cost read from a header outside libsodium's bounds: `parameter` is `opslimit`
  /// or `memlimit`.
  case kdfOutOfBounds(parameter: String, value: UInt64)
  /// An Argon2id profile name whose values are not the profile's own.
  case kdfProfileMismatch(profile: String)
  /// `crypto_pwhash` could not allocate its memory (`mebibytes` MiB).
  case kdfOutOfMemory(mebibytes: UInt64)
  /// Guarded memory (`sodium_malloc`) of `bytes` bytes could not be had.
  case outOfMemory(bytes: Int)

  /// A value of fixed length that primitives check.
  public enum Material: String, Sendable {
    /// An XChaCha20-Poly1305 nonce (24 bytes), stored in front of a box.
    case nonce
    /// An Argon2id salt (16 bytes), stored in a header.
    case salt
    /// An Ed25519 seed (32 bytes).
    case signingSeed = "signing key seed"
    /// An Ed25519 secret key in libsodium's form (64 bytes).
    case signingKey = "signing key"
  }
}
