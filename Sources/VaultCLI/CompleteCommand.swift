import VaultCore

/// `vault __complete [PREFIX]`: entry names for the shell completion scripts.
///
/// It reads a valid `VAULT_SESSION` only, without renewing it: it never prompts, never reads a PIN
/// and never opens the terminal. Locked, or on any failure, it prints nothing at all and exits 0,
/// so a completion never disturbs the line being edited.
enum CompleteCommand {
  /// Prints the names starting with the first argument, one per line; always returns 0.
  static func run(_ invocation: Invocation, environment: VaultEnvironment) -> Int32 {
    if let names = try? names(invocation, environment: environment), !names.isEmpty {
      Output.print(names.map { $0 + "\n" }.joined())
    }
    return 0
  }

  private static func names(_ invocation: Invocation, environment: VaultEnvironment) throws
    -> [String]
  {
    guard let token = environment.variables["VAULT_SESSION"], !token.isEmpty else { return [] }
    let context = try Context(invocation: invocation, environment: environment)
    let vault = try context.openVault()
    let (masterKey, _) = try SessionStore(environment: environment).open(
      token: token, vaultID: vault.vaultID, renew: false)
    try vault.verifyHeader(masterKey: masterKey)
    let prefix = invocation.arguments.first ?? ""
    return try EntryStore(vault: vault, masterKey: masterKey).list(prefix: prefix).map(\.name)
  }
}
