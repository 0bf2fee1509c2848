import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault inject [--output PATH]`: reads a template on standard input and writes it with every
/// `{{ vault NAME[:FIELD] }}` replaced by that value, never to a terminal.
enum InjectCommandRun {
  static func run(_ context: Context) throws {
    let output = try context.value(Keys.injectOutput)?.path
    if output == nil && context.flag(Keys.injectForce) {
      throw UsageError(message: "--force needs --output", path: context.invocation.path)
    }
    if output == nil && isatty(1) == 1 {
      throw UsageError(
        message:
          "standard output is a terminal; vault inject writes secrets only to a file or a pipe",
        hint: "use --output PATH (written with mode 0600)", path: context.invocation.path)
    }
    if let output {
      try OutputFile.refuseOwnFiles(
        output, vaultPath: context.vaultPath, environment: context.environment)
    }
    var existing = stat()
    if let output, !context.flag(Keys.injectForce), lstat(output, &existing) == 0 {
      // Said before the PIN; `OutputFile.write` refuses again when it gives the file its name.
      throw OutputFile.exists(output)
    }
    if isatty(0) == 1 {
      throw VaultError.invalidInput(
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
      try OutputFile.write(bytes, to: output, replacing: context.flag(Keys.injectForce))
    } else {
      filled.withBytes { Output.write($0) }
    }
  }
}
