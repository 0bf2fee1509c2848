import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultTransfer

/// `vault import --from FORMAT [--dry-run] [--force] SOURCE`: reads the source, checks every
/// item without the key (so a bad source costs no PIN; a `vault` export's passphrase is asked
/// when the read reaches it), then checks the names against the vault and reads it again into
/// one transaction (`EntryStore.importItems`); a `vault` export's large contents are streamed.
struct ImportCommand: VaultCommand {
  static let about = CommandAbout(
    "import", "Bring in entries and journal entries from another tool's export.",
    discussion: """
      Reads SOURCE (a file, or - for standard input) in the format FORMAT, checks all of it \
      first and then stores it in one transaction: every name, every value, and every name \
      against the vault, so nothing is written unless all of it can be. An error names the \
      line or record of the source. A name that has an entry is refused unless --force, \
      which keeps the entry's last version in its history. Two items of the source with one \
      name are refused, naming both places, unless --rename-duplicates, which names each \
      later one 'NAME (2)', 'NAME (3)', ... and says so. With --dry-run everything is \
      checked and nothing is written. On a terminal a progress line on standard error shows \
      the count, the rate and the time left. See IMPORT in vault(1) for each format.
      """)

  @OptionParameter(Keys.importFormat) var importFormat
  @FlagParameter(Keys.dryRun) var dryRun
  @FlagParameter(Keys.importForce) var importForce
  @FlagParameter(Keys.renameDuplicates) var renameDuplicates
  @ArgumentParameter(Keys.importSource) var importSource

  func run(_ context: Context) throws -> Int32 {
    guard let format = importFormat else {
      throw UsageError(
        message: "--from FORMAT is needed (\(ImportFormat.choiceList))",
        path: context.path)
    }
    let path = importSource.path
    let replacing = importForce
    if path == "-" { try context.refusePINOnStandardInput("carries the source") }
    let progress = ImportProgress.onStandardError()
    defer { progress?.clear() }
    // A file is read twice, a few items in memory at a time; a password store's files are
    // decrypted once (each is a gpg run) and their plaintexts kept for the write.
    let read: ((TransferItem) throws -> Void) throws -> Void
    var opened: Int32 = -1
    defer { if opened >= 0 { close(opened) } }
    if format.readsFolder {
      let batch = try Self.located {
        try format.reader.read(
          try ImportSourceFile.folder(
            path, decrypt: try GPGDecrypt(environment: context.environment).decrypt))
      }
      read = { sink in
        for entry in batch.entries { try sink(.entry(entry)) }
        for journal in batch.journal { try sink(.journal(journal)) }
      }
    } else if format.needsPassphrase {
      // Asked once, when the first read reaches it; the second read takes the kept copy.
      let passphrase = KeptSecret {
        try ExportCommand.readSecret(context, prompt: "Passphrase of the export: ")
      }
      let (source, fd) = try ImportSourceFile.encrypted(path) { try passphrase.value() }
      opened = fd
      read = { try format.read(source, each: $0) }
    } else {
      let source = ImportSource.bytes(try ImportSourceFile.read(path))
      read = { try format.read(source, each: $0) }
    }

    var plan = ImportPlan(renamingDuplicates: renameDuplicates)
    try Self.located {
      try read { item in
        switch item {
        case .entry(let entry):
          try plan.addEntry(
            named: entry.name, content: entry.content, origin: entry.location.description,
            guarded: entry.guarded)
        case .largeEntry(let entry):
          // Hashed as it is read (and checked), so the second read must give the same bytes.
          let digest = plan.entryDigest(length: entry.length, guarded: entry.guarded)
          try entry.content.pieces { digest.update($0) }
          try plan.addEntry(
            named: entry.name, length: entry.length, origin: entry.location.description,
            digest: digest.finish())
        case .journal(let journal):
          try plan.addJournal(
            text: journal.text, stamp: journal.stamp, origin: journal.location.description)
        }
        progress?.update("reading", done: plan.itemCount, total: nil)
      }
      try plan.resolveRenames()
    }
    progress?.clear()

    let unlocked = try context.open(.use(reason: "import entries"))
    let total = plan.itemCount
    let counts = try Self.located {
      try unlocked.entries.importItems(
        plan, replacing: replacing, dryRun: dryRun,
        progress: { progress?.update("importing", done: $0, total: total) }
      ) { writer in
        try read { item in
          switch item {
          case .entry(let entry):
            try writer.entry(named: entry.name, content: entry.content, guarded: entry.guarded)
          case .largeEntry(let entry):
            try writer.entry(
              named: entry.name, length: entry.length, source: try entry.contentSource(),
              guarded: entry.guarded)
          case .journal(let journal): try writer.journal(text: journal.text, stamp: journal.stamp)
          }
        }
      }
    }
    progress?.clear()
    for line in Self.renamedLines(plan, dryRun: dryRun) { Output.error(Output.printable(line)) }
    Output.error(Self.report(counts, dryRun: dryRun))
    return ExitCode.success.rawValue
  }

  /// The items `--rename-duplicates` renamed, one line each (the first 20, then how many
  /// more): `line 8: 'Forum' is an earlier item's name too; imported as 'Forum (2)'`.
  static func renamedLines(_ plan: ImportPlan, dryRun: Bool) -> [String] {
    let shown = 20
    var lines = plan.renamed.prefix(shown).map {
      "\($0.origin): '\($0.given)' is an earlier item's name too;"
        + " \(dryRun ? "would be imported" : "imported") as '\($0.name)'"
    }
    if plan.renamed.count > shown {
      lines.append("... and \(plan.renamed.count - shown) more items renamed so")
    }
    return lines
  }

  /// The closing line, such as `Imported 3 entries (1 replacing an existing one) and 2 journal
  /// entries.` (for a dry run `Would import …; nothing was written.`), naming the journal
  /// entries left out as already there.
  static func report(_ counts: ImportCounts, dryRun: Bool) -> String {
    func count(_ number: Int, _ one: String, _ many: String) -> String {
      "\(number) \(number == 1 ? one : many)"
    }
    var entries = count(counts.entries, "entry", "entries")
    if counts.replaced > 0 {
      entries +=
        counts.replaced == 1
        ? " (1 replacing an existing one)" : " (\(counts.replaced) replacing existing ones)"
    }
    var what = "\(entries) and \(count(counts.journal, "journal entry", "journal entries"))"
    if counts.journalAlreadyThere > 0 {
      let there = counts.journalAlreadyThere
      what +=
        " (\(there) more \(there == 1 ? "is" : "are") in the journal already, with the same time"
        + " and text, and \(dryRun ? "would be" : there == 1 ? "was" : "were") left out)"
    }
    return dryRun ? "Would import \(what); nothing was written." : "Imported \(what)."
  }

  /// `body`, with a fault of the source or of one item reported with its place (`line 12: …`).
  static func located<R>(_ body: () throws -> R) throws -> R {
    do {
      return try body()
    } catch let error as TransferError {
      let refused = error.fault.map(VaultError.invalidInput) ?? .invalidInputText(error.message)
      guard let location = error.location else { throw refused }
      throw LocatedError(location: location.description, refused)
    } catch let error as ImportItemError {
      throw LocatedError(
        location: error.origin, error.error,
        hint: error.isDuplicate
          ? "--rename-duplicates imports each later one as 'NAME (2)', 'NAME (3)', ..." : nil)
    }
  }
}

/// A secret asked for at most once: `value` runs `ask` the first time and returns its answer
/// every time after.
final class KeptSecret: @unchecked Sendable {
  private let ask: () throws -> SecureBytes
  private var kept: SecureBytes?

  init(_ ask: @escaping () throws -> SecureBytes) { self.ask = ask }

  func value() throws -> SecureBytes {
    if let kept { return kept }
    let asked = try ask()
    kept = asked
    return asked
  }
}
