/// Asks the person at the terminal for a biometric answer; the CLI implements it over `/dev/tty`.
public protocol BiometricPrompter: Sendable {
  /// Shows one attempt's prompt and returns the person's answer.
  ///
  /// - Parameters:
  ///   - reason: Why the app asks, shown to the person (never empty).
  ///   - type: The sensor being simulated.
  ///   - attempt: This attempt's number, from 1 (a retried scan keeps its number).
  ///   - of: The evaluation's attempt limit (`type.attemptsPerEvaluation`).
  ///   - previous: What the attempt before this one in the same evaluation gave, queued or
  ///     answered here: `noMatch` or `retry` (the prompt then says "Try Again", as
  ///     LocalAuthentication's does); nil for the first attempt.
  /// - Returns: The outcome, or nil when there is no terminal to ask (the evaluation then ends
  ///   with `LAError.notInteractive`).
  func present(
    reason: String, type: BiometryType, attempt: Int, of: Int, after previous: Outcome?
  ) -> Outcome?

  /// After a Face ID or Optic ID prompt's last failed attempt: shows the fallback button and
  /// returns true when the person chose it (`userFallback`), false when they closed the prompt.
  func offerFallback(reason: String, type: BiometryType) -> Bool
}

extension BiometricPrompter {
  /// Never chooses the fallback.
  public func offerFallback(reason: String, type: BiometryType) -> Bool { false }
}
