import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets

/// `vault __complete [--tags] [PREFIX]` and `vault __complete-fields PREFIX WORD...`: entry
/// names (or journal tags) and field keys for the shell completion scripts.
///
/// It reads the key the unlock agent holds (it runs in the agent's worker) or a valid
/// `VAULT_SESSION`, without renewing it: it never prompts, never reads a PIN and never opens the
/// terminal. Locked, or on any failure, it prints nothing at all and exits 0, so a completion
/// never disturbs the line being edited.
enum CompleteCommand {
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

  static func names(_ context: Context) throws -> [String] {
    guard let unlocked = try sessionKey(context) else { return [] }
    let prefix = try context.argumentIfGiven(Keys.prefix) ?? ""
    if context.flag(Keys.completeTags) {
      // Tags without their '@' (a word break for bash), with the typed '@' ignored.
      let typed = prefix.hasPrefix("@") ? String(prefix.dropFirst()) : prefix
      let entries = try JournalStore(vault: unlocked.vault, masterKey: unlocked.masterKey).entries()
      return JournalTags.counts(entries).map(\.key).filter { $0.hasPrefix(typed.lowercased()) }
        .sorted { $0.precedesInByteOrder($1) }
    }
    if context.flag(Keys.completeJournal) {
      let entries = try JournalStore(vault: unlocked.vault, masterKey: unlocked.masterKey).entries()
      return JournalStore.shortIDs(entries).filter { $0.hasPrefix(prefix.lowercased()) }
    }
    let store = EntryStore(vault: unlocked.vault, masterKey: unlocked.masterKey)
    return try store.listing(prefix: prefix).map(\.name)
  }
}
