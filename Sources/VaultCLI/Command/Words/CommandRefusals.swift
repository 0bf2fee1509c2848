import VaultFormat

/// Something must be typed or shown and there is no terminal (and no `--pin-fd`): the command
/// line's own refusal (exit 10), worded where it is thrown, with a hint on how else to give it.
struct NoTerminal: ReportableError {
  var exitCode: ExitCode { .locked }
  /// What there is no terminal for: "no terminal to ask for the PIN and no --pin-fd".
  let message: String
  /// How else to give it: "run it on a terminal".
  let hint: String?
}

/// A prompt or an editor ended without an answer, or a step was declined (exit 12): `why`,
/// printed after "cancelled: ".
struct Cancelled: ReportableError {
  var exitCode: ExitCode { .cancelled }
  /// What ended: "no input", "the editor removed the file; nothing was written".
  let why: String
  var message: String { "cancelled: \(why)" }
}

/// Input the command line itself refused (exit 5), worded where it is refused.
///
/// An option's value, empty content, a file in the way. Nothing was stored.
struct InputRefused: ReportableError {
  var exitCode: ExitCode { .invalidInput }
  /// What was refused and why: "standard input is empty; nothing was stored".
  let message: String
  /// What to do instead, when there is something to say.
  var hint: String? = nil

  /// A refusal of `message`.
  init(_ message: String, hint: String? = nil) {
    self.message = message
    self.hint = hint
  }
}

/// A step of the command line's own failed (exit 1), worded where it failed: a file it writes,
/// a program it starts, the agent it talks to.
struct CommandFailed: ReportableError {
  var exitCode: ExitCode { .failure }
  /// What failed: "cannot start /bin/bash".
  let message: String

  /// A failure of `message`.
  init(_ message: String) { self.message = message }
}

extension ExitStatus {
  /// The exit code, line and hint of any error the command line words (a core `VaultError` or a
  /// `ReportableError`); nil for any other error.
  static func report(of error: any Error) -> Report? {
    if let vault = VaultError(error) { return report(vault) }
    if let known = error as? ReportableError { return (known.exitCode, known.message, known.hint) }
    return nil
  }

  /// The line of an error that refused input (exit 5), whichever layer refused it.
  ///
  /// Nil for any other error. A prompt that asks again says this line.
  static func refusedInput(_ error: any Error) -> String? {
    guard let report = report(of: error), report.code == .invalidInput else { return nil }
    return report.message
  }
}
