/// Why the vault header could not be read: which field is missing, unknown or out of bounds.
///
/// Thrown as `VaultError.malformedHeader`; the command line gives the words (`HeaderWords`).
public enum HeaderFault: Equatable, Sendable {
  // MARK: Core, agent, journal

  /// A format-1 header has no recovery slot.
  case noRecoverySlot
}
