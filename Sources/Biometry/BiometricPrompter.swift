/// Asks the person at the terminal for a biometric answer; the CLI implements it over `/dev/tty`.
public protocol BiometricPrompter: Sendable {
  /// Shows one attempt's prompt and returns the person's answer.
  ///
  /// - Parameters:
  ///   - reason: Why the app asks, shown to the person (never empty).
  ///   - type: The sensor being simulated.
  ///   - attempt: This attempt's number, from 1.
  ///   - of: The evaluation's attempt limit (`type.attemptsPerEvaluation`).
  /// - Returns: The outcome, or nil when there is no terminal to ask (the evaluation then ends
  ///   with `LAError.notInteractive`).
  func present(reason: String, type: BiometryType, attempt: Int, of: Int) -> Outcome?
}
