import CPlatform
import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// Entry point of the `vault` executable: hardening, then the command table runs the command.
public enum VaultMain {
  /// Runs `vault` with `arguments` (without the program name) and returns the exit code.
  ///
  /// Each run has a scope of its own (`RunScope`), so runs in one process share nothing.
  ///
  /// - Parameters:
  ///   - terminal: the terminal to ask on; nil for none (the in-process test harness).
  ///   - executable: the `vault` program background jobs run (the agent, a background sync);
  ///     this process's own unless another program hosts the run (the test harness).
  public static func run(
    _ arguments: [String], environment: [String: String], terminal: String? = "/dev/tty",
    executable: String = "/proc/self/exe"
  ) -> Int32 {
    Hardening.apply()
    let scope = RunScope(programName: "vault", terminalPath: terminal, executable: executable)
    return RunScope.$current.withValue(scope) { runHardened(arguments, environment: environment) }
  }

  /// A command in the unlock agent's worker (`AgentWorker`), already hardened by the agent: a
  /// program it starts gets `umask` back, the client's.
  static func runInWorker(
    _ arguments: [String], environment: [String: String], umask: UInt32, session: WorkerSession
  ) -> Int32 {
    Hardening.inherit(umask: mode_t(umask))
    return runHardened(arguments, environment: environment, session: session)
  }

  private static func runHardened(
    _ arguments: [String], environment: [String: String], session: WorkerSession? = nil
  ) -> Int32 {
    SecureBytes.lockFailureHandler = { limit in
      let shown = limit.map { "its limit is \($0 / 1024) KiB, 'ulimit -l'" } ?? "see 'ulimit -l'"
      Output.error(
        "vault: warning: memory for secrets could not be locked (\(shown)); plaintext may be"
          + " written to swap")
    }
    FileLockWait.waitingHandler = {
      Output.error("vault: waiting for another vault command that is using the vault file...")
    }
    FileLockWait.rearm()
    let status = CommandRunner.run(
      arguments, program: VaultCommands.program, environment: environment, session: session,
      prepare: { EditFolder.removeStale($0.environment) })
    // An answer queued for a prompt this command never showed (a wrong PIN ended it first, say)
    // would otherwise answer a later, unrelated one.
    if let note = SensorGate.waitingAnswersNote() { Output.error(note) }
    return status
  }
}

/// Process hardening done before anything else: no core dumps (`PR_SET_DUMPABLE` 0, and a soft
/// `RLIMIT_CORE` of 0), a 077 umask, SIGPIPE ignored so a closed pipe is an `EPIPE` we handle,
/// SIGXFSZ ignored so a file-size limit is an `EFBIG` reported as an error, not a silent death, and
/// no crash report by the Swift runtime (it prints memory).
///
/// What it changes is saved first, and `restoreInherited` gives it back before `vault run`
/// replaces itself with another program.
enum Hardening {
  /// What the process was started with.
  private struct Inherited {
    var umask: mode_t
    var pipe: sigaction
    var fileSize: sigaction
    var mask: sigset_t
    var core: rlimit
  }

  nonisolated(unsafe) private static var inherited: Inherited?

  static func apply() {
    var saved = Inherited(
      umask: umask(0o077), pipe: sigaction(), fileSize: sigaction(), mask: sigset_t(),
      core: rlimit())
    sigaction(SIGPIPE, nil, &saved.pipe)
    sigaction(SIGXFSZ, nil, &saved.fileSize)
    sigprocmask(SIG_BLOCK, nil, &saved.mask)
    getrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &saved.core)
    inherited = saved
    _ = vault_disable_core_dumps()
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
    // The Swift runtime's crash reporter catches these to print a backtrace with the memory
    // around each register, which may hold a piece of plaintext (Ctrl-\ sends SIGQUIT): the
    // default action ends the process instead, and core dumps are off.
    for crash in Self.crashSignals { signal(crash, SIG_DFL) }
  }

  /// The signals the Swift runtime reports crashes for; vault leaves them their default action.
  static let crashSignals = [SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT]

  /// The umask the process was started with (077 before `apply`).
  static var inheritedUmask: mode_t { inherited?.umask ?? 0o077 }

  /// Records `umask` as the one the process was started with (a worker runs for a client).
  static func inherit(umask: mode_t) { inherited?.umask = umask }

  /// Gives back the umask, the dispositions of SIGPIPE and SIGXFSZ, the signal mask and the
  /// core-file limit the process was started with.
  static func restoreInherited() {
    guard var saved = inherited else { return }
    umask(saved.umask)
    sigaction(SIGPIPE, &saved.pipe, nil)
    sigaction(SIGXFSZ, &saved.fileSize, nil)
    setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &saved.core)
    sigprocmask(SIG_SETMASK, &saved.mask, nil)
  }
}
