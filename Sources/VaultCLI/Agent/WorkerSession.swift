import CPlatform
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// What a command run by the unlock agent's worker has of its client and its agent, handed to
/// the command through its `Context`: the one master key held for the vault the request named,
/// the connection back to the client, the client's terminal and the `--pin-fd` descriptor the
/// client kept.
///
/// Nothing of it is process-global: a command outside a worker has no session, and so no held
/// key.
final class WorkerSession {
  /// The held key of the vault the request named; nil for the one command the agent runs on a
  /// vault it does not hold (`__unlock-prompt`, which asks for the PIN through a pinentry).
  let heldKey: HeldKey?
  /// The absolute path of that vault's file.
  let vaultPath: String
  /// The connection to the client, which the worker answers and asks on.
  let connection: AgentSocket
  /// The client's terminal, or -1 when the request came without one.
  let terminalFD: Int32
  /// The number of the `--pin-fd` descriptor the client keeps (never sent), or -1.
  let keptPINFD: Int32

  init(
    heldKey: HeldKey?, vaultPath: String, connection: AgentSocket, terminalFD: Int32,
    keptPINFD: Int32
  ) {
    self.heldKey = heldKey
    self.vaultPath = vaultPath
    self.connection = connection
    self.terminalFD = terminalFD
    self.keptPINFD = keptPINFD
  }

  /// The command needs the PIN its client keeps: the client runs it in its own process
  /// (`AgentMessage.runHere`); the worker ends having done nothing.
  func handBack() -> Never {
    guard (try? connection.send(.runHere)) != nil else {
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
  func clientLine() throws -> SecureBytes? {
    var pair: [Int32] = [-1, -1]
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair)
        == 0
    else {
      throw CommandFailed(
        "cannot make a socket pair: \(String(cString: strerror(errno)))")
    }
    defer { close(pair[0]) }
    do {
      try connection.send(.lineWanted, descriptors: [pair[1]])
    } catch {
      close(pair[1])
      throw CommandFailed("cannot ask the client for a line of --pin-fd")
    }
    close(pair[1])
    return try LineReader.readLine(fd: pair[0])
  }

  /// `vault run` in a worker: sends the program, its arguments and its environment to the
  /// client, which replaces itself with it; then the worker ends.
  func handOff(path: String, arguments: [String], environment: [String: String]) -> Never {
    let entries = environment.map { $0.key + "=" + $0.value }
    do {
      try connection.send(.exec(path: path, arguments: arguments, environment: entries))
      exit(ExitCode.success.rawValue)
    } catch {
      exit(ExitCode.failure.rawValue)
    }
  }
}
