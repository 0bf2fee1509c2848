import Glibc
import Synchronization

/// How a command waits while another process holds the vault file's lock (SQLite's busy
/// handler): a long `vault import` or `vault export` holds it for as long as it runs.
///
/// A command waits up to `limit` seconds, polling at 1 ms growing to 100 ms; after 1 s it calls
/// `waitingHandler` once (the command line says on standard error that it is waiting). Past the
/// limit SQLite reports the file busy, which is `VaultError.busy`.
public enum FileLockWait {
  /// The longest wait in seconds (10 minutes).
  public static let defaultLimit = 600.0
  /// Seconds of waiting before `waitingHandler` is called.
  public static let announceAfter = 1.0

  /// Called once per run (`rearm`), the first time a wait passes `announceAfter`.
  ///
  /// A process-wide hook the entry point sets before any vault is opened: SQLite calls the busy
  /// handler on whichever thread waits, where no value of the command's can reach.
  nonisolated(unsafe) public static var waitingHandler: (() -> Void)?
  /// Set by the first announcement, on whichever thread waited.
  private static let announced = Atomic<Bool>(false)

  /// Lets the next wait be announced again: called as each run begins.
  public static func rearm() { announced.store(false, ordering: .relaxed) }

  /// The wait of one connection: when its current wait began.
  final class State {
    let limit: Double
    private var start = 0.0

    init(limit: Double) { self.limit = limit }

    /// Whether to try again after the `count`th busy answer (from 0) of one wait, after
    /// sleeping a little.
    func again(_ count: Int32) -> Bool {
      let now = Self.monotonic()
      if count == 0 { start = now }
      let waited = now - start
      guard waited < limit else { return false }
      if waited >= FileLockWait.announceAfter,
        FileLockWait.announced.compareExchange(
          expected: false, desired: true, ordering: .relaxed
        ).exchanged
      {
        FileLockWait.waitingHandler?()
      }
      usleep(useconds_t(min(100_000, 1000 << min(Int(count), 7))))
      return true
    }

    static func monotonic() -> Double {
      var spec = timespec()
      clock_gettime(CLOCK_MONOTONIC, &spec)
      return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
  }
}
