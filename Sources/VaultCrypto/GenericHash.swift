import CSodium

/// Keyed BLAKE2b (`crypto_generichash`, RFC 7693) used as a PRF and MAC.
public enum GenericHash {
  /// Keyed BLAKE2b of `parts` concatenated, `outputLength` bytes (16...64), into guarded memory.
  public static func keyedSecret(key: SecureBytes, parts: [[UInt8]], outputLength: Int = 32)
    -> SecureBytes
  {
    let out = SecureBytes(count: outputLength, packed: true)
    key.withBytes { key in
      hash(key: key, outputLength: outputLength, into: out.pointer) { state in
        for part in parts { _ = crypto_generichash_update(state, part, UInt64(part.count)) }
      }
    }
    return out
  }

  /// Keyed BLAKE2b of `parts` concatenated, `outputLength` bytes, as a public value (index, MAC).
  public static func keyed(key: SecureBytes, parts: [[UInt8]], outputLength: Int = 32) -> [UInt8] {
    key.withBytes { publicHash(key: $0, parts: parts, outputLength: outputLength) }
  }

  /// BLAKE2b of `parts` under `key` (empty: unkeyed) into an ordinary array.
  private static func publicHash(
    key: UnsafeRawBufferPointer, parts: [[UInt8]], outputLength: Int
  ) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: outputLength)
    out.withUnsafeMutableBytes { target in
      guard let base = target.baseAddress else { return }
      hash(key: key, outputLength: outputLength, into: base) { state in
        for part in parts { _ = crypto_generichash_update(state, part, UInt64(part.count)) }
      }
    }
    return out
  }

  /// Keyed BLAKE2b of `prefix || secret` where the secret (such as an Argon2id output) stays in
  /// guarded memory; 32 bytes.
  public static func keyedSecret(key: SecureBytes, prefix: [UInt8], secret: SecureBytes)
    -> SymmetricKey
  {
    let out = SecureBytes(count: SymmetricKey.byteCount, packed: true)
    key.withBytes { key in
      hash(key: key, outputLength: SymmetricKey.byteCount, into: out.pointer) { state in
        _ = crypto_generichash_update(state, prefix, UInt64(prefix.count))
        _ = crypto_generichash_update(state, secret.bytePointer, UInt64(secret.count))
      }
    }
    return SymmetricKey(out)
  }

  /// Unkeyed BLAKE2b of `parts` concatenated, `outputLength` bytes: a digest of public data.
  public static func hash(parts: [[UInt8]], outputLength: Int = 32) -> [UInt8] {
    publicHash(
      key: UnsafeRawBufferPointer(start: nil, count: 0), parts: parts, outputLength: outputLength)
  }

  /// Unkeyed BLAKE2b of `prefix || secret`, `outputLength` bytes (16...64), where the secret
  /// stays in guarded memory: a public fingerprint of a secret kept inside a sealed record.
  public static func hash(prefix: [UInt8], secret: SecureBytes, outputLength: Int) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: outputLength)
    out.withUnsafeMutableBytes { target in
      guard let base = target.baseAddress else { return }
      hash(
        key: UnsafeRawBufferPointer(start: nil, count: 0), outputLength: outputLength, into: base
      ) { state in
        _ = crypto_generichash_update(state, prefix, UInt64(prefix.count))
        _ = crypto_generichash_update(state, secret.bytePointer, UInt64(secret.count))
      }
    }
    return out
  }

  /// Runs init, `absorb`, final, with `key` (empty: unkeyed).
  ///
  /// BLAKE2b's state (64-byte aligned, which Swift imports as opaque) lives on the stack for the
  /// one call and is wiped with `sodium_memzero` before it returns, as libsodium's one-shot
  /// `crypto_generichash` keeps its own: a guarded allocation per hash (a mapping, guard pages,
  /// `mlock`) cost more than the rest of a `vault get`.
  private static func hash(
    key: UnsafeRawBufferPointer, outputLength: Int, into out: UnsafeMutableRawPointer,
    absorb: (OpaquePointer) -> Void
  ) {
    _ = Sodium.ready
    withUnsafeTemporaryAllocation(
      byteCount: (crypto_generichash_statebytes() + 63) / 64 * 64, alignment: 64
    ) { memory in
      guard let base = memory.baseAddress else { return }
      let state = OpaquePointer(base)
      _ = crypto_generichash_init(
        state, key.baseAddress?.assumingMemoryBound(to: UInt8.self), key.count, outputLength)
      absorb(state)
      _ = crypto_generichash_final(state, out.assumingMemoryBound(to: UInt8.self), outputLength)
      sodium_memzero(base, memory.count)
    }
  }

  /// Keyed BLAKE2b (`crypto_generichash_init`/`update`/`final`, RFC 7693) of bytes that arrive
  /// in pieces (a streamed content), 32 bytes; the state is in guarded memory, wiped on release.
  public final class Stream {
    private let memory: SecureBytes
    private var state: OpaquePointer { OpaquePointer(memory.pointer) }

    /// A hash keyed with `key` (16 to 64 bytes), begun with `prefix`.
    public init(key: SecureBytes, prefix: [UInt8] = []) {
      _ = Sodium.ready
      memory = SecureBytes(count: (crypto_generichash_statebytes() + 63) / 64 * 64)
      key.withBytes { k in
        _ = crypto_generichash_init(
          state, k.baseAddress?.assumingMemoryBound(to: UInt8.self), k.count, 32)
      }
      _ = crypto_generichash_update(state, prefix, UInt64(prefix.count))
    }

    /// Absorbs `bytes`.
    public func update(_ bytes: UnsafeRawBufferPointer) {
      guard let base = bytes.baseAddress else { return }
      _ = crypto_generichash_update(
        state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
    }

    /// The 32-byte hash; the stream is done after it.
    public func finish() -> [UInt8] {
      var out = [UInt8](repeating: 0, count: 32)
      _ = crypto_generichash_final(state, &out, 32)
      return out
    }
  }

  /// Keyed BLAKE2b of many public messages under one key, reusing one guarded state: for the
  /// hashes of thousands of rows, where a guarded allocation per hash would dominate.
  public final class Hasher {
    private let key: SecureBytes
    private let memory: SecureBytes

    /// A hasher keyed with `key` (16 to 64 bytes).
    public init(key: SecureBytes) {
      _ = Sodium.ready
      self.key = key
      memory = SecureBytes(count: (crypto_generichash_statebytes() + 63) / 64 * 64)
    }

    /// Keyed BLAKE2b, 32 bytes, of what `absorb` feeds to the function it is given (bytes that
    /// need not be gathered in one array first), as a public value.
    public func hash(_ absorb: ((UnsafeRawBufferPointer) -> Void) -> Void) -> [UInt8] {
      let state = OpaquePointer(memory.pointer)
      var out = [UInt8](repeating: 0, count: 32)
      key.withBytes { k in
        _ = crypto_generichash_init(
          state, k.baseAddress?.assumingMemoryBound(to: UInt8.self), k.count, 32)
      }
      absorb { bytes in
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        _ = crypto_generichash_update(
          state, base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
      }
      _ = crypto_generichash_final(state, &out, 32)
      return out
    }

    /// Keyed BLAKE2b of `parts` concatenated, 32 bytes, as a public value; the state is wiped
    /// with the hasher.
    public func hash(_ parts: [[UInt8]]) -> [UInt8] {
      let state = OpaquePointer(memory.pointer)
      var out = [UInt8](repeating: 0, count: 32)
      key.withBytes { k in
        _ = crypto_generichash_init(
          state, k.baseAddress?.assumingMemoryBound(to: UInt8.self), k.count, 32)
      }
      for part in parts { _ = crypto_generichash_update(state, part, UInt64(part.count)) }
      _ = crypto_generichash_final(state, &out, 32)
      return out
    }
  }
}
