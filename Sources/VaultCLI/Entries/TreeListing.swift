import FoundationEssentials
import Glibc
import VaultCore
import VaultFormat

/// The `--tree` drawing of `vault list`.
enum TreeListing {
  /// True for `list --tree`.
  ///
  /// - Throws: `UsageError` with `--json`, which stays a flat array.
  static func wantsTree(tree: Bool, json: Bool, path: [String]) throws -> Bool {
    guard tree else { return false }
    if json {
      throw UsageError(message: "--tree draws text; --json is always a flat array", path: path)
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
