/// Why the header's keyslots are not as the format allows (`HeaderFault.keyslots`).
public enum KeyslotFault: Equatable, Sendable {
  /// A format-1 header without exactly one PIN and one recovery keyslot.
  case formatOneSlots
  /// A format-1 header without its PIN keyslot.
  case noPINSlot
  /// A format-1 header without its recovery keyslot.
  case noRecoverySlot
  /// The recovery slot has a verifier without a tag, or a tag without a verifier.
  case verifierWithoutTag
}
