import VaultCrypto
import VaultFormat

/// What a vault command asks of the user's unlock agent: hold a key, say what it holds, let go.
///
/// Running a command through it is `VaultCLI`'s `AgentForwarding`.
public struct AgentClient {
  /// Where the agent's socket is looked for.
  public let environment: VaultEnvironment

  /// A client of the agent of `environment` (`AgentSocket.path`).
  public init(environment: VaultEnvironment) { self.environment = environment }

  /// This process's `VAULT_TEST_BOOTCLOCK`, for an agent of a debug build (empty when unset).
  var testClock: String { environment.variables["VAULT_TEST_BOOTCLOCK"] ?? "" }

  /// Seconds a client waits for an answer to `hold`, `status` or `forget`.
  static let answerTimeout = 5

  /// Connects, with the answer timeout set; nil when no agent listens.
  ///
  /// - Throws: as `AgentSocket.connect`.
  public func connect() throws -> AgentSocket? {
    let socket = try AgentSocket.connect(environment)
    socket?.setTimeout(seconds: Self.answerTimeout)
    return socket
  }

  /// Hands `key` to the agent for the vault `vaultID` at `vaultPath`.
  ///
  /// - Parameter idle: the idle timeout in seconds.
  /// - Throws: `AgentError.notRunning` when no agent listens, `.keyNotTaken` when it does not
  ///   take the key; as `AgentSocket.connect`.
  public func hold(vaultID: VaultID, vaultPath: String, key: SymmetricKey, idle: Double) throws {
    guard let socket = try connect() else {
      throw AgentError.notRunning
    }
    let seconds = UInt32(max(1, min(idle.isFinite ? idle : 1, AgentHoldings.hardLimit)))
    do {
      try socket.send(
        .hold(
          vaultID: vaultID, path: SessionStore.absolute(vaultPath), idle: seconds,
          key: key.bytes, clock: testClock))
      guard case .done = try socket.receive().0 else {
        throw AgentError.keyNotTaken(nil)
      }
    } catch let failure as AgentSocket.Failure {
      throw AgentError.keyNotTaken(failure)
    }
  }

  /// What the agent holds for the vault file at `vaultPath`: its id and the seconds before its
  /// idle timeout and hard limit; nil when no agent runs or it does not hold that vault.
  ///
  /// - Throws: as `AgentSocket.connect`.
  public func status(vaultPath: String) throws -> (vaultID: VaultID, idle: Int, hard: Int)? {
    guard let socket = try connect() else { return nil }
    guard
      (try? socket.send(.status(path: SessionStore.absolute(vaultPath), clock: testClock)))
        != nil,
      case .held(let id, let idle, let hard)? = try? socket.receive().0
    else { return nil }
    return (id, Int(idle), Int(hard))
  }

  /// Asks every agent of this user to let go of the vault `vaultID` and of the file `vaultPath`.
  ///
  /// The agents are those of `AgentSocket.everyFolder`; with both nil, only this environment's
  /// is asked, to let go of everything. Returns false when an agent runs and did not confirm it.
  @discardableResult
  public func forget(vaultID: VaultID?, vaultPath: String?) -> Bool {
    let path = vaultPath.map(SessionStore.absolute)
    var confirmed = true
    let everything = vaultID == nil && vaultPath == nil
    let folders =
      everything ? [AgentSocket.folder(environment)] : AgentSocket.everyFolder(environment)
    for folder in folders {
      guard let socket = try? AgentSocket.connect(folder: folder) else { continue }
      socket.setTimeout(seconds: Self.answerTimeout)
      guard (try? socket.send(.forget(vaultID: vaultID, path: path))) != nil,
        case .done? = try? socket.receive().0
      else {
        confirmed = false
        continue
      }
    }
    return confirmed
  }
}
