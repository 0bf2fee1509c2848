import CSodium

/// One `crypto_secretstream_xchacha20poly1305` stream (libsodium's secretstream: XChaCha20 with
/// a per-message Poly1305 tag, a counter that orders the messages and a tag that marks the end).
///
/// The state, which holds the stream's key, lives in guarded memory and is wiped with it.
/// Each message's ciphertext is its plaintext plus `overhead` bytes.
public final class SecretStream {
  /// The header a pushing stream starts with, which a pulling one needs (24 bytes).
  public static let headerByteCount = Int(crypto_secretstream_xchacha20poly1305_HEADERBYTES)
  /// Ciphertext bytes beyond each message's plaintext (17: an encrypted tag byte and the MAC).
  public static let overhead = Int(crypto_secretstream_xchacha20poly1305_ABYTES)

  /// The tag of a message that is not the last (`TAG_MESSAGE`, 0).
  public static let messageTag = UInt8(crypto_secretstream_xchacha20poly1305_TAG_MESSAGE)
  /// The tag of the last message (`TAG_FINAL`, 3).
  public static let finalTag = UInt8(crypto_secretstream_xchacha20poly1305_TAG_FINAL)

  private let state: SecureBytes

  private var statePointer: UnsafeMutablePointer<crypto_secretstream_xchacha20poly1305_state> {
    state.pointer.assumingMemoryBound(to: crypto_secretstream_xchacha20poly1305_state.self)
  }

  private init() {
    _ = Sodium.ready
    state = SecureBytes(count: crypto_secretstream_xchacha20poly1305_statebytes())
  }

  /// A stream to push messages into under `key`
  /// (`crypto_secretstream_xchacha20poly1305_init_push`, which draws a random header).
  ///
  /// - Returns: the stream and its header (`headerByteCount` bytes).
  public static func pushing(key: SymmetricKey) -> (stream: SecretStream, header: [UInt8]) {
    let stream = SecretStream()
    var header = [UInt8](repeating: 0, count: headerByteCount)
    _ = crypto_secretstream_xchacha20poly1305_init_push(
      stream.statePointer, &header, key.bytes.bytePointer)
    return (stream, header)
  }

  /// A stream to pull the messages of the stream that began with `header` under `key`
  /// (`crypto_secretstream_xchacha20poly1305_init_pull`).
  ///
  /// - Throws: `CryptoError.noStreamHeader` or `.malformedStreamHeader` naming `what`.
  public static func pulling(key: SymmetricKey, header: [UInt8], what: String) throws
    -> SecretStream
  {
    guard header.count == headerByteCount else {
      throw CryptoError.noStreamHeader(object: what)
    }
    let stream = SecretStream()
    guard
      crypto_secretstream_xchacha20poly1305_init_pull(
        stream.statePointer, header, key.bytes.bytePointer) == 0
    else { throw CryptoError.malformedStreamHeader(object: what) }
    return stream
  }

  /// Encrypts the next message (`crypto_secretstream_xchacha20poly1305_push`), binding
  /// `associatedData`, tagged final when `final`.
  ///
  /// - Returns: the ciphertext, `message.count + overhead` bytes.
  public func push(_ message: UnsafeRawBufferPointer, associatedData: [UInt8], final: Bool)
    -> [UInt8]
  {
    var out = [UInt8](repeating: 0, count: message.count + Self.overhead)
    _ = crypto_secretstream_xchacha20poly1305_push(
      statePointer, &out, nil, message.baseAddress?.assumingMemoryBound(to: UInt8.self),
      UInt64(message.count), associatedData, UInt64(associatedData.count),
      final ? Self.finalTag : Self.messageTag)
    return out
  }

  /// Decrypts the next message (`crypto_secretstream_xchacha20poly1305_pull`) into the start of
  /// `plaintext`, which must hold at least `ciphertext.count - overhead` bytes.
  ///
  /// - Returns: the plaintext's length and the message's tag.
  /// - Throws: `CryptoError.wrongPieceLength` or `.authenticationFailed` naming `what` when the message is too short, too long for
  ///   `plaintext`, or fails authentication (modified, moved, from another stream or key).
  public func pull(
    _ ciphertext: UnsafeRawBufferPointer, associatedData: [UInt8], into plaintext: SecureBytes,
    what: String
  ) throws -> (count: Int, tag: UInt8) {
    guard ciphertext.count >= Self.overhead, ciphertext.count - Self.overhead <= plaintext.count
    else { throw CryptoError.wrongPieceLength(object: what) }
    var length: UInt64 = 0
    var tag: UInt8 = 0
    let rc = crypto_secretstream_xchacha20poly1305_pull(
      statePointer, plaintext.bytePointer, &length, &tag,
      ciphertext.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(ciphertext.count),
      associatedData, UInt64(associatedData.count))
    guard rc == 0 else { throw CryptoError.authenticationFailed(object: what) }
    return (Int(length), tag)
  }
}
