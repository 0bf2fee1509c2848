import CSodium

/// One-time libsodium initialisation (`sodium_init`), run before any other libsodium call.
///
/// Every wrapper in this module touches `Sodium.ready` first; `sodium_init` is thread-safe and
/// idempotent, and a `static let` runs it exactly once per process.
enum Sodium {
  static let ready: Void = {
    guard sodium_init() >= 0 else { fatalError("libsodium could not be initialised") }
  }()
}
