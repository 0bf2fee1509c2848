import CPlatform
import Glibc

/// The one way vault starts another program (`posix_spawn`).
///
/// The child gets the descriptors the caller maps (0–2 and, for a PIN, one more) and no other
/// (`ChildHygiene.closeInherited`), its own copy of argv and the environment, the signal setup
/// asked for, and never the group of a set-group-id install (`POSIX_SPAWN_RESETIDS`) unless it
/// is vault's own agent.
struct Spawn {
  /// Where one of the child's descriptors comes from.
  enum Source {
    /// A descriptor of this process (duplicated onto the child's).
    case descriptor(Int32)
    /// `/dev/null`, opened for reading or for writing.
    case devNull(writable: Bool)
  }

  /// How the child's signals start.
  enum Signals {
    /// As this process has them (vault's own agent).
    case inherited
    /// SIGPIPE and SIGXFSZ back to their default: vault ignores them for itself, and an ignored
    /// signal would otherwise be inherited by every program it starts.
    case standard
    /// As `standard`, and no signal blocked.
    case standardUnblocked
    /// SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE and SIGXFSZ back to their default and no signal
    /// blocked: a program the user works in on the terminal (the editor).
    case interactive
  }

  /// A start that failed.
  struct Failure: Error {
    /// The error `posix_spawn` returned.
    let code: Int32
    /// Its `strerror` text.
    var reason: String { String(cString: strerror(code)) }
  }

  /// The program's path.
  var executable: String
  /// argv, its name first.
  var arguments: [String]
  /// The whole environment of the child.
  var environment: [String: String]
  /// The child's descriptors, in the order they are put in place.
  var descriptors: [(child: Int32, source: Source)] = []
  /// The working folder, nil for this process's.
  var directory: String?
  /// A new session without a controlling terminal (`POSIX_SPAWN_SETSID`).
  var newSession = false
  /// How the child's signals start.
  var signals = Signals.standard
  /// True only for vault's own agent, which keeps a set-group-id install's group.
  var keepsGroup = false

  /// Starts the program, without waiting for it.
  ///
  /// - Returns: the child's pid.
  /// - Throws: `Failure` with `posix_spawn`'s error.
  func start() throws(Failure) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (child, source) in descriptors {
      switch source {
      case .descriptor(let fd): posix_spawn_file_actions_adddup2(&actions, fd, child)
      case .devNull(let writable):
        posix_spawn_file_actions_addopen(
          &actions, child, "/dev/null", writable ? O_WRONLY : O_RDONLY, 0)
      }
    }
    ChildHygiene.closeInherited(&actions, from: max(3, (descriptors.map(\.child).max() ?? 2) + 1))
    if let directory { _ = vault_spawn_add_chdir(&actions, directory) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    setSignals(&attributes)
    if newSession { _ = vault_spawnattr_setsid(&attributes) }
    if !keepsGroup { _ = vault_spawnattr_resetids(&attributes) }
    let argv = CStringVector(arguments)
    let envp = CStringVector(environment: environment)
    var pid: pid_t = 0
    let rc = withExtendedLifetime((argv, envp)) {
      posix_spawn(&pid, executable, &actions, &attributes, argv.pointers, envp.pointers)
    }
    guard rc == 0 else { throw Failure(code: rc) }
    return pid
  }

  /// glibc's `POSIX_SPAWN_SETSIGDEF` and `POSIX_SPAWN_SETSIGMASK`, which Swift's Glibc module does
  /// not export.
  private static let setSigDefault: Int16 = 0x04
  private static let setSigMask: Int16 = 0x08

  private func setSignals(_ attributes: inout posix_spawnattr_t) {
    let defaults: [Int32]
    let unblocked: Bool
    switch signals {
    case .inherited: return
    case .standard: (defaults, unblocked) = ([SIGPIPE, SIGXFSZ], false)
    case .standardUnblocked: (defaults, unblocked) = ([SIGPIPE, SIGXFSZ], true)
    case .interactive:
      (defaults, unblocked) = ([SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ], true)
    }
    var set = sigset_t()
    sigemptyset(&set)
    for signal in defaults { sigaddset(&set, signal) }
    posix_spawnattr_setsigdefault(&attributes, &set)
    var mask = sigset_t()
    sigemptyset(&mask)
    if unblocked { posix_spawnattr_setsigmask(&attributes, &mask) }
    posix_spawnattr_setflags(&attributes, Self.setSigDefault | (unblocked ? Self.setSigMask : 0))
  }
}
