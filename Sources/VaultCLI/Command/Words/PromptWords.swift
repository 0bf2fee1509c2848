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
