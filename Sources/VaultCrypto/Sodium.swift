import CSodium

/// One-time libsodium initialisation (`sodium_init`), run before any other libsodium call.
///
/// Every wrapper in this module touches `Sodium.ready` first; `sodium_init` is thread-safe and
/// idempotent, and a `static let` runs it exactly once per process.
enum Sodium {
  static let ready: Void = {
    guard sodium_init() >= 0 else { fatalError("libsodium could not be initialised") }
  }()

  /// `count` bytes from `randombytes_buf` in ordinary memory, for what is random but not secret
  /// (record ids).
  static func randomBytes(count: Int) -> [UInt8] {
    _ = ready
    var out = [UInt8](repeating: 0, count: count)
    out.withUnsafeMutableBytes { if let base = $0.baseAddress { randombytes_buf(base, $0.count) } }
    return out
  }
}
