import CPlatform
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// A command the unlock agent runs for a client, in a child it forked: the client's standard
/// descriptors, working folder, terminal and PIN descriptor, the client's environment and
/// umask, and the one master key held for the vault the request named (`HeldKey`).
///
/// The worker is not dumpable (fork keeps the agent's setting) and locks the key's memory again
/// (fork does not pass locks on). `vault run` hands its final command line back to the client,
/// which replaces itself with it (`AgentMessage.exec`), so the program runs in the user's shell.
enum AgentWorker {
  /// Runs `body` (the worker) on a new thread of the forked child; never returns.
  ///
  /// A child forked from the agent keeps, on its one thread, the agent's thread id as the Swift
  /// runtime cached it for its locks (priority-inheritance futexes that name their owner): a
  /// second thread of the worker (a parallel scan, a pipe drained for git) that contends for a
  /// lock that thread holds then spins for ever, as a `list` in a session once did. On a new
  /// thread the id is its own; the forked thread only waits for it, every signal blocked.
  static func runOnFreshThread(_ body: @escaping () -> Never) -> Never {
    final class Box {
      let body: () -> Never
      init(_ body: @escaping () -> Never) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    let failed = vault_run_on_fresh_thread(
      { raw in
        guard let raw else { return nil }
        Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
      }, context)
    // No thread could be had: run here, as before.
    if failed != 0 { Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body() }
    exit(ExitCode.failure.rawValue)
  }

  /// Sets the worker up and runs the command; never returns.
  static func run(
    _ request: AgentRunRequest, descriptors: [Int32], connection: Int32, held: HeldKey?,
    environment: VaultEnvironment
  ) -> Never {
    for number in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD] { signal(number, SIG_DFL) }
    var none = sigset_t()
    sigemptyset(&none)
    sigprocmask(SIG_SETMASK, &none, nil)
    // Descriptors: 0-2 are the client's; the terminal and the connection keep their (high)
    // numbers, moved out of the PIN descriptor's way first.
    var fds = descriptors
    var link = connection
    let pinFD = request.pinFD
    var keptPINFD: Int32 = -1
    if pinFD > 2 {
      func away(_ fd: inout Int32) {
        guard fd == pinFD else { return }
        fd = fcntl(fd, F_DUPFD_CLOEXEC, pinFD + 1)
      }
      away(&link)
      for index in fds.indices { away(&fds[index]) }
      // The client keeps its PIN descriptor: the number holds /dev/null here, so nothing of the
      // worker's is ever read as a PIN, and a command that would read one is handed back.
      let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
      if null >= 0 {
        dup2(null, pinFD)
        close(null)
        _ = fcntl(pinFD, F_SETFD, FD_CLOEXEC)
      }
      keptPINFD = pinFD
    }
    for (index, fd) in fds.prefix(3).enumerated() { dup2(fd, Int32(index)) }
    guard fchdir(fds[3]) == 0 else {
      Output.error("vault: error: the agent cannot enter the working folder of the command")
      exit(ExitCode.failure.rawValue)
    }
    var terminalFD: Int32 = -1
    if request.hasTerminal { terminalFD = fds[4] }
    for fd in fds.prefix(4) where fd > 2 { close(fd) }
    umask(mode_t(request.umask))
    let socket = AgentSocket(fd: link)
    // The client learns when output began: a death after it leaves output that may be
    // incomplete (review of 0.11.0, item 8).
    let scope = RunScope(programName: "vault")
    scope.beforeFirstWrite = { try? socket.send(.outputBegan) }
    #if DEBUG
      if request.environment["VAULT_TEST_CRASH"] == "agent-after-output" {
        scope.afterFirstWrite = { kill(getppid(), SIGKILL) }
      }
    #endif
    held?.key.bytes.lockAgain()
    let session = WorkerSession(
      heldKey: held, vaultPath: request.path, connection: socket, terminalFD: terminalFD,
      keptPINFD: keptPINFD)
    exit(
      RunScope.$current.withValue(scope) {
        VaultMain.runInWorker(
          request.arguments, environment: request.environment, umask: request.umask,
          session: session)
      })
  }
}
