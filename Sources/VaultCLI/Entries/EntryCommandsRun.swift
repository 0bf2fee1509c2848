import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `add`, `get`, `list`, `rm`, `mv`.
enum EntryCommandsRun {
  static func add(_ context: Context) throws {
    let name = try context.argument(Keys.name)
    let guarded = context.flag(Keys.guarded)
    let fromPipe = isatty(0) == 0
    if fromPipe {
      try context.refusePINOnStandardInput("carries the content")
      try context.refuseVaultOnStandardInput()
    }
    var content: SecureBytes?
    if fromPipe {
      // At most one byte past the threshold is read before the key is released: a longer
      // content is read on, piece by piece, inside the write's transaction.
      let data = try LineReader.readAll(fd: 0, limit: EntryStore.streamThreshold + 1)
      guard data.count > 0 else {
        throw VaultError.invalidInput("standard input is empty; nothing was stored")
      }
      content = data
    }
    let store = try context.open(.use(reason: "add '\(name)'")).entries
    let force = context.flag(Keys.force)
    if let content, content.count > EntryStore.streamThreshold {
      let rest: (UnsafeMutableRawBufferPointer) throws -> Int = {
        try LineReader.readSome(fd: 0, into: $0)
      }
      // A regular file of at most a few GiB is read inside the write (the others wait a few
      // seconds); a pipe, which may be slow, or a larger file is sealed into a spool first.
      var input = stat()
      let file =
        fstat(0, &input) == 0 && input.st_mode & S_IFMT == S_IFREG
        && Int64(input.st_size) <= Self.inWriteLimit
      try store.put(
        name,
        source: file
          ? .streamedInWrite(prefix: content, read: rest) : .streamed(prefix: content, read: rest),
        overwrite: force, guarded: guarded)
      return
    }
    if content == nil && !force, try store.metadata(name) != nil {
      // Said before the secret is typed; `put` checks again in its transaction.
      throw VaultError.exists(name.value)
    }
    let secret = try content ?? readFromTerminal(context, name: name)
    try store.put(name, content: secret, overwrite: force, guarded: guarded)
  }

  /// The largest regular file `add` reads inside its write (2 GiB, a few seconds).
  static let inWriteLimit: Int64 = 2 << 30

  private static func readFromTerminal(_ context: Context, name: EntryName) throws -> SecureBytes {
    guard let terminal = context.terminal else {
      throw VaultError.locked("no terminal to read the secret from")
    }
    if context.flag(Keys.multiline) {
      terminal.say("Enter the content of '\(name)', then Ctrl-D on an empty line:\n")
      let data = try LineReader.readAll(fd: 0)
      guard data.count > 0 else { throw VaultError.invalidInput("the content is empty") }
      return data
    }
    let first = try terminal.readHidden(prompt: "Secret for '\(name)': ")
    guard first.count > 0 else { throw VaultError.invalidInput("the content is empty") }
    let second = try terminal.readHidden(prompt: "Repeat it: ")
    guard first == second else {
      throw VaultError.invalidInput("the two entries differ; nothing was stored")
    }
    return first
  }

  static func get(_ context: Context) throws {
    let name = try context.argument(Keys.name)
    let clip = context.flag(Keys.clip)
    if try context.value(Keys.clipTime) != nil && !clip {
      throw UsageError(message: "--clip-time needs --clip", path: context.invocation.path)
    }
    let selection = try EntrySelection.parse(context)
    if clip {
      // Checked before unlocking, so a missing clipboard never costs a PIN entry.
      _ = try Clipboard.tool(context.environment.variables)
    }
    let revision = try context.value(Keys.revision).map(Int64.init)
    let unlocked = try context.open(.readEntry(name, revision: revision))
    guard let entry = unlocked.entry else { throw VaultError.notFound(name.value) }
    if entry.metadata.isLarge && selection == .whole && !clip {
      try streamEntry(unlocked)
      return
    }
    let content = try entry.content
    let value: SecureBytes
    do {
      value = try selection.select(from: content, name: name.value)
    } catch VaultError.notText where clip && selection == .field(EntryFields.passwordKey) {
      throw VaultError.invalidInput(
        "the content is not UTF-8 text (invalid UTF-8 or a NUL byte), so it has no first line to"
          + " copy; copy it whole with --all")
    }
    if clip {
      guard value.count > 0 else {
        throw VaultError.invalidInput(
          "\(selection.clipped(name.value)) is empty; nothing was copied")
      }
      try Clipboard.copy(value, name: name, what: selection.clipped(name.value), context: context)
      return
    }
    Output.writeValue(value)
  }

  /// Writes a large entry to standard output piece by piece (with the terminal newline rule of
  /// `Output.writeValue`).
  private static func streamEntry(_ unlocked: UnlockedVault) throws {
    var last: UInt8?
    try unlocked.streamEntry { piece in
      Output.write(piece)
      last = piece.last
    }
    if isatty(1) == 1, last != 0x0A { Output.print("\n") }
  }

  static func list(_ context: Context) throws {
    let prefix = try context.argumentIfGiven(Keys.listPrefix) ?? ""
    let tree = try FindCommandRun.wantsTree(context)
    if context.flag(Keys.listRemoved) {
      let removed = try context.open(.use(reason: "list removed entries")).entries.removed(
        prefix: prefix)
      if context.flag(Keys.json) {
        let rows = removed.map {
          JSONOutput.object([("name", .string($0.name)), ("removed", .string($0.removed))])
        }
        Output.print(JSONOutput.array(rows).rendered + "\n")
      } else if tree {
        Output.print(FindCommandRun.tree(removed.map(\.name), prefix: prefix))
      } else {
        var out = ListingOutput()
        for entry in removed { out.line(listing: entry.name) }
        out.finish()
      }
      return
    }
    let entries = try context.open(.use(reason: "list entries")).entries.listing(prefix: prefix)
    if context.flag(Keys.json) {
      // The array written object by object (the bytes `JSONOutput.array(…).rendered` makes),
      // never the whole text in memory.
      var out = ListingOutput()
      out.append("[")
      for (index, entry) in entries.enumerated() {
        if index > 0 { out.append(",") }
        out.append(
          JSONOutput.object([
            ("name", .string(entry.name)), ("created", .string(entry.created)),
            ("updated", .string(entry.updated)), ("guarded", .bool(entry.guarded)),
          ]).rendered)
      }
      out.append("]\n")
      out.finish()
    } else if tree {
      Output.print(FindCommandRun.tree(entries.map(\.name), prefix: prefix))
    } else {
      var out = ListingOutput()
      for entry in entries { out.line(listing: entry.name) }
      out.finish()
    }
  }

  static func remove(_ context: Context) throws {
    let name = try context.argument(Keys.name)
    let kept = try context.open(.use(reason: "delete '\(name)'")).entries.remove(name)
    let shown = Output.printable(name.value)
    let word = Output.printable(ShellWord.argument(name.value))
    Output.error(
      kept
        ? "Removed '\(shown)'. Undo with: vault restore \(word)  ('vault purge' removes it for"
          + " good)."
        : "Removed '\(shown)' for good: the retention settings keep no history (see 'vault"
          + " settings').")
  }

  static func move(_ context: Context) throws {
    let old = try context.argument(Keys.old)
    let new = try context.argument(Keys.new)
    try context.open(.use(reason: "rename '\(old)'")).entries.move(
      old, to: new, overwrite: context.flag(Keys.moveForce))
  }
}
