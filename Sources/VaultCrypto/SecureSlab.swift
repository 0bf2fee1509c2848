import CSodium
import Synchronization

/// One region of guarded memory (`sodium_malloc`, guard pages around it, locked) shared by many
/// small packed `SecureBytes`.
///
/// A process may hold only about 65,000 memory mappings (`vm.max_map_count`) and
/// `sodium_malloc` makes one per buffer, with its guard pages: a source of 30,000 entries read
/// whole needs more. Packed buffers are cut one after another from a slab of `size` bytes, so a
/// slab is one mapping however many buffers it holds. Each piece is zeroed when it is cut and
/// again when its `SecureBytes` is released; the slab itself is freed (and so wiped again by
/// `sodium_free`) once the pool has moved on and its last piece is gone, ARC counting the pieces.
/// Pieces are not reused: a slab is cut from start to end once.
///
/// The guard pages surround the slab, not each piece: a read past the end of one piece would see
/// the next piece rather than fault. Keys therefore keep buffers of their own; packing is for
/// bulk values such as the entries of an import.
final class SecureSlab: @unchecked Sendable {
  /// Bytes in the first slab a process cuts: 64 KiB, what a `vault get` needs, so a command
  /// that reads one entry maps, fills and locks no more.
  static let firstSize = 64 * 1024
  /// Bytes in a slab at most: 1 MiB.
  ///
  /// Each new slab is twice the one before up to this, so a bulk read makes about as many
  /// mappings as with 1 MiB slabs from the start.
  static let largestSize = 1 << 20
  /// The largest piece cut from a slab: 64 KiB (larger buffers get a mapping of their own, so
  /// at most about 1/16 of a full-size slab is left unused at its end).
  static let largestPiece = 64 * 1024
  /// Pieces start on this boundary (bytes), as `malloc`'s do.
  static let alignment = 16

  /// The start of the slab.
  let base: UnsafeMutableRawPointer
  /// Its length in bytes.
  let size: Int
  /// Bytes cut so far; read and written only under `SecureSlab.pool`'s lock.
  private var used = 0

  private init(base: UnsafeMutableRawPointer, size: Int) {
    self.base = base
    self.size = size
  }

  deinit { sodium_free(base) }

  /// The slab pieces are being cut from (nil before the first) and the size of the next one.
  private static let pool = Mutex<(current: SecureSlab?, nextSize: Int)>((nil, firstSize))

  /// A zeroed piece of `count` bytes (1 to `largestPiece`) and the slab that holds it, which
  /// must be kept alive as long as the piece is used; nil when a new slab cannot be had.
  static func piece(count: Int) -> (slab: SecureSlab, pointer: UnsafeMutableRawPointer)? {
    precondition(count >= 1 && count <= largestPiece, "a packed piece is 1 byte to 64 KiB")
    let rounded = (count + alignment - 1) / alignment * alignment
    let cut: (SecureSlab, UnsafeMutableRawPointer, fresh: Bool)? = pool.withLock { state in
      var fresh = false
      var slab: SecureSlab
      if let open = state.current, open.used + rounded <= open.size {
        slab = open
      } else {
        let size = state.nextSize
        guard let raw = sodium_malloc(size) else { return nil }
        slab = SecureSlab(base: raw, size: size)
        state = (slab, min(size * 2, largestSize))
        fresh = true
      }
      let pointer = slab.base + slab.used
      slab.used += rounded
      return (slab, pointer, fresh)
    }
    guard let (slab, pointer, fresh) = cut else { return nil }
    sodium_memzero(pointer, count)
    if fresh { SecureBytes.checkLocked(slab.base, count: slab.size) }
    return (slab, pointer)
  }
}
