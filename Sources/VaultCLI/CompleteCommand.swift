import VaultCore

/// `vault __complete [--tags] [PREFIX]`: entry names (or journal tags) for the shell completion
/// scripts.
///
/// It reads a valid `VAULT_SESSION` only, without renewing it: it never prompts, never reads a PIN
/// and never opens the terminal. Locked, or on any failure, it prints nothing at all and exits 0,
/// so a completion never disturbs the line being edited.
enum CompleteCommand {
  /// Prints the names starting with the first argument, one per line (with `--tags`, the
  /// journal's tags without their `@`, sorted); always returns 0 (the command is `silent`: the
  /// runner swallows its errors).
  static func run(_ context: Context) throws -> Int32 {
    let names = try names(context)
    if !names.isEmpty { Output.print(names.map { $0 + "\n" }.joined()) }
    return ExitCode.success.rawValue
  }

  private static func names(_ context: Context) throws -> [String] {
    let environment = context.environment
    guard let token = environment.variables["VAULT_SESSION"], !token.isEmpty else { return [] }
    let vault = try context.openVault()
    let (masterKey, _) = try SessionStore(environment: environment).open(
      token: token, vaultID: vault.vaultID, renew: false)
    try vault.verifyHeader(masterKey: masterKey)
    let prefix = try context.argumentIfGiven(Keys.prefix) ?? ""
    if context.flag(Keys.completeTags) {
      // Tags without their '@' (a word break for bash), with the typed '@' ignored.
      let typed = prefix.hasPrefix("@") ? String(prefix.dropFirst()) : prefix
      let entries = try JournalStore(vault: vault, masterKey: masterKey).entries()
      return JournalTags.counts(entries).map(\.key).filter { $0.hasPrefix(typed.lowercased()) }
        .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
    return try EntryStore(vault: vault, masterKey: masterKey).list(prefix: prefix).map(\.name)
  }
}
