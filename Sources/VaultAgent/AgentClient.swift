import VaultCrypto
import VaultFormat

/// What a vault command asks of the user's unlock agent: hold a key or grant a session, say what
/// it holds, let go.
///
/// Running a command through it is `VaultCLI`'s `AgentForwarding`.
public struct AgentClient {
  /// Where the agent's socket is looked for.
  public let environment: VaultEnvironment

  /// A client of the agent of `environment` (`AgentSocket.connect(_:)`).
  public init(environment: VaultEnvironment) { self.environment = environment }

  /// This process's `VAULT_TEST_BOOTCLOCK`, for an agent of a debug build (empty when unset).
  var testClock: String { environment.variables["VAULT_TEST_BOOTCLOCK"] ?? "" }

  /// Seconds a client waits for an answer to `hold`, `status` or `forget`.
  static let answerTimeout = 5

  /// Seconds left before a hold or a grant ends: the earlier of idle expiry and the hard limit.
  public struct Expiry: Equatable, Sendable {
    /// Seconds until the idle timeout.
    public var idle: Int
    /// Seconds until the hard limit.
    public var hard: Int

    /// Seconds left on each timer.
    public init(idle: Int, hard: Int) {
      self.idle = idle
      self.hard = hard
    }
  }

  /// Connects, with the answer timeout set, to the agent `token` names (`SessionToken.folder`),
  /// or without one to the first agent found (`AgentSocket.connect(_:)`); nil when none listens.
  ///
  /// - Throws: as `AgentSocket.connect`.
  public func connect(token: SessionToken? = nil) throws -> AgentSocket? {
    let socket =
      try token.map { try AgentSocket.connect(folder: $0.folder) }
      ?? AgentSocket.connect(environment)
    socket?.setTimeout(seconds: Self.answerTimeout)
    return socket
  }

  /// Hands `key` to the agent for the vault `vaultID` at `vaultPath`, as its plain hold.
  ///
  /// - Parameter idle: the idle timeout in seconds.
  /// - Throws: `AgentError.notRunning` when no agent listens, `.keyNotTaken` when it does not
  ///   take the key; as `AgentSocket.connect`.
  public func hold(vaultID: VaultID, vaultPath: String, key: SymmetricKey, idle: Double) throws {
    guard let socket = try connect() else { throw AgentError.notRunning }
    try hold(
      on: socket, vaultID: vaultID, vaultPath: vaultPath, key: key, idle: idle, grant: nil)
  }

  /// Issues a session: hands `key` to the first agent found as the grant of a new token
  /// (`SessionToken.issue`), which names that agent's folder.
  ///
  /// - Parameter idle: the grant's idle timeout in seconds.
  /// - Throws: as `hold(vaultID:vaultPath:key:idle:)`.
  public func grant(vaultID: VaultID, vaultPath: String, key: SymmetricKey, idle: Double) throws
    -> SessionToken
  {
    guard let socket = try connect(), let folder = socket.folder else {
      throw AgentError.notRunning
    }
    let token = SessionToken.issue(folder: folder)
    try hold(
      on: socket, vaultID: vaultID, vaultPath: vaultPath, key: key, idle: idle,
      grant: token.grantID)
    return token
  }

  private func hold(
    on socket: AgentSocket, vaultID: VaultID, vaultPath: String, key: SymmetricKey,
    idle: Double, grant: [UInt8]?
  ) throws {
    let seconds = UInt32(max(1, min(idle.isFinite ? idle : 1, AgentHoldings.hardLimit)))
    do {
      try socket.send(
        .hold(
          vaultID: vaultID, path: AgentMessage.absolutePath(vaultPath), idle: seconds,
          key: key.bytes, clock: testClock, grant: grant))
      guard case .done = try socket.receive().0 else {
        throw AgentError.keyNotTaken(nil)
      }
    } catch let failure as AgentSocket.Failure {
      throw AgentError.keyNotTaken(failure)
    }
  }

  /// What the agent holds for the vault file at `vaultPath` (its plain hold, or with `token`
  /// that session's grant): its id and the seconds before its idle timeout and hard limit; nil
  /// when no agent runs or it does not hold that vault so.
  ///
  /// - Throws: as `AgentSocket.connect`.
  public func status(vaultPath: String, token: SessionToken? = nil) throws -> (
    vaultID: VaultID, expiry: Expiry
  )? {
    guard let socket = try connect(token: token) else { return nil }
    guard
      (try? socket.send(
        .status(
          path: AgentMessage.absolutePath(vaultPath), clock: testClock, token: token?.secret)))
        != nil,
      case .held(let id, let idle, let hard)? = try? socket.receive().0
    else { return nil }
    return (id, Expiry(idle: Int(idle), hard: Int(hard)))
  }

  /// The vault the grant of `token` serves, whatever it is, with its timers; nil when the agent
  /// the token names holds no live grant of it (a `status` with an empty path).
  public func grantStatus(token: SessionToken) -> (vaultID: VaultID, expiry: Expiry)? {
    guard let socket = try? connect(token: token),
      (try? socket.send(.status(path: "", clock: testClock, token: token.secret))) != nil,
      case .held(let id, let idle, let hard)? = try? socket.receive().0
    else { return nil }
    return (id, Expiry(idle: Int(idle), hard: Int(hard)))
  }

  /// Ends the grant of the session `token` in the agent it names; true when that agent
  /// confirmed (or none listens there).
  @discardableResult
  public func forget(token: SessionToken) -> Bool {
    guard let socket = try? connect(token: token) else { return true }
    guard
      (try? socket.send(.forget(vaultID: nil, path: nil, token: token.secret))) != nil,
      case .done? = try? socket.receive().0
    else { return false }
    return true
  }

  /// Asks every agent of this user to let go of the vault `vaultID` and of the file `vaultPath`
  /// (holds and grants alike).
  ///
  /// The agents are those of `AgentFolders.all` (the usual folders, the one `VAULT_SESSION`
  /// names, every folder an agent was started in); with both nil, every agent lets go of its
  /// plain holds. Returns false when an agent runs and did not confirm it.
  @discardableResult
  public func forget(vaultID: VaultID?, vaultPath: String?) -> Bool {
    let path = vaultPath.map(AgentMessage.absolutePath)
    var confirmed = true
    for folder in AgentFolders.all(environment) {
      guard let socket = try? AgentSocket.connect(folder: folder) else { continue }
      socket.setTimeout(seconds: Self.answerTimeout)
      guard (try? socket.send(.forget(vaultID: vaultID, path: path, token: nil))) != nil,
        case .done? = try? socket.receive().0
      else {
        confirmed = false
        continue
      }
    }
    return confirmed
  }
}
