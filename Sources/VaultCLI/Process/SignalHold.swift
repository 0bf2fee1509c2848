import Glibc

/// Signals held for a stretch that must not be cut short (a commit and its report, a file given
/// its name): one that arrives meanwhile is delivered when the stretch ends.
enum SignalHold {
  /// The interrupts a user or a service manager sends.
  static let interrupts = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// Runs `body` with `signals` blocked (nil: every signal that can be blocked), then restores
  /// the mask it found.
  static func during<R>(_ signals: [Int32]? = nil, _ body: () throws -> R) rethrows -> R {
    var held = sigset_t()
    var previous = sigset_t()
    if let signals {
      sigemptyset(&held)
      for signal in signals { sigaddset(&held, signal) }
    } else {
      sigfillset(&held)
    }
    sigprocmask(SIG_BLOCK, &held, &previous)
    defer { sigprocmask(SIG_SETMASK, &previous, nil) }
    return try body()
  }
}
