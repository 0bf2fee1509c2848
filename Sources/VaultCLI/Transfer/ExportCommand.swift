import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultTransfer

/// `vault export --to FORMAT [--output PATH] [--force] [--plaintext] [--kdf PROFILE] [PREFIX]`
/// and `vault export --verify PATH`.
///
/// Everything that can be refused without the key is refused first (a plaintext format without
/// `--plaintext`, a terminal or a file on standard output, an existing PATH without `--force`),
/// then the passphrase of `--to vault` is asked (twice on the terminal, or one line of
/// `--pin-fd`, before the PIN), then the vault is opened, one fresh check is asked for all the
/// guarded entries when the key is held (`GuardedExport`), and every entry is read in one
/// verified read and written piece by piece. With `--skip-guarded` guarded entries are left out
/// and named instead.
struct ExportCommand: VaultCommand {
  static let about = CommandAbout(
    "export", "Write the entries (and the journal) in another format, to leave or to move.",
    discussion: """
      --to vault writes every entry's current version, with its guard and its times (an \
      import makes its versions at the time of the import), and the \
      journal, encrypted under a passphrase asked twice on the terminal (Argon2id, --kdf), to \
      --output PATH or to standard output when it is not a terminal; read it back with \
      'vault import --from vault', or check it with --verify PATH. The other formats (jsonl, \
      csv, bitwarden-json, keepass-xml) hold every secret in the clear: they need \
      --plaintext, and go to a new file of mode 0600 (--output PATH; an existing one only \
      with --force) or to a pipe, never to a terminal or a file on standard output. PREFIX \
      exports the names under it (the journal is left out then). Guarded entries need one \
      fresh biometric match for the whole export (the PIN in a PIN-only vault) when the key \
      comes from a session or the agent; with the PIN, its own match is that one. A refused \
      or cancelled match writes nothing; --skip-guarded leaves them out instead, named, and \
      exits 5. See EXPORT in vault(1) for each format.
      """)

  @OptionParameter(Keys.exportFormat) var exportFormat
  @OptionParameter(Keys.exportOutput) var exportOutput
  @FlagParameter(Keys.exportForce) var exportForce
  @FlagParameter(Keys.plaintext) var plaintext
  @OptionParameter(Keys.exportKDF) var exportKDF
  @FlagParameter(Keys.exportSkipGuarded) var exportSkipGuarded
  @OptionParameter(Keys.exportVerify) var exportVerify
  @OptionalArgument(Keys.exportPrefix) var exportPrefix

  func run(_ context: Context) throws -> Int32 {
    if let verify = exportVerify {
      return try self.verify(context, path: verify.path)
    }
    let path = context.path
    guard let format = exportFormat else {
      throw UsageError(
        message: "--to FORMAT is needed (\(ExportFormat.choiceList)), or --verify PATH",
        path: path)
    }
    let output = exportOutput?.path
    if output == "-" {
      // Import reads `-` as standard input; here it would be a file named `-`.
      throw UsageError(
        message: "--output - would make a file named '-'",
        hint: "leave out --output to write to standard output (a pipe), or give --output ./-",
        path: path)
    }
    let force = exportForce
    if output == nil && force {
      throw UsageError(message: "--force needs --output", path: path)
    }
    if format.isPlaintext && !plaintext {
      throw UsageError(
        message:
          "--to \(format.rawValue) writes every secret in the clear; give --plaintext to mean it",
        hint: "--to vault writes an encrypted export, protected by a passphrase", path: path)
    }
    if !format.isPlaintext && plaintext {
      throw UsageError(
        message: "--plaintext is for the plaintext formats; --to vault is encrypted", path: path)
    }
    let profile = exportKDF
    if profile != nil && format != .vault {
      throw UsageError(message: "--kdf is for --to vault", path: path)
    }
    if profile == .test && context.environment.variables[KDFProfile.testSwitch] != "1" {
      throw UsageError(
        message: "invalid value 'test' for --kdf (\(KDFProfile.choiceList))", path: path)
    }
    if let output {
      var existing = stat()
      let found = lstat(output, &existing) == 0
      if !force && found {
        // Said before any prompt; `OutputFile.writing` refuses again when it names the file.
        throw OutputFile.exists(output)
      }
      try OutputFile.refuseOwnFiles(
        output, vaultPath: context.vaultPath, environment: context.environment)
    } else {
      try Self.checkStandardOutput(format, path: path)
    }
    let prefix = exportPrefix ?? ""
    var options = ExportOptions(kdf: (profile ?? .moderate).parameters)
    if format == .vault { options.passphrase = try Self.readNewPassphrase(context) }

    let unlocked = try context.open(.use(reason: "export entries"))
    let skipGuarded = exportSkipGuarded
    let includeGuarded = try !skipGuarded && GuardedExport.check(context, unlocked, prefix: prefix)
    let progress = ImportProgress.onStandardError()
    defer { progress?.clear() }
    var journalCount = 0
    var written = 0
    let (summary, guardedLeftOut) = try unlocked.entries.exporting(
      prefix: prefix, includeGuarded: includeGuarded
    ) { selection in
      if !skipGuarded, let added = selection.guardedLeftOut.first {
        // Guarded since the check found none to ask for: nothing is written.
        throw VaultError.vaultChanged(.guardedDuringExport(name: added))
      }
      var journal: [TransferJournalEntry] = []
      if prefix.isEmpty {
        let entries = try unlocked.journal().entries()
        journalCount = entries.count
        if format.carriesJournal {
          journal = entries.enumerated().map {
            TransferJournalEntry(stamp: $1.stamp, text: $1.text, location: .record($0 + 1))
          }
        }
      }
      let total = selection.entries.count
      var options = options
      options.progress = { progress?.update("exporting", done: $0, total: total) }
      let write = { (sink: @escaping ExportSink) in
        try Exporter.write(
          format, entries: selection.entries, journal: journal, options: options, to: sink)
      }
      var summary = ExportSummary()
      if let output {
        try OutputFile.writing(to: output, replacing: force) { append in
          // The writers keep the sink only while `write` runs.
          summary = try withoutActuallyEscaping(append) { sink in
            try write { bytes in
              written += bytes.count
              try sink(bytes)
            }
          }
        }
      } else {
        summary = try write { bytes in
          written += bytes.count
          Output.write(bytes)
        }
      }
      return (summary, selection.guardedLeftOut)
    }
    progress?.clear()
    if format.isPlaintext && written > ImportSourceFile.maximumByteCount {
      // Whole, but more than an import of this format reads back from one source.
      Output.error(
        "vault: note: the export holds \(written) bytes, more than the \(ImportSourceFile.maximumText)"
          + " 'vault import --from \(format.rawValue)' reads from one source: to bring it back,"
          + " export with --to vault (of any size), or in parts by PREFIX")
    }
    let complete = Self.report(
      summary, format: format, to: output, guardedLeftOut: guardedLeftOut,
      journalLeftOut: format.carriesJournal ? 0 : journalCount, prefix: prefix)
    // An export that left an entry out is written, but a script must not take it for the vault.
    return (complete ? ExitCode.success : ExitCode.invalidInput).rawValue
  }

  /// Refuses a standard output that is a terminal, and, for a plaintext format, anything but a
  /// pipe or a socket (a file made by the shell would not be private).
  static func checkStandardOutput(_ format: ExportFormat, path: [String]) throws {
    if isatty(1) == 1 {
      throw UsageError(
        message: "standard output is a terminal; vault export writes only to a file or a pipe",
        hint: "use --output PATH (written with mode 0600)", path: path)
    }
    guard format.isPlaintext else { return }
    var info = stat()
    let kind = fstat(1, &info) == 0 ? info.st_mode & S_IFMT : 0
    guard kind == S_IFIFO || kind == S_IFSOCK, !isNamedFIFO(1) else {
      throw UsageError(
        message:
          "standard output is not a pipe; a plaintext export goes to a file only through"
          + " --output, which makes it private (mode 0600)",
        hint: "use --output PATH, or a pipe such as '| gpg --symmetric'", path: path)
    }
  }

  /// True when descriptor `fd` is a FIFO with a name in a folder (which anyone its mode allows
  /// may have opened at the other end), not a pipe the shell made: Linux names those
  /// `pipe:[N]` in /proc.
  static func isNamedFIFO(_ fd: Int32) -> Bool {
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else { return false }
    var target = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/fd/\(fd)", &target, target.count - 1)
    guard n > 0 else { return true }
    return !String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      .hasPrefix("pipe:")
  }

  /// The lines on standard error after an export: what was left out, then the count (an error
  /// line when an entry was left out).
  ///
  /// - Returns: true when no entry was left out (the journal of a format without one aside).
  @discardableResult
  static func report(
    _ summary: ExportSummary, format: ExportFormat, to output: String?, guardedLeftOut: [String],
    journalLeftOut: Int, prefix: String
  ) -> Bool {
    func quoted(_ names: [String]) -> String {
      names.map { "'\(Output.printable($0))'" }.joined(separator: ", ")
    }
    if !guardedLeftOut.isEmpty {
      let count = guardedLeftOut.count
      Output.error(
        "vault: note: \(count) guarded entr\(count == 1 ? "y was" : "ies were") left out"
          + " (--skip-guarded): " + quoted(guardedLeftOut))
    }
    for left in summary.leftOut {
      Output.error(
        "vault: note: '\(Output.printable(left.name))' was left out: "
          + TransferWords.phrase(left.reason))
    }
    if !summary.reshaped.isEmpty {
      let count = summary.reshaped.count
      Output.error(
        "vault: note: \(count) entr\(count == 1 ? "y reads" : "ies read") back from"
          + " \(format.rawValue) in the fields convention's layout, not byte for byte: "
          + quoted(summary.reshaped))
    }
    if journalLeftOut > 0 {
      Output.error(
        "vault: note: the journal (\(journalLeftOut) entr\(journalLeftOut == 1 ? "y" : "ies")) was"
          + " not exported: only --to vault carries it")
    } else if !prefix.isEmpty && format.carriesJournal {
      Output.error("vault: note: the journal is not exported with a PREFIX")
    }
    let entries = "\(summary.entries) entr\(summary.entries == 1 ? "y" : "ies")"
    let journal = "\(summary.journal) journal entr\(summary.journal == 1 ? "y" : "ies")"
    let place = output.map(Output.printable) ?? "standard output"
    let left = summary.leftOut.count + guardedLeftOut.count
    guard left == 0 else {
      Output.error(
        "vault: error: exported \(entries) and \(journal) to \(place); \(left)"
          + " entr\(left == 1 ? "y was" : "ies were") left out (named above)")
      return false
    }
    Output.error("exported \(entries) and \(journal) to \(place)")
    return true
  }

  /// A new export's passphrase: twice, hidden, on the terminal, or one line of `--pin-fd`.
  static func readNewPassphrase(_ context: Context) throws -> ExportPassphrase {
    let first = try ExportPassphrase(
      utf8: readSecret(context, prompt: "Passphrase for the export: "))
    try first.checkStrength()
    if !context.pinGiven {
      let second = try ExportPassphrase(
        utf8: readSecret(context, prompt: "Repeat the passphrase: "))
      guard first.bytes == second.bytes else {
        throw InputRefused("the two passphrases differ; nothing was written")
      }
    }
    return first
  }

  /// One line from `--pin-fd`, else hidden on the terminal.
  ///
  /// - Throws: `NoTerminal` when there is neither.
  static func readSecret(_ context: Context, prompt: String) throws -> SecureBytes {
    // In the agent's worker the client kept its descriptor, and passes one line of it on.
    if context.pinKeptByClient, let session = context.session {
      guard let line = try session.clientLine() else {
        throw InputRefused("--pin-fd ended before the passphrase was read")
      }
      return line
    }
    if let fd = context.pinFD {
      guard let line = try LineReader.readLine(fd: fd) else {
        throw InputRefused("--pin-fd \(fd) ended before the passphrase was read")
      }
      return line
    }
    guard let terminal = context.terminal else {
      throw NoTerminal(
        message:
          "no terminal to ask for the export's passphrase and no --pin-fd",
        hint: "run it on a terminal, or give the passphrase as a line of --pin-fd N")
    }
    return try terminal.readHidden(prompt: prompt)
  }

  /// `vault export --verify PATH`: reads the export back, every record checked, and says what
  /// it holds.
  private func verify(_ context: Context, path file: String) throws -> Int32 {
    let others = [
      plaintext, exportForce, exportFormat != nil, exportOutput != nil, exportKDF != nil,
      exportPrefix != nil,
    ]
    if others.contains(true) {
      throw UsageError(
        message: "--verify PATH reads an export and takes no other option",
        path: context.path)
    }
    let fd = open(file, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw CommandFailed("cannot read \(file): \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    let opener = try VaultExportOpener(reading: ImportSourceFile.reader(fd: fd, named: file))
    let exportFile = VaultExportFile(opener: opener)
    try exportFile.unlock(
      ExportPassphrase(utf8: Self.readSecret(context, prompt: "Passphrase of the export: ")))
    var guarded = 0
    var bytes = 0
    let counts: (entries: Int, journal: Int)
    do {
      counts = try exportFile.read(
        entry: { record, content in
          if record.guarded { guarded += 1 }
          try content.pieces { bytes += $0.count }
        }, journal: { _ in })
    } catch let error as TransferError {
      throw LocatedError(
        location: error.location?.description ?? "the export",
        InputRefused("the export is malformed: \(TransferWords.phrase(error.reason))"))
    }
    let entries = "\(counts.entries) entr\(counts.entries == 1 ? "y" : "ies")"
    let journal = "\(counts.journal) journal entr\(counts.journal == 1 ? "y" : "ies")"
    Output.error(
      "\(Output.printable(file)): a vault export of \(entries) (\(guarded) guarded, \(bytes)"
        + " content bytes) and \(journal), Argon2id \(exportFile.parameters.profile); every"
        + " record verified")
    return ExitCode.success.rawValue
  }
}
