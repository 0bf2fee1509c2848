import VaultCore
import VaultFormat

/// The words for what a held key (a session's or the agent's), or a success by reuse, leaves
/// out: guarded entries, whose every read needs a fresh check.
extension KeySource {
  /// "a session", "the unlock agent" or "a recent device unlock": what does not read guarded
  /// entries.
  var holder: String {
    switch self {
    case .agent: "the unlock agent"
    case .pinByReuse: "a recent device unlock (the reuse window)"
    default: "a session"
    }
  }

  /// How to run a command without the held key: "without a session", "after 'vault lock'" or
  /// "with a fresh match" (the command then asks for the PIN and a match).
  var bypass: String {
    switch self {
    case .agent: "after 'vault lock'"
    case .pinByReuse: "once the reuse window has passed, with a fresh match"
    default: "without a session"
    }
  }
}
