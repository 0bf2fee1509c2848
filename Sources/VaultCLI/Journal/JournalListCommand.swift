import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal

/// `vault list`.
struct JournalListCommand: VaultCommand {
  static let about = CommandAbout(
    "list", "List entries, newest last: ID, date and time, first line.")

  @OptionParameter(Keys.since) var since
  @OptionParameter(Keys.until) var until
  @OptionParameter(Keys.count) var count
  @RepeatedOption(Keys.tag) var tag
  @FlagParameter(Keys.json) var json

  func run(_ context: Context) throws -> Int32 {
    let now = context.environment.clock.wallNow
    let since = try self.since?.date(now: now)
    let until = try self.until?.date(now: now)
    let limit = count
    let tags = tag
    let contents = try context.open(.use(reason: "read the journal")).journal().contents()
    let all = contents.entries
    defer { JournalWarnings.warn(about: contents) }
    var rows = zip(all, JournalStore.shortIDs(all)).filter { entry, _ in
      (since.map { entry.stamp.date >= $0 } ?? true)
        && (until.map { entry.stamp.date <= $0 } ?? true) && JournalTagsCommand.matches(entry, tags)
    }
    if let limit { rows = Array(rows.suffix(limit)) }
    if json {
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
          ("entry_id", .string(row.hexID)),
          ("unverified", .string(DamageWords.phrase(row.reason))),
        ])
      }
      Output.print(JSONOutput.array(objects + refused).rendered + "\n")
      return ExitCode.success.rawValue
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
        "\(row.hexID.prefix(JournalStore.shortIDLength))  (not verified:"
          + " \(Output.printable(DamageWords.phrase(row.reason))))\n"
      )
    }
    return ExitCode.success.rawValue
  }
}
