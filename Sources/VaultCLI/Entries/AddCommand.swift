import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `vault add`.
struct AddCommand: VaultCommand {
  static let about = CommandAbout(
    "add", aliases: ["insert"], "Store a secret read from standard input or the terminal.",
    discussion: """
      From a pipe or file, the content is exactly the bytes read: nothing added, nothing \
      stripped. On a terminal the secret is asked for twice with echo off and stored \
      without the newline; with --multiline it is read until end of file (Ctrl-D), with \
      echo on so the lines can be seen as typed.
      """)

  @FlagParameter(Keys.force) var force
  @FlagParameter(Keys.multiline) var multiline
  @FlagParameter(Keys.guarded) var guarded
  @ArgumentParameter(Keys.name) var name

  func run(_ context: Context) throws -> Int32 {
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
        throw InputRefused("standard input is empty; nothing was stored")
      }
      content = data
    }
    let store = try context.open(.use(reason: "add '\(name)'")).entries
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
      return ExitCode.success.rawValue
    }
    if content == nil && !force, try store.metadata(name) != nil {
      // Said before the secret is typed; `put` checks again in its transaction.
      throw VaultError.exists(name.value)
    }
    let secret = try content ?? readFromTerminal(context)
    try store.put(name, content: secret, overwrite: force, guarded: guarded)
    return ExitCode.success.rawValue
  }

  /// The largest regular file `add` reads inside its write (2 GiB, a few seconds).
  static let inWriteLimit: Int64 = 2 << 30

  private func readFromTerminal(_ context: Context) throws -> SecureBytes {
    guard let terminal = context.terminal else {
      throw VaultError.locked(.noTerminalToRead(.secret))
    }
    if multiline {
      terminal.say("Enter the content of '\(name)', then Ctrl-D on an empty line:\n")
      let data = try LineReader.readAll(fd: 0)
      guard data.count > 0 else { throw InputRefused("the content is empty") }
      return data
    }
    let first = try terminal.readHidden(prompt: "Secret for '\(name)': ")
    guard first.count > 0 else { throw InputRefused("the content is empty") }
    let second = try terminal.readHidden(prompt: "Repeat it: ")
    guard first == second else {
      throw InputRefused("the two entries differ; nothing was stored")
    }
    return first
  }
}
