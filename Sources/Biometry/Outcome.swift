/// One answer of the simulated sensor, queued by `biosim next` or given at the prompt.
///
/// Raw values are the `biosim next` spellings: `match`, `no-match`, `cancel`, `system-cancel`,
/// `timeout`.
public enum Outcome: String, CaseIterable, Sendable {
  /// The finger or face matched an enrolled template.
  case match
  /// A failed match: counts towards the attempt limit and the lockout.
  case noMatch = "no-match"
  /// The person cancelled (`userCancel`); no counter changes.
  case cancel
  /// The system interrupted the prompt (`systemCancel`); no counter changes.
  case systemCancel = "system-cancel"
  /// The prompt timed out (`appCancel`); no counter changes.
  case timeout
}
