import VaultCore
import VaultJournal

/// `vault journal tags`, and the `--tag` filter of `vault journal list`.
struct JournalTagsCommand: VaultCommand {
  static let about = CommandAbout(
    "tags", "List the journal's tags (@word), most used first, with their counts.",
    discussion: """
      A tag is a word that starts with '@' at the start of an entry or after white space, \
      followed by letters, digits, '_' or '-' (as in jrnl; an address such as a@b.c has none); \
      tags differ only by more than case. Each line is the number of entries with the tag, \
      right-aligned, two spaces and the tag in lower case; equal counts by tag.
      """)

  @FlagParameter(Keys.json) var json

  func run(_ context: Context) throws -> Int32 {
    let contents = try context.open(.use(reason: "read the journal")).journal().contents()
    defer { JournalWarnings.warn(about: contents) }
    let counts = JournalTags.counts(contents.entries)
    if json {
      let rows = counts.map {
        JSONOutput.object([("tag", .string("@" + $0.key)), ("count", .number($0.count))])
      }
      Output.print(JSONOutput.array(rows).rendered + "\n")
      return ExitCode.success.rawValue
    }
    let width = String(counts.first?.count ?? 0).count
    for (key, count) in counts {
      let number = String(count)
      let pad = String(repeating: " ", count: width - number.count)
      Output.print("\(pad)\(number)  @\(Output.printable(key))\n")
    }
    return ExitCode.success.rawValue
  }

  /// True when `entry` has every tag of `wanted` (keys); true for an empty `wanted`.
  static func matches(_ entry: JournalEntry, _ wanted: [JournalTagWord]) -> Bool {
    guard !wanted.isEmpty else { return true }
    let keys = Set(JournalTags.keys(in: entry.text))
    return wanted.allSatisfy { keys.contains($0.key) }
  }
}
