import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets

/// The key a completion reads, without renewing it.
///
/// The one the unlock agent holds: its plain hold's, or the grant of a valid `VAULT_SESSION`
/// (the command runs in its worker either way).
/// A completion never prompts, never reads a
/// PIN and never opens the terminal; locked, or on any failure, it prints nothing and exits 0,
/// so it never disturbs the line being edited.
enum CompletionKey {
  /// The vault and its key the agent's worker holds, or nil outside a worker.
  static func sessionKey(_ context: Context) throws -> (
    vault: Vault, masterKey: SymmetricKey
  )? {
    if let held = context.heldKey {
      let vault = try context.openVault()
      guard held.vaultID == vault.vaultID else { return nil }
      try vault.verifyHeader(masterKey: held.key)
      return (vault, held.key)
    }
    // A session's grant serves a completion through the agent, which runs it in its worker.
    return nil
  }

}
