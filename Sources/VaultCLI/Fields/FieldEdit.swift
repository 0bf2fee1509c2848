import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// What `vault set` and `vault unset` share: a piped or typed value, and storing the changed
/// text of an entry (`vault(1)` FIELDS), keeping every other byte.
enum FieldEdit {
  /// A piped value: exactly the bytes read, less one final LF or CRLF.
  ///
  /// - Throws: `InputRefused` for empty input.
  static func value(fromPipe data: SecureBytes) throws -> SecureBytes {
    var count = data.count
    if count > 0 && data[count - 1] == 0x0A { count -= 1 }
    if count > 0 && data[count - 1] == 0x0D && count < data.count { count -= 1 }
    guard count > 0 else {
      throw InputRefused(
        (data.count == 0 ? "standard input is empty" : "the value is empty")
          + "; nothing was stored (remove a field with 'vault unset')")
    }
    return data.prefix(count)
  }

  static func readFromTerminal(_ context: Context, name: String, key: String) throws
    -> SecureBytes
  {
    guard let terminal = context.terminal else {
      throw VaultError.locked(.noTerminalToRead(.fieldValue))
    }
    let shown = "'\(Output.printable(key))' of '\(Output.printable(name))'"
    let first = try terminal.readHidden(prompt: "Value for \(shown): ")
    guard first.count > 0 else {
      throw InputRefused(
        "the value is empty; nothing was stored (remove a field with 'vault unset')")
    }
    let second = try terminal.readHidden(prompt: "Repeat it: ")
    guard first == second else {
      throw InputRefused("the two entries differ; nothing was stored")
    }
    return first
  }

  /// Stores `content` as the next version of `entry`, refusing when another command changed
  /// the entry since it was read.
  static func store(
    _ content: SecureBytes, of entry: OpenedEntry, name: EntryName, change: EntryChange,
    in unlocked: UnlockedVault
  ) throws {
    do {
      try unlocked.entries.put(
        name, content: content, overwrite: true, guarded: entry.metadata.guarded,
        expectedRevision: entry.metadata.revision, change: change)
    } catch VaultError.conflict(let conflict) {
      throw ConflictOutcome(conflict: conflict, outcome: .nothingWritten)
    }
  }
}
