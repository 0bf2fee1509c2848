/// What a primitive found wrong with a box or a stream it was given (`Damage.sealed`).
public enum SealedDamage: Equatable, Sendable {
  /// Shorter than its construction's overhead (nonce and tag).
  case truncated
  /// Its AEAD, sealed-box or secretstream verification failed.
  case failedAuthentication
  /// A content stream without its secretstream header.
  case noStreamHeader
  /// A secretstream header libsodium refused.
  case malformedStreamHeader
  /// A stream piece shorter than its tag or longer than the stream's piece size.
  case wrongPieceLength
}
