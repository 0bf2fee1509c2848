/// What changed in the vault file while a command ran (`VaultError.vaultChanged`, exit 18): the
/// fact, which the command line words.
public enum VaultChange: Equatable, Sendable {
  /// Another command wrote a new header before this one's write.
  case headerChangedFirst
  /// The header changed while the PIN was asked for.
  case headerChangedWhilePINAsked
  /// The header changed after the PIN was checked, before the key was used.
  case headerChangedSincePINChecked
  /// The master key was replaced by another command (a rotation), or the file was replaced;
  /// nothing was written.
  case masterKeyReplaced
  /// The journal's key was replaced while an entry was being written; nothing was written.
  case journalKeyReplaced
  /// Another sync of the vault ran meanwhile.
  case anotherSync
  /// The entry `name` was added or guarded while an export began.
  case guardedDuringExport(name: String)
}
