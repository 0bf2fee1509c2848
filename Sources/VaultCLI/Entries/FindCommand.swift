import FoundationEssentials
import Glibc
import VaultCore
import VaultFormat

/// Prints the names that match every WORD, best first, one per line.
///
/// With `--json`, `[{"name":…,"score":…},…]`. Returns 0, or 1 when nothing matched (as grep).
///
/// - Throws: `UsageError` for an empty WORD; the errors of opening the vault.
struct FindCommand: VaultCommand {
  static let about = CommandAbout(
    "find", "Find entry names by fuzzy match, best first, one per line.",
    discussion: """
      A name matches when every WORD's letters appear in it in order, not necessarily \
      adjacent, in any case (as gopass find does). Each matched letter scores 1, 5 more when it \
      comes right after the previous matched letter of its WORD, and 3 more when it starts the \
      name or follows a '/'; a quarter of the name's length in characters (rounded down) is \
      taken off. Names are printed by score, highest first; equal scores shortest first, then \
      by name. Reads names only, never contents. Exits 0 when something matched and 1 when \
      nothing did, as grep does.
      """)

  @FlagParameter(Keys.json) var json
  @VariadicArgument(Keys.findWords) var findWords

  func run(_ context: Context) throws -> Int32 {
    let words = findWords
    guard !words.contains(where: \.isEmpty) else {
      throw UsageError(message: "WORD is empty", path: context.path)
    }
    let names = try context.open(.use(reason: "find entries")).entries.listing().map(\.name)
    let found = FuzzyMatch.rank(names, words: words)
    if json {
      let rows = found.map {
        JSONOutput.object([("name", .string($0.name)), ("score", .number($0.score))])
      }
      Output.print(JSONOutput.array(rows).rendered + "\n")
    } else if !found.isEmpty {
      var out = ListingOutput()
      for match in found { out.line(listing: match.name) }
      out.finish()
    }
    return found.isEmpty ? ExitCode.failure.rawValue : ExitCode.success.rawValue
  }
}
