import VaultCore
import VaultCrypto
import VaultFormat

/// Publishes a master-key rotation through the vault's sync repository
/// (`VaultSync.publishRotation`).
package struct SyncRotationPublisher: RotationPublisher {
  /// The vault's sync repository.
  package let repository: SyncRepository

  /// A publisher for `repository`.
  package init(repository: SyncRepository) { self.repository = repository }

  package func publishRotation(
    of vault: Vault, masterKey: SymmetricKey, in write: StateWrite, syncRow: RecordRow
  ) throws -> String {
    try VaultSync(vault: vault, masterKey: masterKey, repository: repository)
      .publishRotation(in: write, syncRow: syncRow)
  }
}
