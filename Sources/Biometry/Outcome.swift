/// One answer of the simulated sensor, queued by `biosim next` or given at the prompt.
///
/// Raw values are the `biosim next` spellings: `match`, `no-match`, `retry`, `cancel`,
/// `fallback`, `system-cancel`, `app-cancel`, `timeout`.
public enum Outcome: String, CaseIterable, Sendable {
  /// The finger or face matched an enrolled template.
  case match
  /// A failed match: counts towards the attempt limit and the lockout.
  case noMatch = "no-match"
  /// A scan too poor to judge (moved too fast, partial): asked again, nothing counted, no attempt
  /// used; more than ten in one evaluation end it as `authenticationFailed`.
  case retry
  /// The person cancelled (`userCancel`); no counter changes.
  case cancel
  /// The person chose the fallback button (`userFallback`); shown only after a failed attempt
  /// (Touch ID one, Face ID and Optic ID two); no counter changes.
  case fallback
  /// The system interrupted the prompt (`systemCancel`); no counter changes.
  case systemCancel = "system-cancel"
  /// The app ended the prompt (`appCancel`, as `invalidate()` does); no counter changes.
  case appCancel = "app-cancel"
  /// The prompt timed out (the app's timer: `appCancel`); no counter changes.
  case timeout
}
