import CPlatform
import Glibc

/// What every child program (editor, clipboard tools, and later gpg and git) inherits from vault:
/// the standard descriptors 0–2 only, and none of vault's own variables.
enum ChildHygiene {
  /// `variables` without any `VAULT_*` variable (the session token above all).
  static func environment(_ variables: [String: String]) -> [String: String] {
    variables.filter { !$0.key.hasPrefix("VAULT_") }
  }

  /// Adds the action that closes, in the child, every descriptor from `first` up (after the
  /// actions already added, which put what the child needs on 0–2).
  static func closeInherited(_ actions: inout posix_spawn_file_actions_t, from first: Int32 = 3) {
    _ = vault_spawn_close_from(&actions, first)
  }
}
