import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault inject [--output PATH]`: reads a template on standard input and writes it with every
/// `{{ vault NAME[:FIELD] }}` replaced by that value, never to a terminal.
struct InjectCommand: VaultCommand {
  static let about = CommandAbout(
    "inject", "Fill {{ vault NAME[:FIELD] }} placeholders in a template read from standard input.",
    discussion: """
      Writes the template from standard input with each placeholder replaced by the field \
      FIELD of entry NAME (without FIELD the password, the first line), byte for byte, to \
      standard output, or with --output to a new file of mode 0600, written atomically (an \
      existing file is replaced only with --force; without it the command exits 5). It refuses \
      to write to a terminal. Each placeholder is on one line; spaces and tabs inside the braces \
      are optional, 'vault' is in lower case, and other {{ ... }} text is left as it is. Every reference is checked \
      before anything is unlocked, and nothing is written unless every one is found; an error \
      names the template's line. Redirecting with > creates the file with your umask's mode, \
      so prefer --output for a file that must stay private.
      """)

  @OptionParameter(Keys.injectOutput) var injectOutput
  @FlagParameter(Keys.injectForce) var injectForce

  func run(_ context: Context) throws -> Int32 {
    let output = injectOutput?.path
    if output == nil && injectForce {
      throw UsageError(message: "--force needs --output", path: context.path)
    }
    if output == nil && isatty(1) == 1 {
      throw UsageError(
        message:
          "standard output is a terminal; vault inject writes secrets only to a file or a pipe",
        hint: "use --output PATH (written with mode 0600)", path: context.path)
    }
    if let output {
      try OutputFile.refuseOwnFiles(
        output, vaultPath: context.vaultPath, environment: context.environment)
    }
    var existing = stat()
    if let output, !injectForce, lstat(output, &existing) == 0 {
      // Said before the PIN; `OutputFile.write` refuses again when it gives the file its name.
      throw OutputFile.exists(output)
    }
    if isatty(0) == 1 {
      throw InputRefused(
        "standard input is a terminal; give the template on standard input (vault inject <"
          + " TEMPLATE)")
    }
    try context.refusePINOnStandardInput("carries the template")
    let template = try InjectTemplate(
      LineReader.readAll(fd: 0, atMost: EntryStore.streamThreshold, what: "the template"))
    var filled = template.text
    if !template.placeholders.isEmpty {
      let unlocked = try context.open(.use(reason: "fill a template"))
      filled = try template.filled { try $0.value(in: unlocked) }
    }
    if let output {
      var bytes = filled.unprotectedBytes
      defer { wipe(&bytes) }
      try OutputFile.write(bytes, to: output, replacing: injectForce)
    } else {
      filled.withBytes { Output.write($0) }
    }
    return ExitCode.success.rawValue
  }

}
