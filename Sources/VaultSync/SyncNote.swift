/// What a sync tells the user besides its counts.
///
/// A conflict the merge resolved, a purge received, a revocation to make again: the facts, in the
/// order met; the command line words them.
public enum SyncNote: Equatable, Sendable {
  /// Both devices changed the entry `name`: the later version is current, the other a revision.
  case keptBoth(name: String)
  /// One device changed the entry `name` and the other removed it: the change stays current.
  case changeKeptOverRemoval(name: String)
  /// Two entries came to have the name `original`: both are kept, the later as `renamed`.
  case nameTaken(original: String, renamed: String)
  /// The remote purged the entry `name` (removed with its history on another device).
  case purgedElsewhere(name: String)
  /// A revocation of `device` (its short id) made here before the rotation the device `signer`
  /// made (its hex id; nil when the link does not name one) did not reach the vault.
  case revocationLost(device: String, signer: String?)
}
