import CPlatform
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault __agent`: the per-user unlock agent, started on demand by `vault unlock`.
///
/// One process per user and socket folder (`AgentSocket.folder`, held by an `flock` on
/// `agent.lock`), single-threaded, not dumpable (`Hardening.apply`), in a session of its own with
/// its standard descriptors on /dev/null. It holds master keys (`AgentHoldings`) and runs each
/// command a client forwards in a worker it forks (`AgentWorker`), so the key never leaves its
/// processes: a client gets only what its command prints. Peers of another uid are closed
/// before a byte is read (`SO_PEERCRED`). Sessions are grants it holds, each served only to
/// requests carrying its token (vault(5), SESSIONS). It ends, wiping every key, when it holds
/// neither a plain hold nor a grant any more, and on SIGTERM, SIGINT or SIGHUP.
enum AgentServer {
  /// Seconds an agent that was never handed a key waits before it ends.
  static let startupGrace: Double = 10
  /// Seconds a connected client has to start its request before it is closed on.
  static let requestTimeout = 5.0
  /// Seconds the agent waits for the rest of a request once its first bytes came.
  static let frameTimeout = 1
  /// Connections waiting for their request, at most; the oldest is closed on beyond it.
  static let pendingLimit = 64

}

/// The signal that asked the agent to end, written into `agentStopPipe` by the handler.
nonisolated(unsafe) private var agentStopPipe: Int32 = -1

private func agentStopHandler(_ signal: Int32) {
  var byte = UInt8(truncatingIfNeeded: signal)
  _ = write(agentStopPipe, &byte, 1)
}

/// The agent's poll loop: the listening socket, the stop pipe, and each running command's
/// connection and pidfd.
struct AgentLoop {
  /// A command a worker runs for a connected client.
  struct Job {
    let connection: AgentSocket
    let pid: pid_t
    let pidfd: Int32
    /// The vault it runs on (nil for an unlock through a pinentry, before it holds one).
    let vaultID: VaultID?
    let path: String
    /// True when a session's grant serves it.
    let isGrant: Bool
    /// The client hung up: its connection is no longer polled.
    var clientGone = false
  }

  let listener: Int32
  let socketPath: String
  let environment: VaultEnvironment
  private(set) var socketInode: ino_t = 0
  var holdings = AgentHoldings()
  var jobs: [Job] = []
  /// Connections of this user whose request has not come yet, with when they were accepted: each
  /// is read only once poll says it has bytes, so a silent client blocks nobody.
  var pending: [(connection: AgentSocket, since: Double)] = []
  let started: Double
  private var stopFDs: [Int32] = [-1, -1]

  init(listener: Int32, socketPath: String, environment: VaultEnvironment) {
    self.listener = listener
    self.socketPath = socketPath
    self.environment = environment
    started = Self.realClock.bootNow
    #if DEBUG
      // A test's frozen clock (`VAULT_TEST_BOOTCLOCK`) would fight the clocks its requests
      // carry: the timers are then checked at each request only.
      expiresOnItsOwn = environment.variables["VAULT_TEST_BOOTCLOCK"] == nil
    #endif
    var info = stat()
    if stat(socketPath, &info) == 0 { socketInode = info.st_ino }
  }

  /// The signals that end the agent, through its stop pipe.
  static let stopSignals = [SIGTERM, SIGINT, SIGHUP]

  /// The boot clock, without test overrides.
  private static let realClock = Clock(variables: [:])
  /// Started by a service manager (`--persistent`): holding nothing never ends it.
  var persistent = false
  /// True once a key was handed over: from then on, holding nothing ends the agent.
  private var everHeld = false
  /// False only in a debug build's agent started with a test clock.
  private var expiresOnItsOwn = true

  /// The agent's own clock, for timers nobody asked about.
  private var now: Double { Self.realClock.bootNow }

  mutating func serve() {
    _ = vault_pipe_cloexec_nonblock(&stopFDs)
    agentStopPipe = stopFDs[1]
    for number in Self.stopSignals { signal(number, agentStopHandler) }
    while true {
      if expiresOnItsOwn { holdings.expire(now: now) }
      // Nothing held and nobody waiting: it ends. A client that connected meanwhile (a
      // `hold` just after a lock let the last vault go) is answered first.
      if !persistent, holdings.isEmpty, jobs.isEmpty, pending.isEmpty,
        everHeld || now - started >= AgentServer.startupGrace, !connectionWaiting
      {
        break
      }
      // Its socket removed or replaced (the folder was deleted): nobody can reach it any more.
      var info = stat()
      if stat(socketPath, &info) != 0 || info.st_ino != socketInode { break }
      let time = now
      pending.removeAll { time - $0.since > AgentServer.requestTimeout }
      var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
      fds.append(pollfd(fd: stopFDs[0], events: Int16(POLLIN), revents: 0))
      for job in jobs {
        fds.append(
          pollfd(fd: job.clientGone ? -1 : job.connection.fd, events: Int16(POLLIN), revents: 0))
        fds.append(pollfd(fd: job.pidfd, events: Int16(POLLIN), revents: 0))
      }
      let firstPending = fds.count
      for waiting in pending {
        fds.append(pollfd(fd: waiting.connection.fd, events: Int16(POLLIN), revents: 0))
      }
      let ready = poll(&fds, nfds_t(fds.count), timeout())
      if ready < 0 {
        if errno == EINTR { continue }
        break
      }
      if fds[1].revents != 0 { break }
      // Requests that came, from the end, so indices stay valid while they are removed.
      for index in pending.indices.reversed() where fds[firstPending + index].revents != 0 {
        let connection = pending.remove(at: index).connection
        answer(connection)
      }
      // Jobs from the end too (finished ones are removed). A forget above may have ended some.
      for index in jobs.indices.reversed() where index < (firstPending - 2) / 2 {
        let connection = fds[2 + 2 * index]
        let pidfd = fds[3 + 2 * index]
        if pidfd.revents != 0 {
          finish(index)
        } else if connection.revents != 0 {
          relay(index)
        }
      }
      if fds[0].revents & Int16(POLLIN) != 0 { accept() }
    }
    for job in jobs { kill(job.pid, SIGTERM) }
    holdings.removeAll()
  }

  /// True when a client's connection waits to be accepted.
  private var connectionWaiting: Bool {
    var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
    return poll(&fds, 1, 0) > 0 && fds[0].revents & Int16(POLLIN) != 0
  }

  /// Milliseconds until the next deadline (or the end of the startup grace), at most a minute:
  /// the boot clock counts suspend and poll's timeout does not, so the loop looks again soon.
  private func timeout() -> Int32 {
    var wait = 60.0
    if expiresOnItsOwn, let deadline = holdings.nextDeadline { wait = min(wait, deadline - now) }
    if holdings.isEmpty && jobs.isEmpty && !everHeld && !persistent {
      wait = min(wait, started + AgentServer.startupGrace - now)
    }
    if let oldest = pending.map(\.since).min() {
      wait = min(wait, oldest + AgentServer.requestTimeout - now)
    }
    return Int32(max(0, wait) * 1000) + 1
  }

  private mutating func accept() {
    let fd = vault_accept_cloexec(listener)
    guard fd >= 0 else { return }
    let connection = AgentSocket(fd: fd)
    // Another user's process is closed on before a byte is read.
    guard let peer = connection.peer(), peer.uid == geteuid() else { return }
    // Said first on every connection; a client checks that this process wrote it.
    connection.setTimeout(seconds: 1)
    guard (try? connection.send(.hello)) != nil else { return }
    if pending.count >= AgentServer.pendingLimit { pending.removeFirst() }
    pending.append((connection, now))
  }

  /// Reads the request of a connection that has bytes to read, and answers it.
  private mutating func answer(_ connection: AgentSocket) {
    connection.setTimeout(seconds: AgentServer.frameTimeout)
    guard let (message, descriptors) = try? connection.receive(capacity: 6) else { return }
    switch message {
    case .hold(let vaultID, let path, let idle, let key, let clock, let grant)
    where path.hasPrefix("/"):
      holdings.hold(
        vaultID: vaultID, path: path, key: SymmetricKey(key), idle: Double(idle),
        now: Self.clock(clock), grant: grant)
      everHeld = true
      try? connection.send(.done)
    case .status(let path, let clock, let token):
      let time = Self.clock(clock)
      if let holding = holdings.current(path: path, token: token, now: time) {
        let left = holding.left(at: time)
        try? connection.send(
          .held(vaultID: holding.vaultID, idleLeft: left.idle, hardLeft: left.hard))
      } else {
        try? connection.send(.notHeld)
      }
    case .forget(_, _, let token?):
      // One session's grant ends; its commands still running finish.
      holdings.forget(token: token)
      try? connection.send(.done)
    case .forget(let vaultID, let path, nil):
      holdings.forget(vaultID: vaultID, path: path)
      // A command still running on a vault let go ends too (a guarded read at its prompt, an
      // edit), except the one that asked (a worker that found the mismatch says so itself).
      let asking = connection.peer()?.pid
      for job in jobs where job.pid != asking {
        if (vaultID == nil && path == nil && !job.isGrant)
          || (vaultID != nil && job.vaultID == vaultID) || job.path == path
        {
          kill(job.pid, SIGTERM)
        }
      }
      try? connection.send(.done)
    case .run(let request):
      start(request, descriptors: descriptors, connection: connection)
      return
    default:
      break
    }
    descriptors.forEach { close($0) }
  }

  /// Starts a worker for `request` when the vault at its path is held, else answers `notHeld`.
  private mutating func start(
    _ request: AgentRunRequest, descriptors: [Int32], connection: AgentSocket
  ) {
    defer { descriptors.forEach { close($0) } }
    // A request's own test clock counts in debug builds (`Clock`), so tests move its time.
    let time = Clock(variables: request.environment).bootNow
    let holding = holdings.current(path: request.path, token: request.token, now: time)
    // The one command run on a vault not held: it asks for the PIN through a pinentry, with the
    // client's display, and hands the key to this agent (`UnlockPromptCommand`).
    let prompting =
      holding == nil && request.token == nil
      && request.arguments == UnlockPromptCommand.arguments(vaultPath: request.path)
    guard descriptors.count == request.descriptorCount, holding != nil || prompting else {
      try? connection.send(.notHeld)
      return
    }
    holdings.renew(path: request.path, token: request.token, now: time)
    let inherited =
      [listener, stopFDs[0], stopFDs[1]] + jobs.flatMap { [$0.connection.fd, $0.pidfd] }
    let agent = getpid()
    // The agent's stop handlers write into the stop pipe, which the child shares until it
    // closes it: a signal for the worker (the agent's SIGTERM when its client dies) must never
    // run them there. They are blocked across the fork, and the child puts back the default
    // handlers before `AgentWorker.run` unblocks them (review of 0.11.0, item 7).
    var stopSignals = sigset_t()
    var previousMask = sigset_t()
    sigemptyset(&stopSignals)
    for number in AgentLoop.stopSignals { sigaddset(&stopSignals, number) }
    sigprocmask(SIG_BLOCK, &stopSignals, &previousMask)
    let pid = vault_fork()
    if pid == 0 {
      for number in AgentLoop.stopSignals { signal(number, SIG_DFL) }
      agentStopPipe = -1
      #if DEBUG
        // Test hook: the worker waits this many milliseconds right after the fork.
        if let pause = request.environment["VAULT_TEST_WORKER_PAUSE"].flatMap(UInt32.init) {
          usleep(pause * 1000)
        }
      #endif
      // The worker ends with the agent (SIGTERM restores a terminal it changed), and leads a
      // process group of its own, so that a Ctrl-C passed on reaches the editor it runs too, as
      // the terminal's would.
      if vault_set_parent_death_signal(SIGTERM) != 0 || getppid() != agent {
        exit(ExitCode.failure.rawValue)
      }
      setpgid(0, 0)
      for fd in inherited { close(fd) }
      let held = holding.map {
        HeldKey(vaultID: $0.vaultID, key: $0.key, isGrant: $0.grant != nil)
      }
      // The worker's copy of every other vault's key is freed (and so wiped) at once.
      holdings.removeAll()
      let (fd, environment) = (connection.fd, environment)
      AgentWorker.runOnFreshThread {
        AgentWorker.run(
          request, descriptors: descriptors, connection: fd, held: held,
          environment: environment)
      }
    }
    sigprocmask(SIG_SETMASK, &previousMask, nil)
    guard pid > 0 else {
      try? connection.send(.notHeld)
      return
    }
    let pidfd = vault_pidfd_open(pid)
    guard pidfd >= 0 else {
      // No way to watch it: wait for it here (a kernel older than 5.3).
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      try? connection.send(Self.outcome(status))
      return
    }
    _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC)
    jobs.append(
      Job(
        connection: connection, pid: pid, pidfd: pidfd, vaultID: holding?.vaultID,
        path: request.path, isGrant: holding?.grant != nil))
  }

  /// A worker ended: its status goes to the client.
  private mutating func finish(_ index: Int) {
    let job = jobs.remove(at: index)
    var status: Int32 = 0
    while waitpid(job.pid, &status, 0) < 0 && errno == EINTR {}
    close(job.pidfd)
    job.connection.setTimeout(seconds: 1)
    try? job.connection.send(Self.outcome(status))
  }

  /// The client of a running command sent a signal to pass on, or went away (the command is
  /// then ended with SIGTERM, which restores a terminal it changed).
  private mutating func relay(_ index: Int) {
    let job = jobs[index]
    job.connection.setTimeout(seconds: 1)
    switch try? job.connection.receive().0 {
    case .signal(let number)? where [SIGINT, SIGTERM, SIGHUP, SIGQUIT].contains(number):
      // To the worker's process group: an editor it waits for gets it too.
      if kill(-job.pid, number) != 0 { kill(job.pid, number) }
    case .signal?:
      break
    default:
      kill(job.pid, SIGTERM)
      jobs[index].clientGone = true
    }
  }

  /// A caller's test boot clock (read by debug builds only), else the real one.
  private static func clock(_ value: String) -> Double {
    Clock(variables: value.isEmpty ? [:] : ["VAULT_TEST_BOOTCLOCK": value]).bootNow
  }

  private static func outcome(_ status: Int32) -> AgentMessage {
    let signalled = status & 0x7f
    if signalled != 0 && signalled != 0x7f { return .signalled(signalled) }
    return .exited((status >> 8) & 0xff)
  }
}
