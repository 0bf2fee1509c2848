import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `vault set`.
struct SetCommand: VaultCommand {
  static let about = CommandAbout(
    "set", "Set one field of an entry (a 'KEY: VALUE' line), keeping the rest of its text.",
    discussion: """
      The value is read from standard input when it is not a terminal (one final newline \
      dropped), otherwise asked for twice with echo off; never from the command line. An \
      existing field keeps its place and spelling; a new one goes after the last field. KEY \
      password replaces the first line. The value is one line of UTF-8 text. The replaced \
      version is kept in the entry's history.
      """)

  @ArgumentParameter(Keys.name) var name
  @ArgumentParameter(Keys.fieldKey) var fieldKey

  func run(_ context: Context) throws -> Int32 {
    let key = fieldKey.text
    let fromPipe = isatty(0) == 0
    if fromPipe { try context.refusePINOnStandardInput("carries the value") }
    // Read before unlocking when it comes from a pipe, so a bad value costs no PIN entry.
    let piped =
      try fromPipe
      ? FieldEdit.value(
        fromPipe: LineReader.readAll(
          fd: 0, atMost: EntryStore.streamThreshold, what: "the value on standard input")) : nil
    let unlocked = try context.open(.readEntry(name, action: "set a field of '\(name)'"))
    guard let entry = unlocked.entry else { throw VaultError.notFound(name.value) }
    let fields = try EntryFields(entry.content)
    let value = try piped ?? FieldEdit.readFromTerminal(context, name: name.value, key: key)
    let content = try fields.setting(key, to: value)
    let shown = "field '\(Output.printable(key))' of '\(Output.printable(name.value))'"
    guard try content != entry.content else {
      Output.error("Unchanged: \(shown) already has that value; nothing was written.")
      return ExitCode.success.rawValue
    }
    try FieldEdit.store(content, of: entry, name: name, change: .fieldSet, in: unlocked)
    Output.error("Set \(shown).")
    return ExitCode.success.rawValue
  }
}
