import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `vault unset`.
struct UnsetCommand: VaultCommand {
  static let about = CommandAbout(
    "unset", "Remove one field (every 'KEY: VALUE' line of KEY) from an entry.",
    discussion: """
      The rest of the text is kept byte for byte, and the replaced version in the entry's \
      history. The password (the first line) cannot be removed.
      """)

  @ArgumentParameter(Keys.name) var name
  @ArgumentParameter(Keys.fieldKey) var fieldKey

  func run(_ context: Context) throws -> Int32 {
    let key = fieldKey.text
    let unlocked = try context.open(.readEntry(name, action: "remove a field of '\(name)'"))
    guard let entry = unlocked.entry else { throw VaultError.notFound(name.value) }
    let fields = try EntryFields(entry.content)
    guard let content = try fields.unsetting(key) else {
      throw VaultError.noField(name: name.value, key: key, keys: fields.keys)
    }
    try FieldEdit.store(content, of: entry, name: name, change: .fieldUnset, in: unlocked)
    Output.error(
      "Removed field '\(Output.printable(key))' of '\(Output.printable(name.value))'.")
    return ExitCode.success.rawValue
  }
}
