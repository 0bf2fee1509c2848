import VaultCore

/// `vault __complete [PREFIX]` and `vault __complete-fields PREFIX WORD...`: entry names and
/// field keys for the shell completion scripts.
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

  /// `vault __complete-fields PREFIX WORD...`: the field keys starting with PREFIX.
  ///
  /// They are the keys of the entry that the command line WORD... (the words before the key,
  /// after the program name) names; never a guarded entry's, whose read needs a fresh check.
  /// Always returns 0.
  static func fields(_ context: Context) throws -> Int32 {
    let prefix = try context.argument(Keys.fieldPrefix).lowercased()
    var words = try context.arguments(Keys.completedLine)
    if words.last == "--" + Keys.field.spec.long { words.removeLast() }
    let name = try Parser.parse(words, program: VaultCommands.program).argumentIfGiven(Keys.name)
    guard let name, let entries = try store(context) else { return ExitCode.success.rawValue }
    guard let metadata = try entries.metadata(name), !metadata.guarded else {
      return ExitCode.success.rawValue
    }
    let keys = try EntryFields(entries.get(name).content).keys.filter {
      $0.lowercased().hasPrefix(prefix)
    }
    if !keys.isEmpty { Output.print(keys.map { $0 + "\n" }.joined()) }
    return ExitCode.success.rawValue
  }

  /// The entries of the vault under a valid `VAULT_SESSION` (not renewed), or nil without one.
  private static func store(_ context: Context) throws -> EntryStore? {
    let environment = context.environment
    guard let token = environment.variables["VAULT_SESSION"], !token.isEmpty else { return nil }
    let vault = try context.openVault()
    let (masterKey, _) = try SessionStore(environment: environment).open(
      token: token, vaultID: vault.vaultID, renew: false)
    try vault.verifyHeader(masterKey: masterKey)
    return EntryStore(vault: vault, masterKey: masterKey)
  }

  private static func names(_ context: Context) throws -> [String] {
    guard let store = try store(context) else { return [] }
    let prefix = try context.argumentIfGiven(Keys.prefix) ?? ""
    return try store.list(prefix: prefix).map(\.name)
  }
}
