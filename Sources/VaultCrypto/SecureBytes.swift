import CSodium
import Glibc
import Synchronization

/// A fixed-size byte buffer in guarded, locked memory (`sodium_malloc`), wiped and freed on release.
///
/// Holds keys, PINs and plaintext secrets. The memory is surrounded by guard pages and `mlock`ed by
/// libsodium; `deinit` calls `sodium_free`, which zeroes it first. Equality is constant-time
/// (`sodium_memcmp`) and `description` never shows the contents.
///
/// A buffer made `packed` is a piece of a shared `SecureSlab` (guarded, locked memory holding
/// many small buffers, one mapping for all of them) instead of a mapping of its own; it is zeroed
/// on release. Values read in bulk (the entries of an import) are packed so that tens of
/// thousands of them fit a process's mapping limit; keys are not.
public final class SecureBytes: @unchecked Sendable, CustomStringConvertible, Equatable {
  /// Start of the buffer, valid for `count` bytes for the lifetime of this object.
  ///
  /// Kept inside the module: callers see the bytes only for the duration of `withBytes` or
  /// `withMutableBytes`.
  let pointer: UnsafeMutableRawPointer
  /// Length in bytes.
  public let count: Int
  /// The slab holding a packed buffer (kept alive by it); nil for a buffer of its own.
  private let slab: SecureSlab?

  /// Allocates `count` zeroed bytes of guarded memory, a piece of a shared slab when `packed`
  /// and `count` is at most 64 KiB.
  ///
  /// `count` may be 0. Stops the process when the memory cannot be had.
  public convenience init(count: Int, packed: Bool = false) {
    guard let made = Self.allocate(count: count, packed: packed) else {
      fatalError("sodium_malloc failed: out of locked memory")
    }
    self.init(raw: made.pointer, count: count, slab: made.slab)
  }

  /// The memory for a buffer of `count` bytes, zeroed; nil when it cannot be had.
  private static func allocate(count: Int, packed: Bool)
    -> (pointer: UnsafeMutableRawPointer, slab: SecureSlab?)?
  {
    _ = Sodium.ready
    guard count >= 0 else { return nil }
    if packed, count <= SecureSlab.largestPiece {
      guard let piece = SecureSlab.piece(count: max(count, 1)) else { return nil }
      return (piece.pointer, piece.slab)
    }
    guard let raw = sodium_malloc(max(count, 1)) else { return nil }
    sodium_memzero(raw, max(count, 1))
    checkLocked(raw, count: max(count, 1))
    return (raw, nil)
  }

  /// True when the buffer is a piece of a shared slab.
  public var isPacked: Bool { slab != nil }

  /// Called once per process, the first time guarded memory could not be locked.
  ///
  /// `mlock` refuses when `RLIMIT_MEMLOCK` allows no more; the handler gets the soft limit in
  /// bytes (nil when unlimited or unknown): the plaintext in that memory may be written to swap.
  /// Set it once, at the start, before any allocation.
  nonisolated(unsafe) public static var lockFailureHandler: ((_ limit: UInt64?) -> Void)?
  /// Set by the first refusal, on whichever thread allocates (a stream seals on a second one).
  private static let lockFailed = Atomic<Bool>(false)

  /// Locks the allocation again to learn whether it is locked: `sodium_malloc` tries `mlock`
  /// but does not report a refusal; locking locked pages again costs no more of the limit.
  static func checkLocked(_ raw: UnsafeMutableRawPointer, count: Int) {
    guard !lockFailed.load(ordering: .relaxed), sodium_mlock(raw, count) != 0,
      lockFailed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    else { return }
    var limit = rlimit()
    let known =
      getrlimit(Int32(__RLIMIT_MEMLOCK.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max
    lockFailureHandler?(known ? UInt64(limit.rlim_cur) : nil)
  }

  /// Locks the memory again (`sodium_mlock`).
  ///
  /// A child made by `fork` inherits the pages but not their lock. A refusal goes to
  /// `lockFailureHandler` as at allocation.
  public func lockAgain() { Self.checkLocked(pointer, count: count) }

  private init(raw: UnsafeMutableRawPointer, count: Int, slab: SecureSlab?) {
    self.pointer = raw
    self.count = count
    self.slab = slab
  }

  /// Allocates `count` zeroed bytes of guarded memory, for sizes that come from input; a piece
  /// of a shared slab when `packed` and `count` is at most 64 KiB.
  ///
  /// - Throws: `CryptoError.outOfMemory` when the memory cannot be had (an address-space limit), where
  ///   `init(count:)` would stop the process.
  public static func allocating(count: Int, packed: Bool = false) throws -> SecureBytes {
    guard let made = allocate(count: count, packed: packed) else {
      throw CryptoError.outOfMemory(bytes: count)
    }
    return SecureBytes(raw: made.pointer, count: count, slab: made.slab)
  }

  /// Copies `bytes` into guarded memory (packed as `init(count:packed:)` says).
  ///
  /// The caller should wipe its own copy.
  public convenience init<C: Collection>(copying bytes: C, packed: Bool = false)
  where C.Element == UInt8 {
    self.init(count: bytes.count, packed: packed)
    var index = 0
    for byte in bytes {
      pointer.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
      index += 1
    }
  }

  /// `count` bytes from `randombytes_buf` (the OS CSPRNG through libsodium).
  public static func random(count: Int) -> SecureBytes {
    let out = SecureBytes(count: count)
    randombytes_buf(out.pointer, count)
    return out
  }

  deinit {
    if slab != nil {
      sodium_memzero(pointer, max(count, 1))
    } else {
      sodium_free(pointer)
    }
  }

  /// The start of the buffer as bytes, for libsodium calls.
  var bytePointer: UnsafeMutablePointer<UInt8> {
    pointer.assumingMemoryBound(to: UInt8.self)
  }

  /// Read-only view of the bytes for the duration of `body`.
  public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  /// Mutable view of the bytes for the duration of `body`.
  public func withMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows
    -> R
  {
    try body(UnsafeMutableRawBufferPointer(start: pointer, count: count))
  }

  /// Copies `bytes` into this buffer from `offset` on; traps when they do not fit.
  public func write(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
    precondition(offset >= 0 && bytes.count <= count - offset, "SecureBytes write out of range")
    if let base = bytes.baseAddress {
      (pointer + offset).copyMemory(from: base, byteCount: bytes.count)
    }
  }

  /// A read-only view of the first `count` bytes, valid only while this buffer lives.
  ///
  /// For a reader that hands out one piece at a time and keeps the buffer itself
  /// (`VaultExportOpener.nextPiece`); the view changes when the buffer is written. Prefer
  /// `withBytes`.
  public func unsafeView(count: Int) -> UnsafeRawBufferPointer {
    precondition(count >= 0 && count <= self.count, "SecureBytes view out of range")
    return UnsafeRawBufferPointer(start: pointer, count: count)
  }

  /// Copies all of `source` into this buffer from `offset` on; traps when it does not fit.
  public func write(_ source: SecureBytes, at offset: Int = 0) {
    source.withBytes { write($0, at: offset) }
  }

  /// A new buffer holding the first `count` bytes of this one (all of them when fewer), packed
  /// when this one is.
  public func prefix(_ count: Int) -> SecureBytes { prefix(count, packed: isPacked) }

  /// A new buffer holding the first `count` bytes of this one (all of them when fewer), packed
  /// as `init(count:packed:)` says.
  public func prefix(_ count: Int, packed: Bool) -> SecureBytes {
    let out = SecureBytes(count: min(max(count, 0), self.count), packed: packed)
    out.pointer.copyMemory(from: pointer, byteCount: out.count)
    return out
  }

  /// A new buffer holding the bytes from `offset` to the end (none when `offset` is past it),
  /// packed when this one is.
  public func suffix(from offset: Int) -> SecureBytes {
    let start = min(max(offset, 0), count)
    let out = SecureBytes(count: count - start, packed: isPacked)
    if out.count > 0 { out.pointer.copyMemory(from: pointer + start, byteCount: out.count) }
    return out
  }

  /// A new buffer holding `head` (public bytes such as a label and ids) then `secret`.
  public convenience init(concatenating head: [UInt8], _ secret: SecureBytes) {
    self.init(count: head.count + secret.count)
    head.withUnsafeBytes { bytes in
      if let base = bytes.baseAddress { pointer.copyMemory(from: base, byteCount: bytes.count) }
    }
    if secret.count > 0 {
      (pointer + head.count).copyMemory(from: secret.pointer, byteCount: secret.count)
    }
  }

  /// A new buffer of `count` bytes (at least this one's length) starting with these bytes,
  /// packed when this one is (and it fits a slab).
  ///
  /// - Throws: `CryptoError.outOfMemory` when the memory cannot be had.
  public func grown(to count: Int) throws -> SecureBytes {
    let out = try SecureBytes.allocating(count: max(count, self.count), packed: isPacked)
    out.pointer.copyMemory(from: pointer, byteCount: self.count)
    return out
  }

  /// The byte at `index`; traps outside `0..<count`.
  public subscript(index: Int) -> UInt8 {
    get {
      precondition(index >= 0 && index < count, "SecureBytes index out of range")
      return pointer.load(fromByteOffset: index, as: UInt8.self)
    }
    set {
      precondition(index >= 0 && index < count, "SecureBytes index out of range")
      pointer.storeBytes(of: newValue, toByteOffset: index, as: UInt8.self)
    }
  }

  /// Zeroes the 32 KiB of stack below the caller's frame (`sodium_stackzero`), where functions
  /// that returned may have left copies of a secret (Swift's own temporaries, C libraries'
  /// buffers), so they do not sit in unlocked memory while the command goes on.
  public static func wipeStack() {
    sodium_stackzero(32 * 1024)
  }

  /// A copy of the bytes in ordinary memory; only for data that is about to be encrypted or written.
  public var unprotectedBytes: [UInt8] {
    withBytes { Array($0) }
  }

  /// Constant-time equality (`sodium_memcmp`); buffers of different length are unequal.
  public static func == (lhs: SecureBytes, rhs: SecureBytes) -> Bool {
    lhs.count == rhs.count && sodium_memcmp(lhs.pointer, rhs.pointer, lhs.count) == 0
  }

  /// Always `<redacted>`: secrets never reach logs or error messages.
  public var description: String { "<redacted>" }
}

/// Constant-time comparison of two byte arrays of equal length (`sodium_memcmp`).
///
/// Returns false at once when the lengths differ (length is not secret here).
public func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
  _ = Sodium.ready
  guard lhs.count == rhs.count else { return false }
  if lhs.isEmpty { return true }
  return lhs.withUnsafeBytes { l in
    rhs.withUnsafeBytes { r in
      guard let left = l.baseAddress, let right = r.baseAddress else { return false }
      return sodium_memcmp(left, right, lhs.count) == 0
    }
  }
}

/// Overwrites an ordinary byte array with zeros (`sodium_memzero`) before it is dropped.
public func wipe(_ bytes: inout [UInt8]) {
  bytes.withUnsafeMutableBytes { buffer in
    if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
  }
}
