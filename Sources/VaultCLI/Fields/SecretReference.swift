import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `NAME[:FIELD]` in `vault run --env` and `vault inject` templates: an entry and one of its
/// fields (`password`, its first line, when none is given).
///
/// The text after the last `:` is the field, so a name that holds a `:` is written with its
/// field: `a:b:password`.
struct SecretReference: Equatable {
  let name: EntryName
  let field: String

  /// - Throws: `VaultError.invalidInput` (exit 5) for a bad name, `SecretError.notAFieldKey`
  ///   (exit 5) for a bad field key.
  init(_ text: String) throws {
    if let colon = text.lastIndex(of: ":") {
      field = String(text[text.index(after: colon)...])
      try EntryFields.validate(key: field)
      name = try EntryName(String(text[..<colon]))
    } else {
      field = EntryFields.passwordKey
      name = try EntryName(text)
    }
  }

  /// The value, from a vault opened for the command.
  ///
  /// - Throws: `VaultError.notFound` (and `.removed`, `.purged`), `.noField` (exit 3); `.locked`
  ///   (exit 10) for a guarded entry when the key came from a session, since its read needs a
  ///   fresh check; `.invalidInput` for contents that are not text.
  func value(in unlocked: UnlockedVault) throws -> SecureBytes {
    let (metadata, content) = try unlocked.entries.get(name)
    if metadata.guarded && unlocked.source.withholdsGuarded {
      let bypass = unlocked.source == .session ? "without VAULT_SESSION" : unlocked.source.bypass
      throw NoTerminal(
        message:
          "'\(name)' is guarded: every read needs fresh authentication, which"
          + " \(unlocked.source.holder) does not give",
        hint: "run the command \(bypass), or use 'vault get'")
    }
    return try EntrySelection.field(field).select(from: content, name: name.value)
  }
}
