/// One piece of plaintext in guarded memory, filled up to its size before it is sealed: the
/// buffer of a `crypto_secretstream_xchacha20poly1305` writer (`StreamSealer`,
/// `VaultExportSealer`), which must hold a full piece back until it knows whether more follows,
/// so that only the last message is tagged final.
public final class PieceBuffer {
  private let piece: SecureBytes
  /// Bytes in the piece now.
  public private(set) var filled = 0

  /// An empty piece of `size` bytes.
  public init(size: Int) { piece = SecureBytes(count: size) }

  /// Appends `bytes`, first handing a full piece to `seal` (and emptying it) whenever more bytes
  /// are to go in.
  ///
  /// - Throws: what `seal` throws.
  public func append(
    _ bytes: UnsafeRawBufferPointer, sealing seal: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      offset += try fill(count: bytes.count - offset, sealing: seal) { target, n in
        target.copyMemory(from: base + offset, byteCount: n)
      }
    }
  }

  /// Appends `count` zero bytes (padding), as `append` does.
  ///
  /// - Throws: what `seal` throws.
  public func appendZeros(_ count: Int, sealing seal: (UnsafeRawBufferPointer) throws -> Void)
    throws
  {
    var left = count
    while left > 0 {
      left -= try fill(count: left, sealing: seal) { target, n in
        target.initializeMemory(as: UInt8.self, repeating: 0, count: n)
      }
    }
  }

  /// Hands the piece as it is to `seal` and empties it: the last message.
  ///
  /// - Throws: what `seal` throws.
  public func flush(sealing seal: (UnsafeRawBufferPointer) throws -> Void) throws {
    try seal(UnsafeRawBufferPointer(start: piece.pointer, count: filled))
    filled = 0
  }

  /// Seals a full piece, then lets `write` put up to `count` bytes at the end of the piece.
  ///
  /// - Returns: the bytes written.
  private func fill(
    count: Int, sealing seal: (UnsafeRawBufferPointer) throws -> Void,
    _ write: (UnsafeMutableRawPointer, Int) -> Void
  ) throws -> Int {
    if filled == piece.count { try flush(sealing: seal) }
    let n = min(piece.count - filled, count)
    write(piece.pointer + filled, n)
    filled += n
    return n
  }
}
