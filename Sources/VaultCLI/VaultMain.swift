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
  static func apply() {
    _ = vault_disable_core_dumps()
    umask(0o077)
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
  }
}
