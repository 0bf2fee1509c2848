/// An object of the header whose members are checked by name (`HeaderFault.unknownField`).
public enum HeaderObject: Equatable, Sendable {
  /// The header itself.
  case header
  /// A rotation.
  case rotation
  /// A handoff.
  case handoff
  /// A revocation.
  case revocation
  /// A retired writer.
  case retiredWriter
  /// A device record.
  case deviceRecord
  /// A device record's biometry.
  case biometry
  /// The recovery slot.
  case recoverySlot
}
