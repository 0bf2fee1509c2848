import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets

/// The key a completion reads, without renewing it.
///
/// The one the unlock agent holds (the command runs in its worker) or a valid `VAULT_SESSION`'s.
/// A completion never prompts, never reads a
/// PIN and never opens the terminal; locked, or on any failure, it prints nothing and exits 0,
/// so it never disturbs the line being edited.
enum CompletionKey {
  /// The vault and its key from the agent or a valid `VAULT_SESSION` (not renewed), or nil
  /// without either.
  static func sessionKey(_ context: Context) throws -> (
    vault: Vault, masterKey: SymmetricKey
  )? {
    let environment = context.environment
    if let held = context.heldKey {
      let vault = try context.openVault()
      guard held.vaultID == vault.vaultID else { return nil }
      try vault.verifyHeader(masterKey: held.key)
      return (vault, held.key)
    }
    guard let token = environment.variables["VAULT_SESSION"], !token.isEmpty else { return nil }
    let vault = try context.openVault()
    let (masterKey, _) = try SessionStore(environment: environment).open(
      token: token, vaultID: vault.vaultID, renew: false)
    try vault.verifyHeader(masterKey: masterKey)
    return (vault, masterKey)
  }

}
