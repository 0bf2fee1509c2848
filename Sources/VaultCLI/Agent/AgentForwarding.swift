import CPlatform
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// The signal to pass on to the agent's worker, written into this pipe by the handler.
nonisolated(unsafe) private var forwardedSignalPipe: Int32 = -1

private func forwardSignalHandler(_ signal: Int32) {
  var byte = UInt8(truncatingIfNeeded: signal)
  _ = write(forwardedSignalPipe, &byte, 1)
}

/// The client side of a command the unlock agent runs.
///
/// When the agent holds the vault, the command line goes to it with this process's standard
/// descriptors, working folder, terminal and PIN descriptor, and this process waits, passing on
/// Ctrl-C and the like, and exits as the command did. When the agent does not hold the vault (or
/// none runs), the command runs here.
enum AgentForwarding {
  /// The signals passed on to the running command.
  static let passedOn = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

  /// Runs the command through the agent and returns its exit code; nil when it must run here
  /// (no agent, the vault not held, or this process is the agent's worker).
  ///
  /// With a session token (`VAULT_SESSION`), the request goes to the agent the token names and
  /// carries its secret, and only that session's grant serves it; a token that is not one of
  /// this release's runs here, where the command says so.
  ///
  /// - Parameters:
  ///   - input: the command's standard input, this process's by default.
  ///   - output: the command's standard output, this process's by default.
  /// - Throws: `VaultError.storage` when the agent ended while it ran the command;
  ///   `.programNotStarted` when a program `vault run` handed back cannot be started; as
  ///   `AgentSocket.connect`.
  static func run(
    _ context: Context, arguments: [String], input: Int32 = 0, output: Int32 = 1
  ) throws -> Int32? {
    // A closed standard descriptor would be taken by the socket itself: run here, where the
    // command reports it as it always did.
    guard context.session == nil, (0...2).allSatisfy({ fcntl($0, F_GETFD) != -1 }) else {
      return nil
    }
    var token: SessionToken?
    if let text = context.sessionToken, !text.isEmpty {
      guard case .token(let parsed) = SessionToken.parse(text) else { return nil }
      token = parsed
    }
    let socket: AgentSocket
    do {
      let found =
        try token.map { try AgentSocket.connect(folder: $0.folder) }
        ?? AgentSocket.connect(context.environment)
      guard let connected = found else { return nil }
      socket = connected
    } catch let error as VaultError {
      // Nothing went to a listener that is not vault's agent: the command runs here, and says
      // what it found.
      guard case .agentImpostor = error else { throw error }
      Output.error("vault: warning: " + ExitStatus.report(error).message + "; running here")
      return nil
    }
    let cwd = vault_open_folder_path(".")
    guard cwd >= 0 else { return nil }
    defer { close(cwd) }
    var terminal: Int32 = -1
    if let opened = context.terminal { terminal = fcntl(opened.fd, F_DUPFD_CLOEXEC, 3) }
    defer { if terminal >= 0 { close(terminal) } }
    let request = AgentRunRequest(
      path: AgentMessage.absolutePath(context.vaultPath), arguments: arguments,
      environment: context.environment.variables, umask: UInt32(Hardening.inheritedUmask),
      hasTerminal: terminal >= 0, pinFD: context.pinFD ?? -1, token: token?.secret)
    // The --pin-fd descriptor never crosses the socket (vault(1) SECURITY): an agent that holds
    // the vault needs no PIN, and a command of its that would ask for one hands the command
    // back (`runHere`) to run in this process.
    var descriptors: [Int32] = [input, output, 2, cwd]
    if terminal >= 0 { descriptors.append(terminal) }
    do {
      try socket.send(.run(request), descriptors: descriptors)
    } catch {
      return nil
    }
    return try wait(socket, pinFD: context.pinFD)
  }

  /// Waits for the outcome, passing signals on, and a line of `pinFD` when the command asks.
  private static func wait(_ socket: AgentSocket, pinFD: Int32?) throws -> Int32? {
    var fds: [Int32] = [-1, -1]
    _ = vault_pipe_cloexec_nonblock(&fds)
    forwardedSignalPipe = fds[1]
    // A signal this process was started ignoring (a background job's SIGINT) stays ignored.
    let saved = SavedSignals(passedOn)
    for number in passedOn where vault_signal_ignored(number) != 1 {
      signal(number, forwardSignalHandler)
    }
    defer {
      saved.restore()
      close(fds[0])
      close(fds[1])
    }
    var sentSignal: Int32 = 0
    var outputBegan = false
    while true {
      var watched = [
        pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0),
        pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0),
      ]
      if poll(&watched, 2, -1) < 0 {
        if errno == EINTR { continue }
        throw CommandFailed(
          "cannot wait for the unlock agent: \(String(cString: strerror(errno)))")
      }
      if watched[1].revents != 0 {
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1 {
          sentSignal = Int32(byte)
          try? socket.send(.signal(sentSignal))
        }
      }
      guard watched[0].revents != 0 else { continue }
      let message: AgentMessage
      let descriptors: [Int32]
      do {
        (message, descriptors) = try socket.receive(capacity: 1)
      } catch {
        if sentSignal != 0 { return 128 + sentSignal }
        throw CommandFailed(
          outputBegan
            ? "the unlock agent ended while the command wrote its output, so the output may be"
              + " incomplete; run it again"
            : "the unlock agent ended while it ran the command, which may or may not have"
              + " finished; check, and run it again if needed")
      }
      if case .lineWanted = message, let reply = descriptors.first {
        passLine(from: pinFD, to: reply)
        continue
      }
      descriptors.forEach { close($0) }
      switch message {
      case .notHeld, .runHere: return nil
      case .outputBegan: outputBegan = true
      case .exited(let code): return code
      case .signalled(let number):
        if outputBegan && number != sentSignal && number != SIGPIPE {
          Output.error(
            "vault: error: the command was ended by signal \(number) after its output began, so"
              + " the output may be incomplete")
        }
        // The shell learns of the signal as if this process had received it.
        for handler in passedOn { signal(handler, SIG_DFL) }
        signal(number, SIG_DFL)
        raise(number)
        return 128 + number
      case .exec(let path, let arguments, let environment):
        try replace(path: path, arguments: arguments, environment: environment)
      default:
        throw CommandFailed("the unlock agent answered out of turn")
      }
    }
  }

  /// Passes one line of `pinFD` to the worker through `reply`, byte by byte with its newline, and
  /// closes `reply`; nothing when there is no descriptor or it has ended.
  ///
  /// At most one byte past `LineReader.maximum` is passed, so the worker's read of it ends as a
  /// read of `pinFD` in this process would; nothing past the newline is consumed. Only a listener
  /// identified as vault's agent asks (vault(1) SECURITY).
  private static func passLine(from pinFD: Int32?, to reply: Int32) {
    defer { close(reply) }
    guard let pinFD else { return }
    var passed = 0
    while passed <= LineReader.maximum + 1 {
      var byte: UInt8 = 0
      let n = read(pinFD, &byte, 1)
      if n < 0 && errno == EINTR { continue }
      guard n == 1 else { return }
      let newline = byte == 10
      var sent = -1
      repeat { sent = send(reply, &byte, 1, Int32(MSG_NOSIGNAL)) } while sent < 0 && errno == EINTR
      byte = 0
      if sent != 1 || newline { return }
      passed += 1
    }
  }

  /// `vault run`'s last step, as `RunCommand` does it outside the agent.
  private static func replace(path: String, arguments: [String], environment: [String]) throws
    -> Never
  {
    for handler in passedOn { signal(handler, SIG_DFL) }
    Hardening.restoreInherited()
    guard vault_drop_group() == 0 else {
      throw VaultError.programNotStarted(
        arguments.first ?? path, reason: String(cString: strerror(errno)))
    }
    _ = vault_cloexec_from(3)
    let argv = CStringVector(arguments)
    let envp = CStringVector(environment)
    execve(path, argv.pointers, envp.pointers)
    if errno == ENOEXEC {
      let shell = CStringVector(["/bin/sh", path] + arguments.dropFirst())
      execve("/bin/sh", shell.pointers, envp.pointers)
    }
    let reason = errno
    Hardening.apply()
    throw VaultError.programNotStarted(
      arguments.first ?? path, reason: String(cString: strerror(reason)))
  }
}

/// Starts the agent when none listens (`vault unlock`).
enum AgentLauncher {
  /// Refuses, before any prompt, a socket path that a Unix socket cannot have.
  ///
  /// - Throws: `VaultError.storage` naming the path and the limit (107 bytes on Linux).
  static func checkSocketPath(_ environment: VaultEnvironment) throws {
    let path = AgentSocket.path(environment)
    guard path.utf8.count <= Int(vault_unix_path_limit()) else {
      throw CommandFailed(
        "the agent's socket path \(path) is longer than \(vault_unix_path_limit()) bytes; set"
          + " XDG_RUNTIME_DIR to a shorter folder")
    }
  }

  /// What of a client's environment an agent starts with.
  ///
  /// Where things are (`HOME`, `PATH`, `TMPDIR`, `XDG_*`), its locale and time zone, and vault's
  /// own settings (`VAULT_*`) but `VAULT_SESSION`; nothing else, so a secret a program of
  /// `vault run` passed on does not live on in the agent. A command it runs gets its own
  /// client's environment.
  static func agentEnvironment(_ variables: [String: String]) -> [String: String] {
    variables.filter { name, _ in
      guard name != "VAULT_SESSION" else { return false }
      return ["HOME", "PATH", "TMPDIR", "LANG", "LANGUAGE", "TZ", "USER", "LOGNAME"].contains(name)
        || name.hasPrefix("LC_") || name.hasPrefix("XDG_") || name.hasPrefix("VAULT_")
    }
  }

  /// Seconds `ensureRunning` waits for a new agent's socket.
  static let startTimeout = 5.0

  /// Returns once an agent of `environment` accepts connections, starting one when needed.
  ///
  /// The agent is this executable as `vault __agent`, in a session of its own (no controlling
  /// terminal), its standard descriptors on /dev/null, no other descriptor, and
  /// `agentEnvironment` of this environment. The folder is recorded (`AgentFolders.record`) so
  /// that `vault lock` reaches it.
  ///
  /// - Throws: `VaultError.storage` when it cannot be started or does not listen in time;
  ///   as `AgentSocket.connect`.
  static func ensureRunning(_ environment: VaultEnvironment) throws {
    if try AgentSocket.connect(environment) != nil { return }
    try checkSocketPath(environment)
    try PrivateFiles.ensurePrivateDirectory(AgentSocket.folder(environment))
    // vault itself: it keeps a set-group-id install's group, which identifies it to clients.
    let pid: pid_t
    do {
      pid = try Spawn(
        executable: RunScope.current.executable, arguments: ["vault", "__agent"],
        environment: agentEnvironment(environment.variables),
        descriptors: [
          (0, .devNull(writable: false)), (1, .devNull(writable: true)),
          (2, .devNull(writable: true)),
        ],
        newSession: true, signals: .inherited, keepsGroup: true
      ).start()
    } catch {
      throw CommandFailed("cannot start the unlock agent: \(error.reason)")
    }
    AgentFolders.record(AgentSocket.folder(environment), environment: environment)
    let clock = Clock(variables: [:])
    let deadline = clock.bootNow + startTimeout
    while clock.bootNow < deadline {
      if try AgentSocket.connect(environment) != nil { return }
      var status: Int32 = 0
      // An agent that ended at once with 0 found another one serving: wait for that one.
      if waitpid(pid, &status, WNOHANG) == pid, status != 0 {
        throw CommandFailed("the unlock agent ended as it started")
      }
      usleep(5000)
    }
    throw CommandFailed("the unlock agent did not start listening within 5 seconds")
  }
}
