import VaultCore

/// The words for what a held key (a session's or the agent's) leaves out: guarded entries, whose
/// every read needs a fresh check.
extension KeySource {
  /// "a session" or "the unlock agent": what does not read guarded entries.
  var holder: String { self == .agent ? "the unlock agent" : "a session" }

  /// How to run a command without the held key: "without a session", or "after 'vault lock'"
  /// (the command then asks for the PIN and a match).
  var bypass: String { self == .agent ? "after 'vault lock'" : "without a session" }
}
