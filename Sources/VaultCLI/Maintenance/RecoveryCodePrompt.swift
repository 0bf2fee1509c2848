import VaultCore
import VaultCrypto
import VaultFormat

/// Showing a new recovery code, and having it typed back before a command that replaces the code
/// commits (`vault(5)`, RECOVERY CODE): the code is shown with its check group, never on
/// standard output, which may be a log file.
extension Context {
  /// How many times a new recovery code may be typed back before the command gives up.
  static let recoveryCodeTries = 3

  /// The heading `vault init` shows above a new code.
  static let recoveryCodeHeading =
    "Recovery code (shown once; keep it offline, it resets the PIN):"

  /// Shows `code` (canonical form, 32 symbols) in its 9 groups under `heading`: on the terminal,
  /// else on standard error.
  func showRecoveryCode(_ code: SecureBytes, heading: String = Context.recoveryCodeHeading) {
    let shown = RecoveryCode.display(code)
    if let terminal {
      terminal.say("\(heading)\n  \(shown)\n")
    } else {
      Output.error(heading)
      Output.error(shown)
    }
  }

  /// Shows a new recovery code and has it typed back, asking again on a typo or a mismatch.
  ///
  /// For a command that must not commit a code the user did not copy; up to
  /// `recoveryCodeTries` tries. Each answer is one line of `--pin-fd` when given, else typed
  /// hidden on the terminal; the form without the check group (32 symbols) is accepted too.
  ///
  /// - Parameter code: the new code in canonical form (`RecoveryCode.generate`).
  /// - Throws: `NoTerminal` before anything is shown when there is neither a terminal
  ///   nor `--pin-fd`; `InputRefused` when the last try still failed, or when `--pin-fd` ends
  ///   before an answer.
  func confirmNewRecoveryCode(
    _ code: SecureBytes, heading: String = Context.recoveryCodeHeading
  ) throws {
    guard canAskForPIN else {
      throw NoTerminal(
        message:
          "no terminal to show the new recovery code on and have it typed back, and no --pin-fd",
        hint: "run it on a terminal")
    }
    showRecoveryCode(code, heading: heading)
    try typeBackRecoveryCode(code) { line in
      if let terminal { terminal.say(line + "\n") } else { Output.error(line) }
    }
  }

  /// Reads the code back up to `recoveryCodeTries` times; `tell` gets one line after each failed
  /// try but the last, saying why and how many tries are left.
  ///
  /// - Throws: as `confirmNewRecoveryCode`.
  func typeBackRecoveryCode(_ code: SecureBytes, tell: (String) -> Void) throws {
    for attempt in 1...Self.recoveryCodeTries {
      let typed = try readSecretLine(
        prompt: "Type the new recovery code back: ", what: "the new recovery code")
      let problem: String
      do {
        if try RecoveryCode.parse(typed) == code { return }
        problem = "that is not the recovery code shown"
      } catch let error {
        guard let why = ExitStatus.refusedInput(error) else { throw error }
        problem = why
      }
      let left = Self.recoveryCodeTries - attempt
      if left > 0 {
        tell("vault: \(problem); type it again (\(left) \(left == 1 ? "try" : "tries") left)")
      }
    }
    throw InputRefused(
      "the new recovery code was not typed back correctly in \(Self.recoveryCodeTries) tries")
  }
}
