import CPlatform
import Foundation
import Glibc
import VaultCore

/// Entry point of the `vault` executable: hardening, then the command table runs the command.
public enum VaultMain {
  /// Runs `vault` with `arguments` (without the program name) and returns the exit code.
  public static func run(_ arguments: [String], environment: [String: String]) -> Int32 {
    Hardening.apply()
    return CommandRunner.run(
      arguments, program: VaultCommands.program, environment: environment,
      prepare: { EditFolder.removeStale($0.environment) })
  }
}

/// Process hardening done before anything else: no core dumps (`RLIMIT_CORE` 0,
/// `PR_SET_DUMPABLE` 0), a 077 umask, SIGPIPE ignored so a closed pipe is an `EPIPE` we handle, and
/// SIGXFSZ ignored so a file-size limit is an `EFBIG` reported as an error, not a silent death.
enum Hardening {
  /// What the process inherited and `apply` changed (the umask, SIGPIPE's and SIGXFSZ's
  /// dispositions), given back before `vault run` replaces itself with another program.
  nonisolated(unsafe) private static var inherited:
    (umask: mode_t, pipe: __sighandler_t?, fileSize: __sighandler_t?)?

  static func apply() {
    _ = vault_disable_core_dumps()
    let mask = umask(0o077)
    let pipe = signal(SIGPIPE, SIG_IGN)
    let fileSize = signal(SIGXFSZ, SIG_IGN)
    inherited = (mask, pipe, fileSize)
  }

  /// Gives back what `apply` changed (core dumps stay off: their hard limit cannot be raised
  /// again) and unblocks every signal.
  static func restoreInherited() {
    if let inherited {
      umask(inherited.umask)
      signal(SIGPIPE, inherited.pipe)
      signal(SIGXFSZ, inherited.fileSize)
    }
    var none = sigset_t()
    sigemptyset(&none)
    sigprocmask(SIG_SETMASK, &none, nil)
  }
}
