import VaultCrypto
import VaultFormat

/// What pushes a master-key rotation to the sync remote before it commits on this device
/// (`vault(5)` Taking a rotation): the port by which `Vault.rekey` reaches sync without
/// depending on it; VaultSync's `SyncRotationPublisher` is the one implementation.
package protocol RotationPublisher {
  /// Pushes the rotation: the whole tree under `masterKey` (the new key), committed after the
  /// remote's commit this device last synced with; `write` holds the rotated rows and
  /// `syncRow` is this device's sync record sealed again.
  ///
  /// - Returns: the pushed commit (hex).
  /// - Throws: `VaultError.remoteMoved` when the remote moved since this device's last sync
  ///   (nothing is rotated); `.syncFailed` when git or the remote fails.
  func publishRotation(
    of vault: Vault, masterKey: SymmetricKey, in write: StateWrite, syncRow: RecordRow
  ) throws -> String
}
