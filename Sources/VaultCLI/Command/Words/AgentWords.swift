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
      "the unlock agent did not take the key"
        + (failure.map { " (\(AgentWords.words($0)))" } ?? "")
    case .socketOfAnotherUser(let socket):
      "integrity failure: the agent socket \(socket) is served by another user's process"
    case .requestTooLarge: "the request to the agent is larger than 4 MiB"
    }
  }
}

/// The words of the agent socket's failures and of the protocol rules a peer broke.
enum AgentWords {
  /// A socket's failure as the key-not-taken line shows it in parentheses: `closed`,
  /// `system(32)`, `malformed("a umask out of bounds")` (the form they had as Swift printed
  /// them, kept as it was).
  static func words(_ failure: AgentSocket.Failure) -> String {
    switch failure {
    case .closed: "closed"
    case .system(let code): "system(\(code))"
    case .malformed(let rule): "malformed(\(words(rule).debugDescription))"
    }
  }

  /// The part of a message, or the check, that broke the agent protocol.
  static func words(_ rule: AgentProtocolError) -> String {
    switch rule {
    case .unknownMessageType: "unknown message type"
    case .bytesAfterMessage: "bytes after the message"
    case .pathNotAbsolute: "a vault path that is not absolute"
    case .environmentEntryWithoutEquals: "an environment entry without '='"
    case .umaskOutOfBounds: "a umask out of bounds"
    case .terminalFlagOutOfBounds: "a terminal flag out of bounds"
    case .pinDescriptorOutOfBounds: "a PIN descriptor out of bounds"
    case .messageEndsEarly: "the message ends early"
    case .fieldEndsEarly: "a field ends early"
    case .textNotUTF8: "a text field that is not UTF-8"
    case .listEndsEarly: "a list ends early"
    case .keyWrongLength: "a key of the wrong length"
    case .grantWrongLength: "a grant id of the wrong length"
    case .tokenWrongLength: "a session token of the wrong length"
    case .tooManyDescriptors: "too many descriptors"
    case .lengthOutOfBounds: "a message length out of bounds"
    }
  }
}
