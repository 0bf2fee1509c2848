extension PinentryDialog.Failure: ReportableError {
  /// Cancel and the pinentry's timeout are a cancelled prompt (13); a pinentry that cannot be
  /// started, ends or answers outside its protocol leaves the vault locked (10); a PIN longer
  /// than vault reads is refused input (5).
  var exitCode: ExitCode {
    switch self {
    case .cancelled, .timedOut: .cancelled
    case .notStarted, .broke, .unresponsive: .locked
    case .tooLong: .invalidInput
    }
  }

  /// One line for the user, naming the program.
  var message: String {
    switch self {
    case .notStarted(let program, let reason):
      "cannot ask for the PIN through \(program): \(reason)"
    case .cancelled(let program): "cancelled: the PIN was not given (\(program))"
    case .timedOut(let program):
      "cancelled: \(program) timed out after \(PinentryDialog.timeoutSeconds) s with no PIN typed"
    case .broke(let program, let code):
      "\(program) ended or answered outside the pinentry protocol (libassuan error \(code)); no"
        + " PIN was read"
    case .unresponsive(let program):
      "\(program) did not answer within \(PinentryDialog.replySeconds) s and was ended; no PIN"
        + " was read"
    case .tooLong(let program):
      "the PIN \(program) sent is longer than \(LineReader.maximum) bytes; nothing was tried"
    }
  }

  /// What else to do.
  var hint: String? {
    switch self {
    case .notStarted, .broke, .unresponsive:
      "name a pinentry that works on your desktop with 'vault config --global pinentry PATH', or"
        + " run 'vault unlock' on a terminal"
    default: nil
    }
  }
}
