import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSecrets

/// `vault list`.
struct ListCommand: VaultCommand {
  static let about = CommandAbout(
    "list", aliases: ["ls"], "List entry names, sorted, one per line.",
    discussion: """
      A PREFIX ending in '/' lists that folder. With --tree, the names are drawn as a \
      tree (as pass does), sorted, an entry before a folder of the same name; a folder's \
      line ends in '/', so an entry that is also a folder (a and a/b) has two lines. \
      With a folder PREFIX the tree is that folder's, under a first line naming it.
      """)

  @FlagParameter(Keys.json) var json
  @FlagParameter(Keys.listRemoved) var listRemoved
  @FlagParameter(Keys.tree) var tree
  @OptionalArgument(Keys.listPrefix) var listPrefix

  func run(_ context: Context) throws -> Int32 {
    let prefix = listPrefix ?? ""
    let tree = try TreeListing.wantsTree(
      tree: self.tree, json: json, path: context.path)
    if listRemoved {
      let removed = try context.open(.use(reason: "list removed entries")).entries.removed(
        prefix: prefix)
      if json {
        let rows = removed.map {
          JSONOutput.object([("name", .string($0.name)), ("removed", .string($0.removed))])
        }
        Output.print(JSONOutput.array(rows).rendered + "\n")
      } else if tree {
        Output.print(TreeListing.tree(removed.map(\.name), prefix: prefix))
      } else {
        var out = ListingOutput()
        for entry in removed { out.line(listing: entry.name) }
        out.finish()
      }
      return ExitCode.success.rawValue
    }
    let entries = try context.open(.use(reason: "list entries")).entries.listing(prefix: prefix)
    if json {
      // The array written object by object (the bytes `JSONOutput.array(…).rendered` makes),
      // never the whole text in memory.
      var out = ListingOutput()
      out.append("[")
      for (index, entry) in entries.enumerated() {
        if index > 0 { out.append(",") }
        out.append(
          JSONOutput.object([
            ("name", .string(entry.name)), ("created", .string(entry.created)),
            ("updated", .string(entry.updated)), ("guarded", .bool(entry.guarded)),
          ]).rendered)
      }
      out.append("]\n")
      out.finish()
    } else if tree {
      Output.print(TreeListing.tree(entries.map(\.name), prefix: prefix))
    } else {
      var out = ListingOutput()
      for entry in entries { out.line(listing: entry.name) }
      out.finish()
    }
    return ExitCode.success.rawValue
  }
}
