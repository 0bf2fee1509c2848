import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets

/// Prints the names starting with the first argument, one per line (with `--tags`, the
/// journal's tags without their `@`, sorted; with `--journal`, the journal entries' short ids,
/// oldest first); always returns 0 (the command is `silent`: the runner swallows its errors).
struct CompleteNamesCommand: VaultCommand {
  static let about = CommandAbout(
    "__complete", "Print the entry names starting with PREFIX, for completion scripts.",
    hidden: true, silent: true)

  @FlagParameter(Keys.completeTags) var completeTags
  @FlagParameter(Keys.completeJournal) var completeJournal
  @OptionalArgument(Keys.prefix) var prefix

  func run(_ context: Context) throws -> Int32 {
    let names = try names(context)
    if !names.isEmpty { Output.print(names.map { $0 + "\n" }.joined()) }
    return ExitCode.success.rawValue
  }

  /// What to print: names, tags or journal ids starting with PREFIX; none without a key.
  private func names(_ context: Context) throws -> [String] {
    guard let unlocked = try CompletionKey.sessionKey(context) else { return [] }
    let prefix = self.prefix ?? ""
    if completeTags {
      // Tags without their '@' (a word break for bash), with the typed '@' ignored.
      let typed = prefix.hasPrefix("@") ? String(prefix.dropFirst()) : prefix
      let entries = try JournalStore(vault: unlocked.vault, masterKey: unlocked.masterKey).entries()
      return JournalTags.counts(entries).map(\.key).filter { $0.hasPrefix(typed.lowercased()) }
        .sorted { $0.precedesInByteOrder($1) }
    }
    if completeJournal {
      let entries = try JournalStore(vault: unlocked.vault, masterKey: unlocked.masterKey).entries()
      return JournalStore.shortIDs(entries).filter { $0.hasPrefix(prefix.lowercased()) }
    }
    let store = EntryStore(vault: unlocked.vault, masterKey: unlocked.masterKey)
    return try store.listing(prefix: prefix).map(\.name)
  }
}
