import VaultAgent

extension AgentError: ReportableError {
  /// A socket served by another user is an integrity failure (17), an oversized request
  /// invalid input (5), an agent that is not there or did not take the key a failure (1).
  var exitCode: ExitCode {
    switch self {
    case .notRunning, .keyNotTaken: .failure
    case .socketOfAnotherUser: .integrity
    case .requestTooLarge: .invalidInput
    }
  }

  /// One line for the user.
  var message: String {
    switch self {
    case .notRunning: "the unlock agent is not running"
    case .keyNotTaken(let failure):
      "the unlock agent did not take the key" + (failure.map { " (\($0))" } ?? "")
    case .socketOfAnotherUser(let socket):
      "integrity failure: the agent socket \(socket) is served by another user's process"
    case .requestTooLarge: "the request to the agent is larger than 4 MiB"
    }
  }
}
