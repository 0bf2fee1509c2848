import VaultCore
import VaultJournal

/// A journal TAG as typed after `--tag`: `@work` or `work`, in any case.
public struct JournalTagWord: ArgumentValue, Equatable {
  /// The tag's key (`JournalTags.key`): lower case, without the `@`.
  public let key: String

  /// - Throws: `ValueError` for a word that is not a tag.
  public init(argument: String, label: String) throws {
    guard let key = JournalTags.key(argument) else {
      throw ValueError(
        "invalid tag '\(argument)' for \(label) (letters, digits, '_' and '-', after an optional"
          + " '@')")
    }
    self.key = key
  }

  /// The tags of the journal, through `vault __complete --tags`.
  public static var completion: CompletionKind { .journalTag }
}

/// `vault journal tags`, and the `--tag` filter of `vault journal list`.
enum JournalTagsRun {
  /// Prints every tag with the number of entries that have it: `COUNT  @TAG` per line, the
  /// counts right-aligned, most used first; with `--json`, `[{"tag":"@work","count":3},…]`.
  static func tags(_ context: Context) throws {
    let contents = try context.open(.use(reason: "read the journal")).journal().contents()
    defer { JournalCommandsRun.warn(about: contents) }
    let counts = JournalTags.counts(contents.entries)
    if context.flag(Keys.json) {
      let rows = counts.map {
        JSONOutput.object([("tag", .string("@" + $0.key)), ("count", .number($0.count))])
      }
      Output.print(JSONOutput.array(rows).rendered + "\n")
      return
    }
    let width = String(counts.first?.count ?? 0).count
    for (key, count) in counts {
      let number = String(count)
      let pad = String(repeating: " ", count: width - number.count)
      Output.print("\(pad)\(number)  @\(Output.printable(key))\n")
    }
  }

  /// True when `entry` has every tag of `wanted` (keys); true for an empty `wanted`.
  static func matches(_ entry: JournalEntry, _ wanted: [JournalTagWord]) -> Bool {
    guard !wanted.isEmpty else { return true }
    let keys = Set(JournalTags.keys(in: entry.text))
    return wanted.allSatisfy { keys.contains($0.key) }
  }
}
