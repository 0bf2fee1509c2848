import VaultCore

/// `vault generate NAME`: store a random password (or with `--words`, a passphrase), printed
/// only with `--print`.
enum GenerateCommandRun {
  static func run(_ context: Context) throws {
    let invocation = context.invocation
    let name = try EntryName(invocation.arguments[0])
    let words = try invocation.value("words").map { try number($0, option: "words") }
    let length = try invocation.value("length").map { try number($0, option: "length") }
    if words != nil && (length != nil || invocation.flag("no-symbols")) {
      throw VaultError.invalidInput(
        "--words makes a passphrase; it cannot be combined with --length or --no-symbols")
    }
    // Drawn before unlocking, so a bad option never costs a PIN entry.
    let secret =
      try words.map { try PasswordGenerator.passphrase(words: $0) }
      ?? PasswordGenerator.password(
        length: length ?? PasswordGenerator.defaultLength,
        symbols: !invocation.flag("no-symbols"))
    let vault = try context.openVault()
    let (key, _) = try context.masterKey(vault, reason: "store a generated secret as '\(name)'")
    let store = EntryStore(vault: vault, masterKey: key)
    let existing = try store.metadata(name)
    let force = invocation.flag("force")
    if existing != nil && !force { throw VaultError.exists(name.value) }
    try store.put(name, content: secret, overwrite: force, guarded: existing?.guarded ?? false)
    if invocation.flag("print") {
      secret.withBytes { Output.write($0) }
      Output.print("\n")
    } else {
      let kind =
        words == nil ? "\(secret.count)-character password" : "\(words ?? 0)-word passphrase"
      Output.error("Stored a new \(kind) as '\(name)'; show it with 'vault get \(name)'.")
    }
  }

  private static func number(_ text: String, option: String) throws -> Int {
    guard let value = Int(text) else {
      throw VaultError.invalidInput("--\(option) needs a whole number, not '\(text)'")
    }
    return value
  }
}
