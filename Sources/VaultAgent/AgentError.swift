import VaultFormat

/// What went wrong between a vault command and the user's unlock agent.
public enum AgentError: Error, Equatable, Sendable {
  /// No agent listens on this environment's socket.
  case notRunning
  /// The agent did not confirm it holds the key: the socket's failure, when the exchange failed.
  case keyNotTaken(AgentSocket.Failure?)
  /// The agent's socket (`socket`) is served by a process of another user.
  case socketOfAnotherUser(socket: String)
  /// A request to the agent is larger than a message may be (`AgentMessage.maximumByteCount`).
  case requestTooLarge
}
