import FoundationEssentials
import Glibc
import VaultCore
import VaultFormat

/// `vault find`, and the `--tree` drawing of `vault list`.
enum FindCommandRun {
  /// Prints the names that match every WORD, best first, one per line.
  ///
  /// With `--json`, `[{"name":…,"score":…},…]`. Returns 0, or 1 when nothing matched (as grep).
  ///
  /// - Throws: `UsageError` for an empty WORD; the errors of opening the vault.
  static func find(_ context: Context) throws -> Int32 {
    let words = context.invocation.arguments
    guard !words.contains(where: \.isEmpty) else {
      throw UsageError(message: "WORD is empty", path: context.invocation.path)
    }
    let names = try context.open(.use(reason: "find entries")).entries.listing().map(\.name)
    let found = FuzzyMatch.rank(names, words: words)
    if context.flag(Keys.json) {
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

  /// True for `list --tree`.
  ///
  /// - Throws: `UsageError` with `--json`, which stays a flat array.
  static func wantsTree(_ context: Context) throws -> Bool {
    guard context.flag(Keys.tree) else { return false }
    if context.flag(Keys.json) {
      throw UsageError(
        message: "--tree draws text; --json is always a flat array", path: context.invocation.path)
    }
    return true
  }

  /// The tree of `names`, all starting with `prefix`: drawn from inside the folder when `prefix`
  /// ends in `/`, else from the top.
  static func tree(_ names: [String], prefix: String) -> String {
    let folder = prefix.canonicallyComposed
    return NameTree.render(names, folder: folder.hasSuffix("/") ? folder : nil)
  }
}
