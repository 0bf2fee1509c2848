import CSodium
import Glibc

/// A fixed-size byte buffer in guarded, locked memory (`sodium_malloc`), wiped and freed on release.
///
/// Holds keys, PINs and plaintext secrets. The memory is surrounded by guard pages and `mlock`ed by
/// libsodium; `deinit` calls `sodium_free`, which zeroes it first. Equality is constant-time
/// (`sodium_memcmp`) and `description` never shows the contents.
public final class SecureBytes: @unchecked Sendable, CustomStringConvertible, Equatable {
  /// Start of the buffer, valid for `count` bytes for the lifetime of this object.
  ///
  /// Kept inside the module: callers see the bytes only for the duration of `withBytes` or
  /// `withMutableBytes`.
  let pointer: UnsafeMutableRawPointer
  /// Length in bytes.
  public let count: Int

  /// Allocates `count` zeroed bytes of guarded memory.
  ///
  /// `count` may be 0.
  public init(count: Int) {
    _ = Sodium.ready
    guard let raw = sodium_malloc(max(count, 1)) else {
      fatalError("sodium_malloc failed: out of locked memory")
    }
    sodium_memzero(raw, max(count, 1))
    Self.checkLocked(raw, count: max(count, 1))
    self.pointer = raw
    self.count = count
  }

  /// Called once per process, the first time guarded memory could not be locked.
  ///
  /// `mlock` refuses when `RLIMIT_MEMLOCK` allows no more; the handler gets the soft limit in
  /// bytes (nil when unlimited or unknown): the plaintext in that memory may be written to swap.
  /// Set it once, at the start, before any allocation.
  nonisolated(unsafe) public static var lockFailureHandler: ((_ limit: UInt64?) -> Void)?
  nonisolated(unsafe) private static var lockFailed = false

  /// Locks the allocation again to learn whether it is locked: `sodium_malloc` tries `mlock`
  /// but does not report a refusal; locking locked pages again costs no more of the limit.
  private static func checkLocked(_ raw: UnsafeMutableRawPointer, count: Int) {
    guard !lockFailed, sodium_mlock(raw, count) != 0 else { return }
    lockFailed = true
    var limit = rlimit()
    let known =
      getrlimit(Int32(__RLIMIT_MEMLOCK.rawValue), &limit) == 0 && limit.rlim_cur != rlim_t.max
    lockFailureHandler?(known ? UInt64(limit.rlim_cur) : nil)
  }

  private init(raw: UnsafeMutableRawPointer, count: Int) {
    self.pointer = raw
    self.count = count
  }

  /// Allocates `count` zeroed bytes of guarded memory, for sizes that come from input.
  ///
  /// - Throws: `VaultError.storage` when the memory cannot be had (an address-space limit), where
  ///   `init(count:)` would stop the process.
  public static func allocating(count: Int) throws -> SecureBytes {
    _ = Sodium.ready
    guard count >= 0, let raw = sodium_malloc(max(count, 1)) else {
      throw VaultError.storage("out of memory for \(count) bytes")
    }
    sodium_memzero(raw, max(count, 1))
    checkLocked(raw, count: max(count, 1))
    return SecureBytes(raw: raw, count: count)
  }

  /// Copies `bytes` into guarded memory.
  ///
  /// The caller should wipe its own copy.
  public convenience init<C: Collection>(copying bytes: C) where C.Element == UInt8 {
    self.init(count: bytes.count)
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

  deinit { sodium_free(pointer) }

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

  /// A new buffer holding the first `count` bytes of this one (all of them when fewer).
  public func prefix(_ count: Int) -> SecureBytes {
    let out = SecureBytes(count: min(max(count, 0), self.count))
    out.pointer.copyMemory(from: pointer, byteCount: out.count)
    return out
  }

  /// A new buffer holding the bytes from `offset` to the end (none when `offset` is past it).
  public func suffix(from offset: Int) -> SecureBytes {
    let start = min(max(offset, 0), count)
    let out = SecureBytes(count: count - start)
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

  /// A new buffer of `count` bytes (at least this one's length) starting with these bytes.
  ///
  /// - Throws: `VaultError.storage` when the memory cannot be had.
  public func grown(to count: Int) throws -> SecureBytes {
    let out = try SecureBytes.allocating(count: max(count, self.count))
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
