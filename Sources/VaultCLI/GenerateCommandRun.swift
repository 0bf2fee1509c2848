import VaultCore

/// `vault generate NAME`: store a random password (or with `--words`, a passphrase), printed
/// only with `--print`.
enum GenerateCommandRun {
  static func run(_ context: Context) throws {
    let name = try context.argument(Keys.name)
    let words = try context.value(Keys.words)
    let length = try context.value(Keys.length)
    if words != nil && (length != nil || context.flag(Keys.noSymbols)) {
      throw UsageError(
        message: "--words makes a passphrase; it cannot be combined with --length or --no-symbols",
        path: context.invocation.path)
    }
    // Drawn before unlocking, so a bad option never costs a PIN entry.
    let secret =
      try words.map { try PasswordGenerator.passphrase(words: $0) }
      ?? PasswordGenerator.password(
        length: length ?? PasswordGenerator.defaultLength,
        symbols: !context.flag(Keys.noSymbols))
    let store = try context.open(.use(reason: "store a generated secret as '\(name)'")).entries
    let existing = try store.metadata(name)
    let force = context.flag(Keys.force)
    if existing != nil && !force { throw VaultError.exists(name.value) }
    try store.put(
      name, content: secret, overwrite: force, guarded: existing?.guarded ?? false,
      change: .generated)
    if context.flag(Keys.print) {
      secret.withBytes { Output.write($0) }
      Output.print("\n")
    } else {
      let kind =
        words == nil ? "\(secret.count)-character password" : "\(words ?? 0)-word passphrase"
      Output.error("Stored a new \(kind) as '\(name)'; show it with 'vault get \(name)'.")
    }
  }
}
