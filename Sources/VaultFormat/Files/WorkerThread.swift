import Glibc

/// One POSIX thread running a closure, joined by its starter: the parallel work of a listing.
///
/// Unlike a dispatch queue, it says when no thread can be had (a `pids.max` of a container, a
/// memory limit that leaves no room for a stack): `start` then returns nil and the caller does
/// the work itself, so a command never waits for a thread that never comes (libdispatch retries
/// thread creation forever).
final class WorkerThread {
  private var thread = pthread_t()

  private init() {}

  /// Starts `body` on a new thread; nil when the system refuses one (`pthread_create` failed,
  /// or in debug builds `VAULT_TEST_NO_THREADS` is set).
  static func start(_ body: @escaping () -> Void) -> WorkerThread? {
    #if DEBUG
      // Tests stand in for a system that refuses every thread.
      if getenv("VAULT_TEST_NO_THREADS") != nil { return nil }
    #endif
    let worker = WorkerThread()
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    let created = pthread_create(
      &worker.thread, nil,
      { raw in
        guard let raw else { return nil }
        let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
        box.body()
        return nil
      }, context)
    guard created == 0 else {
      Unmanaged<Box>.fromOpaque(context).release()
      return nil
    }
    return worker
  }

  /// Waits for the thread to end (call once).
  func join() { pthread_join(thread, nil) }

  /// The closure, carried through `pthread_create`'s one pointer.
  private final class Box {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }
}
