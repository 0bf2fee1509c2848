/// Which rule of `AgentPeer` the process serving the agent's socket failed
/// (`VaultError.agentImpostor`; `vault(5)` AGENT PROTOCOL, `vault(1)` SECURITY).
public enum PeerFinding: Equatable, Sendable {
  /// The kernel names no peer for the connection.
  case noPeer
  /// Its process could not be held (no pidfd).
  case notHeld
  /// It runs with group `group`, not vault's set-group-id group `expected`.
  case wrongGroup(UInt32, expected: UInt32)
  /// This process cannot read its own executable to compare.
  case ownExecutableUnreadable
  /// Its executable is another file: its path, when this process may read it.
  case otherProgram(String?)
  /// It is dumpable, as vault's agent never is.
  case dumpable
  /// Its executable cannot be read, and it does not hide itself as a non-dumpable process does.
  case executableUnreadable
  /// It ended while it was checked.
  case ended
  /// It did not greet as vault's agent.
  case noGreeting
  /// Another process (`pid`) speaks for it on the connection.
  case anotherWriter(pid: Int32)
}
