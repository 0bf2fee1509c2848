import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal

/// `show ID` prints the text byte for byte; `show DATE` prints every entry of that day, each
/// after a `--- ID TIME` line and ending in a newline.
struct JournalShowCommand: VaultCommand {
  static let about = CommandAbout(
    "show", "Print an entry exactly, or every entry of a day.",
    discussion: """
      With an ID, prints the entry's text byte for byte. With a DATE, prints each entry of \
      that day, newest last, after a line '--- ID TIME', each ending in a newline. A word \
      that is a DATE form is read as a date.
      """)

  @ArgumentParameter(Keys.journalEntry) var journalEntry

  func run(_ context: Context) throws -> Int32 {
    let argument = journalEntry
    let now = context.environment.clock.wallNow
    let date = try JournalDate.looksLikeDate(argument) ? JournalDate.parse(argument, now: now) : nil
    let prefix = try date == nil ? JournalStore.normalizedIDPrefix(argument) : nil
    let store = try context.open(.use(reason: "read the journal")).journal()
    if let prefix {
      try store.entry(idPrefix: prefix).text.withBytes { Output.write($0) }
      return ExitCode.success.rawValue
    }
    guard let date else { return ExitCode.success.rawValue }
    let all = try store.entries()
    let day = zip(all, JournalStore.shortIDs(all)).filter { $0.0.stamp.date == date }
    guard !day.isEmpty else { throw VaultError.journalEntryNotFound(.day(date)) }
    for (entry, id) in day {
      Output.print("--- \(id) \(entry.stamp)\n")
      entry.text.withBytes { bytes in
        Output.write(bytes)
        if bytes.last != 10 { Output.print("\n") }
      }
    }
    return ExitCode.success.rawValue
  }
}
