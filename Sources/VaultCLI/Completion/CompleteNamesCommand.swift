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
    let names = try CompleteCommand.names(context)
    if !names.isEmpty { Output.print(names.map { $0 + "\n" }.joined()) }
    return ExitCode.success.rawValue
  }
}
