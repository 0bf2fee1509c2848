import CPlatform
import Glibc
import VaultCrypto
import VaultFormat

/// A connected Unix stream socket to or from the unlock agent, speaking `AgentMessage` frames.
///
/// Closed when released. Every read and write retries on `EINTR`; a peer that closes is
/// `AgentSocket.Failure.closed`.
public final class AgentSocket {
  /// The descriptor.
  public let fd: Int32
  /// The folder of the agent's socket this connection was made to (`connect(folder:)`); nil
  /// for a connection the agent accepted.
  public private(set) var folder: String?

  /// Takes ownership of `fd`.
  public init(fd: Int32) { self.fd = fd }

  deinit { close(fd) }

  /// Why a frame could not be moved.
  public enum Failure: Error, Equatable {
    /// The peer closed the connection (or was never there).
    case closed
    /// A system call failed with this errno.
    case system(Int32)
    /// The peer sent bytes that are not a message: the rule they broke.
    case malformed(AgentProtocolError)
  }

  /// The folder an agent started for `environment` listens in: `$XDG_RUNTIME_DIR/vault`, else
  /// the state folder (`$XDG_STATE_HOME/vault`).
  public static func folder(_ environment: VaultEnvironment) -> String {
    if let runtime = environment.variables["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      return runtime + "/vault"
    }
    return environment.stateDirectory
  }

  /// The longest path a Unix socket address holds on this system, in bytes (107 on Linux).
  public static let unixPathLimit = Int(vault_unix_path_limit())

  /// `folder/agent.sock`.
  public static func path(_ environment: VaultEnvironment) -> String {
    folder(environment) + "/agent.sock"
  }

  /// Every folder an agent of this user may listen in, in the order a client looks
  /// (vault(5), AGENT PROTOCOL): `$XDG_RUNTIME_DIR/vault`, `/run/user/UID/vault` (the usual
  /// runtime folder), then `$XDG_STATE_HOME/vault`.
  ///
  /// A job without `XDG_RUNTIME_DIR` (cron, a systemd timer, some ssh logins) finds the agent of
  /// the user's session this way, and `vault lock` reaches them all.
  public static func everyFolder(_ environment: VaultEnvironment) -> [String] {
    var folders = [folder(environment)]
    for other in ["/run/user/\(getuid())/vault", environment.stateDirectory]
    where !folders.contains(other) {
      folders.append(other)
    }
    return folders
  }

  /// Connects to the first agent of `everyFolder(environment)` that accepts a connection, or
  /// returns nil when none listens in any of them.
  ///
  /// Each folder must be private to this user (0700, owned) before anything is sent, and the
  /// process listening must be vault's agent as the kernel identifies it (`AgentPeer.verify`).
  ///
  /// - Throws: `VaultError.unsafePermissions` for a folder others could use or replace;
  ///   `AgentError.socketOfAnotherUser` when the socket's peer is another user;
  ///   `VaultError.agentImpostor` when it is not vault's agent.
  public static func connect(_ environment: VaultEnvironment) throws -> AgentSocket? {
    for folder in everyFolder(environment) {
      if let socket = try connect(folder: folder) { return socket }
    }
    return nil
  }

  /// Connects to the agent listening in `folder`, as `connect(_:)` does.
  ///
  /// - Throws: as `connect(_:)`.
  public static func connect(folder: String) throws -> AgentSocket? {
    let path = folder + "/agent.sock"
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
    try FileSafety.checkPrivateFolder(folder)
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    let connection = AgentSocket(fd: fd)
    // The agent's `hello` must come with its writer's credentials (`receiveHello`).
    guard vault_pass_credentials(fd, 1) == 0 else { return nil }
    var result: Int32
    repeat { result = vault_unix_address(fd, path, 0) } while result != 0 && errno == EINTR
    // A socket left by an agent that was killed refuses the connection: no agent.
    guard result == 0 else { return nil }
    try AgentPeer.verify(connection, path: path)
    connection.folder = folder
    return connection
  }

  /// The number of seconds a client waits for the agent's `hello`.
  public static let helloSeconds = 2

  /// Reads the agent's `hello` and returns the process id of its writer, as the kernel attached
  /// it (`SCM_CREDENTIALS`); nil when the first message is not a whole `hello`, comes in parts
  /// from different writers, or none comes within `helloSeconds`.
  ///
  /// `SO_PASSCRED` is on only while it is read (from before the connection is made, so no byte
  /// comes without credentials), and off after.
  func receiveHello() -> pid_t? {
    defer { _ = vault_pass_credentials(fd, 0) }
    setTimeout(seconds: Self.helloSeconds)
    defer { setTimeout(seconds: 0) }
    let expected = Self.helloFrame
    var frame = [UInt8](repeating: 0, count: expected.count)
    var got = 0
    var writer: pid_t?
    while got < frame.count {
      var pid: Int32 = -1
      let n = frame[got...].withUnsafeMutableBytes {
        vault_receive_with_writer(fd, $0.baseAddress, UInt($0.count), &pid)
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0, pid > 0, writer == nil || writer == pid else { return nil }
      writer = pid
      got += n
    }
    return frame == expected ? writer : nil
  }

  /// `hello` as a frame: its length (1) and its type.
  static let helloFrame: [UInt8] = [0, 0, 0, 1, 0x4A]

  /// The peer's process id and user id, as they were at connection.
  public func peer() -> (pid: pid_t, uid: uid_t)? {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
    guard vault_peer_credentials(fd, &pid, &uid, &gid) == 0 else { return nil }
    return (pid, uid)
  }

  /// Gives up on a peer that sends nothing for `seconds` (`SO_RCVTIMEO`), and on one that takes
  /// nothing for as long (`SO_SNDTIMEO`).
  public func setTimeout(seconds: Int) {
    var limit = timeval(tv_sec: seconds, tv_usec: 0)
    let size = socklen_t(MemoryLayout<timeval>.size)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, size)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, size)
  }

  /// Sends `message`, with `descriptors` beside its first bytes.
  ///
  /// - Throws: `Failure`; `AgentError.requestTooLarge` for a message over the size limit.
  public func send(_ message: AgentMessage, descriptors: [Int32] = []) throws {
    let frame = try message.encoded()
    try frame.withBytes { raw in
      guard let base = raw.baseAddress else { return }
      var offset = 0
      var attached = descriptors
      while offset < raw.count {
        let sent = attached.withUnsafeBufferPointer { fds in
          vault_send_with_fds(
            fd, base + offset, UInt(raw.count - offset), fds.baseAddress,
            Int32(fds.count))
        }
        if sent < 0 {
          let failure = errno
          if failure == EINTR { continue }
          throw failure == EPIPE || failure == ECONNRESET ? Failure.closed : Failure.system(failure)
        }
        attached = []
        offset += sent
      }
    }
  }

  /// Receives one message and the descriptors that came with it (at most `capacity`; each is
  /// closed-on-exec and now the caller's).
  ///
  /// - Throws: `Failure.closed` at end of file before a whole message; `.malformed` for a
  ///   length over the limit, more descriptors than `capacity`, or a body `AgentMessage`
  ///   cannot read; `.system` otherwise.
  public func receive(capacity: Int = 0) throws -> (AgentMessage, [Int32]) {
    var header = [UInt8](repeating: 0, count: 4)
    var descriptors: [Int32] = []
    var got = 0
    while got < 4 {
      var fds = [Int32](repeating: -1, count: 8)
      var count: Int32 = 0
      let n = header[got...].withUnsafeMutableBytes { buffer in
        fds.withUnsafeMutableBufferPointer { fdBuffer in
          vault_receive_with_fds(
            fd, buffer.baseAddress, UInt(buffer.count), fdBuffer.baseAddress, Int32(capacity),
            &count)
        }
      }
      if n < 0 {
        let failure = errno
        if failure == EINTR { continue }
        descriptors.forEach { close($0) }
        if failure == EMSGSIZE { throw Failure.malformed(.tooManyDescriptors) }
        throw failure == ECONNRESET ? Failure.closed : Failure.system(failure)
      }
      if n == 0 {
        descriptors.forEach { close($0) }
        throw Failure.closed
      }
      descriptors += fds.prefix(Int(count))
      got += n
    }
    let length = header.reduce(0) { $0 << 8 | Int($1) }
    guard length >= 1, length <= AgentMessage.maximumByteCount else {
      descriptors.forEach { close($0) }
      throw Failure.malformed(.lengthOutOfBounds)
    }
    let body = SecureBytes(count: length)
    do {
      try body.withMutableBytes { buffer in
        guard let base = buffer.baseAddress else { return }
        var offset = 0
        while offset < length {
          let n = read(fd, base + offset, length - offset)
          if n < 0 && errno == EINTR { continue }
          if n < 0 { throw Failure.system(errno) }
          if n == 0 { throw Failure.closed }
          offset += n
        }
      }
      return (try AgentMessage.decode(body), descriptors)
    } catch let error as AgentProtocolError {
      descriptors.forEach { close($0) }
      throw Failure.malformed(error)
    } catch {
      descriptors.forEach { close($0) }
      throw error
    }
  }
}
