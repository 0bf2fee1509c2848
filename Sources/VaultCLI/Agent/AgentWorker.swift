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
  /// The held key, in a worker; nil in every other process.
  nonisolated(unsafe) static var heldKey: HeldKey?
  /// The client's terminal, in a worker that was given one; -1 otherwise.
  nonisolated(unsafe) static var terminalFD: Int32 = -1
  /// The connection to the client, in a worker; -1 otherwise.
  nonisolated(unsafe) static var connectionFD: Int32 = -1
  /// The same connection, as a socket that sends on it; nil outside a worker.
  nonisolated(unsafe) static var connection: AgentSocket?
  /// The number of the `--pin-fd` descriptor its client keeps (never sent), in a worker; -1
  /// otherwise.
  nonisolated(unsafe) static var keptPINFD: Int32 = -1
  /// The vault file's absolute path the worker was started for.
  nonisolated(unsafe) static var vaultPath = ""

  /// Sets the worker up and runs the command; never returns.
  static func run(
    _ request: AgentRunRequest, descriptors: [Int32], connection: Int32, held: HeldKey,
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
    var next = 4
    if request.hasTerminal {
      terminalFD = fds[next]
      next += 1
    }
    for fd in fds.prefix(4) where fd > 2 { close(fd) }
    umask(mode_t(request.umask))
    connectionFD = link
    let socket = AgentSocket(fd: link)
    self.connection = socket
    // The client learns when output began: a death after it leaves output that may be
    // incomplete (review of 0.11.0, item 8).
    Output.beforeFirstWrite = { try? socket.send(.outputBegan) }
    #if DEBUG
      if request.environment["VAULT_TEST_CRASH"] == "agent-after-output" {
        Output.afterFirstWrite = { kill(getppid(), SIGKILL) }
      }
    #endif
    held.key.bytes.lockAgain()
    heldKey = held
    vaultPath = request.path
    exit(
      VaultMain.runInWorker(
        request.arguments, environment: request.environment, umask: request.umask))
  }

  /// The command needs the PIN its client keeps: the client runs it in its own process
  /// (`AgentMessage.runHere`); the worker ends having done nothing.
  static func handBack() -> Never {
    guard let socket = connection, (try? socket.send(.runHere)) != nil else {
      exit(ExitCode.failure.rawValue)
    }
    exit(ExitCode.success.rawValue)
  }

  /// One line of the `--pin-fd` descriptor the client keeps, for a secret other than the PIN
  /// (an export's passphrase): asked of the client (`AgentMessage.lineWanted`) through a new
  /// socket pair, whose other end it sends; nil when the client's descriptor had ended.
  ///
  /// - Throws: `VaultError.storage` when the pair cannot be made or sent; as
  ///   `LineReader.readLine` (a line longer than 4096 bytes).
  static func clientLine() throws -> SecureBytes? {
    guard let socket = connection else {
      throw VaultError.storage("no client to ask for a line of --pin-fd")
    }
    var pair: [Int32] = [-1, -1]
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair)
        == 0
    else {
      throw VaultError.storage(
        "cannot make a socket pair: \(String(cString: strerror(errno)))")
    }
    defer { close(pair[0]) }
    do {
      try socket.send(.lineWanted, descriptors: [pair[1]])
    } catch {
      close(pair[1])
      throw VaultError.storage("cannot ask the client for a line of --pin-fd")
    }
    close(pair[1])
    return try LineReader.readLine(fd: pair[0])
  }

  /// `vault run` in a worker: sends the program, its arguments and its environment to the
  /// client, which replaces itself with it; then the worker ends.
  static func handOff(path: String, arguments: [String], environment: [String: String]) -> Never {
    guard let socket = connection else { exit(ExitCode.failure.rawValue) }
    let entries = environment.map { $0.key + "=" + $0.value }
    do {
      try socket.send(.exec(path: path, arguments: arguments, environment: entries))
      exit(ExitCode.success.rawValue)
    } catch {
      exit(ExitCode.failure.rawValue)
    }
  }
}
