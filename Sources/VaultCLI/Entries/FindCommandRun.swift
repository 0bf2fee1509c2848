import FoundationEssentials
import Glibc
import VaultCore
import VaultFormat

/// `vault find`, and the `--tree` drawing of `vault list`.
enum FindCommandRun {
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
