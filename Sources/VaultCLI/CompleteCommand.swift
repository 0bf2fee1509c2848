import VaultCore

/// `vault __complete [PREFIX]`: entry names for the shell completion scripts.
///
/// It reads a valid `VAULT_SESSION` only, without renewing it: it never prompts, never reads a PIN
/// and never opens the terminal. Locked, or on any failure, it prints nothing at all and exits 0,
/// so a completion never disturbs the line being edited.
enum CompleteCommand {
  /// Prints the names starting with the first argument, one per line; always returns 0 (the
  /// command is `silent`: the runner swallows its errors).
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
    return try EntryStore(vault: vault, masterKey: masterKey).list(prefix: prefix).map(\.name)
  }
}
