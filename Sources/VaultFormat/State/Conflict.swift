/// What another command or device changed first, so that this one cannot apply its change
/// (`VaultError.conflict`, exit 18): the fact, which the command line words.
public enum Conflict: Equatable, Sendable {
  /// The entry `name` changed while it was being edited.
  case entryChangedWhileEdited(name: String)
  /// The entry `name` changed while its content was read for a write; nothing was stored.
  case entryChangedWhileContentRead(name: String)
  /// The entry `name` changed while it was being read; nothing was read.
  case entryChangedWhileRead(name: String)
  /// The journal entry `id` (its short id) changed or was removed while it was being edited.
  case journalEntryChangedWhileEdited(id: String)
  /// This device and the remote both changed the vault's keys or settings since the last sync.
  case keysChangedOnBothSides
  /// Another device synced since the master key was rotated here.
  case syncedSinceRotationHere
  /// The record `record` (its first 8 characters) is not as the last sync left it.
  case recordMovedSinceLastSync(record: String)
  /// A content of the remote has the place of one written here since the last sync.
  case contentPlaceTaken
  /// This device and another (`signer`, its hex device id; nil when the newest link does not
  /// name one) both rotated the master key since the last sync.
  case bothRotated(signer: String?)
}
