import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets

/// `vault __complete-fields PREFIX WORD...`: the field keys starting with PREFIX.
///
/// They are the keys of the entry that the command line WORD... (the words before the key,
/// after the program name) names; never a guarded entry's, whose read needs a fresh check.
/// Always returns 0.
struct CompleteFieldsCommand: VaultCommand {
  static let about = CommandAbout(
    "__complete-fields", "Print the field keys of the entry a command line names.", hidden: true,
    silent: true)

  @ArgumentParameter(Keys.fieldPrefix) var fieldPrefix
  @VariadicArgument(Keys.completedLine) var completedLine

  func run(_ context: Context) throws -> Int32 {
    let prefix = fieldPrefix.lowercased()
    var words = completedLine
    // After `--field` the key is the option's value; otherwise it is `set`'s or `unset`'s KEY,
    // which the line does not have yet: a stand-in makes the line whole for the parser.
    if words.last == "--" + Keys.field.spec.long {
      words.removeLast()
    } else {
      words.append(EntryFields.passwordKey)
    }
    let name = try Parser.parse(words, program: VaultCommands.program).argumentIfGiven(Keys.name)
    guard let name, let key = try CompletionKey.sessionKey(context) else {
      return ExitCode.success.rawValue
    }
    let entries = EntryStore(vault: key.vault, masterKey: key.masterKey)
    guard let metadata = try entries.metadata(name), !metadata.guarded else {
      return ExitCode.success.rawValue
    }
    let keys = try EntryFields(entries.get(name).content).keys.filter {
      $0.lowercased().hasPrefix(prefix)
    }
    if !keys.isEmpty { Output.print(keys.map { $0 + "\n" }.joined()) }
    return ExitCode.success.rawValue
  }
}
