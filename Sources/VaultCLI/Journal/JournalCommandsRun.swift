import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal

/// `vault journal` (write without unlocking), `journal list`, `journal show`, `journal edit`.
enum JournalCommandsRun {
  /// Writes a new entry from standard input when it is not a terminal, else from the editor.
  ///
  /// Needs neither the PIN nor the sensor: the entry is sealed to the journal public key.
  static func write(_ context: Context) throws -> Int32 {
    let vault = try context.openVault()
    let stamp = JournalStamp.local(context.environment.clock.wallNow)
    let text: SecureBytes
    if isatty(0) == 0 {
      text = try LineReader.readAll(
        fd: 0, atMost: JournalStore.maximumByteCount, what: "the text on standard input")
      guard text.count > 0 else {
        throw VaultError.invalidInput("standard input is empty; nothing was written")
      }
    } else {
      try context.refusePINOnStandardInput("the editor inherits")
      let root = try EditFolder.root(
        context.environment, allowDisk: context.flag(Keys.allowDiskTemp))
      let outcome = try EditSession.run(
        SecureBytes(count: 0), fileName: "journal.txt", root: root,
        environment: context.environment)
      switch outcome {
      case .interrupted(let code):
        Output.error("vault: error: the editor was interrupted; nothing was written")
        return code
      case .changed(let edited) where !isBlank(edited):
        text = edited
      case .changed, .unchanged:
        Output.error("The entry is empty; nothing was written.")
        return 0
      }
    }
    let id = try JournalStore.append(text, to: vault, stamp: stamp)
    Output.error(
      "Wrote journal entry \(id.hex.prefix(JournalStore.shortIDLength)) at \(stamp).")
    return 0
  }

  /// True when `text` is only spaces, tabs and line breaks.
  static func isBlank(_ text: SecureBytes) -> Bool {
    text.withBytes { $0.allSatisfy { [9, 10, 13, 32].contains($0) } }
  }

  static func list(_ context: Context) throws {
    let now = context.environment.clock.wallNow
    let since = try context.value(Keys.since)?.date(now: now)
    let until = try context.value(Keys.until)?.date(now: now)
    let limit = try context.value(Keys.count)
    let tags = try context.values(Keys.tag)
    let contents = try context.open(.use(reason: "read the journal")).journal().contents()
    let all = contents.entries
    defer { warn(about: contents) }
    var rows = zip(all, JournalStore.shortIDs(all)).filter { entry, _ in
      (since.map { entry.stamp.date >= $0 } ?? true)
        && (until.map { entry.stamp.date <= $0 } ?? true) && JournalTagsCommand.matches(entry, tags)
    }
    if let limit { rows = Array(rows.suffix(limit)) }
    if context.flag(Keys.json) {
      let objects = rows.map { entry, id in
        JSONOutput.object([
          ("id", .string(id)), ("entry_id", .string(entry.hexID)),
          ("written", .string(entry.stamp.description)),
          ("first_line", .string(entry.firstLine())), ("format_1", .bool(entry.fromFormatOne)),
        ])
      }
      let refused = contents.unverified.map { row in
        JSONOutput.object([
          ("id", .string(String(row.hexID.prefix(JournalStore.shortIDLength)))),
          ("entry_id", .string(row.hexID)), ("unverified", .string(row.reason)),
        ])
      }
      Output.print(JSONOutput.array(objects + refused).rendered + "\n")
      return
    }
    for (entry, id) in rows {
      let when = entry.stamp.description.replacing("T", with: " ")
      // An entry migrated from format 1 is marked: format 1 could not tell who wrote it.
      let mark = entry.fromFormatOne ? "(format 1) " : ""
      Output.print("\(id)  \(when)  \(mark)\(Output.listed(entry.firstLine()))\n")
    }
    // Marked, never mixed in: a pending row no authorized writer signed shows no text.
    for row in contents.unverified {
      Output.print(
        "\(row.hexID.prefix(JournalStore.shortIDLength))  (not verified: \(Output.printable(row.reason)))\n"
      )
    }
  }

  /// Warns on standard error of what `vault check` would refuse in the journal.
  static func warn(about contents: JournalContents) {
    let count = contents.unverified.count
    if count > 0 {
      Output.error(
        "vault: warning: \(count) pending journal entr\(count == 1 ? "y is" : "ies are") not"
          + " verified: listed without \(count == 1 ? "its" : "their") text; 'vault check'"
          + " refuses \(count == 1 ? "it" : "them")")
    }
    warnOfGaps(contents.missing)
  }

  /// Warns of journal sequence numbers a writer used that never arrived.
  static func warnOfGaps(_ missing: [(writer: String, ranges: [ClosedRange<UInt64>])]) {
    for (writer, ranges) in missing {
      let numbers = ranges.map {
        $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)"
      }
      let count = ranges.reduce(0) { $0 + $1.count }
      Output.error(
        "vault: warning: journal writer \(writer.prefix(8)) never delivered its"
          + " entr\(count == 1 ? "y" : "ies") \(numbers.joined(separator: ", ")) (a write killed"
          + " before it was stored, or entries removed from the file before they were folded)")
    }
  }

  /// `show ID` prints the text byte for byte; `show DATE` prints every entry of that day, each
  /// after a `--- ID TIME` line and ending in a newline.
  static func show(_ context: Context) throws {
    let argument = try context.argument(Keys.journalEntry)
    let now = context.environment.clock.wallNow
    let date = try JournalDate.looksLikeDate(argument) ? JournalDate.parse(argument, now: now) : nil
    let prefix = try date == nil ? JournalStore.normalizedIDPrefix(argument) : nil
    let store = try context.open(.use(reason: "read the journal")).journal()
    if let prefix {
      try store.entry(idPrefix: prefix).text.withBytes { Output.write($0) }
      return
    }
    guard let date else { return }
    let all = try store.entries()
    let day = zip(all, JournalStore.shortIDs(all)).filter { $0.0.stamp.date == date }
    guard !day.isEmpty else { throw VaultError.journalEntryNotFound("on \(date)") }
    for (entry, id) in day {
      Output.print("--- \(id) \(entry.stamp)\n")
      entry.text.withBytes { bytes in
        Output.write(bytes)
        if bytes.last != 10 { Output.print("\n") }
      }
    }
  }

  static func edit(_ context: Context) throws -> Int32 {
    try context.refusePINOnStandardInput("the editor inherits")
    let prefix = try JournalStore.normalizedIDPrefix(
      context.argument(Keys.journalID), datesAllowed: false)
    let root = try EditFolder.root(
      context.environment, allowDisk: context.flag(Keys.allowDiskTemp))
    let unlocked = try context.open(.use(reason: "edit a journal entry"))
    let vault = unlocked.vault
    let store = try unlocked.journal()
    // An entry written without the key is folded into the state before it is edited.
    try store.fold()
    let entry = try store.entry(idPrefix: prefix)
    let short = String(entry.hexID.prefix(JournalStore.shortIDLength))
    let outcome = try EditSession.run(
      entry.text, fileName: "journal-\(short).txt", root: root, environment: context.environment)
    return try EditSession.finish(outcome) { edited in
      guard !isBlank(edited) else {
        throw VaultError.invalidInput("the edited entry is empty; nothing was written")
      }
      do {
        try store.replace(entry, text: edited)
      } catch VaultError.conflict(let what) {
        let id = try JournalStore.append(edited, to: vault, stamp: entry.stamp)
        throw VaultError.conflict(
          "\(what); your edit was saved as the new entry \(id.hex.prefix(JournalStore.shortIDLength))"
        )
      }
      Output.error("Saved journal entry \(short).")
    }
  }
}
