import CSodium

/// Randomness from libsodium's generator (`randombytes_buf`, `randombytes_uniform`: the kernel's
/// `getrandom(2)`), for every caller outside this module.
public enum SecureRandom {
  /// `count` random bytes in ordinary memory, for what is random but not secret (record ids,
  /// file-name suffixes).
  public static func bytes(count: Int) -> [UInt8] {
    Sodium.randomBytes(count: count)
  }

  /// A uniform random integer in `0..<bound` without modulo bias (`randombytes_uniform`); 0 when
  /// `bound` is below 2.
  public static func uniform(below bound: UInt32) -> UInt32 {
    _ = Sodium.ready
    return randombytes_uniform(bound)
  }
}

/// Zeroes `count` bytes at `pointer` with `sodium_memzero`, a write the compiler may not elide:
/// for ordinary buffers that briefly held a secret.
public func secureWipe(_ pointer: UnsafeMutableRawPointer, count: Int) {
  sodium_memzero(pointer, count)
}
