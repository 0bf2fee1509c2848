/// Entry names drawn as a tree, as `pass` and `gopass` draw a store.
///
/// Every line is a name one can type: an entry (its last segment) or a folder (its segment and a
/// `/`). Siblings are sorted by segment (UTF-8 byte order), an entry before the folder of the
/// same name, so `a` and `a/b` give the lines `a` and `a/` with `b` under it. Branches are drawn
/// with `├── `, `└── ` and `│   `; segments go through `Output.printable`.
enum NameTree {
  /// One folder: its entries and its subfolders, by segment.
  private final class Folder {
    var entries: Set<String> = []
    var folders: [String: Folder] = [:]

    func add(_ segments: ArraySlice<Substring>) {
      guard let first = segments.first else { return }
      let segment = String(first)
      if segments.count == 1 {
        entries.insert(segment)
      } else {
        let folder = folders[segment] ?? Folder()
        folders[segment] = folder
        folder.add(segments.dropFirst())
      }
    }

    /// Entries and folders in drawing order: by segment, an entry before its folder.
    var items: [(label: String, folder: Folder?)] {
      let segments = Set(entries).union(folders.keys).sorted {
        $0.precedesInByteOrder($1)
      }
      return segments.flatMap { segment -> [(label: String, folder: Folder?)] in
        var out: [(label: String, folder: Folder?)] = []
        if entries.contains(segment) { out.append((segment, nil)) }
        if let folder = folders[segment] { out.append((segment + "/", folder)) }
        return out
      }
    }
  }

  /// The tree of `names` (full entry names), each line ending in a newline; empty for no names.
  ///
  /// - Parameter folder: a folder prefix ending in `/` (`mail/`): every name starts with it, the
  ///   tree is drawn from inside it and its first line is the folder itself. Nil draws the whole
  ///   vault, with no first line (a vault has no name to type).
  static func render(_ names: [String], folder: String? = nil) -> String {
    guard !names.isEmpty else { return "" }
    let root = Folder()
    for name in names {
      let relative = folder.map { String(name.dropFirst($0.count)) } ?? name
      root.add(relative.split(separator: "/", omittingEmptySubsequences: false)[...])
    }
    var out = folder.map { Output.printable($0) + "\n" } ?? ""
    draw(root, indent: "", into: &out)
    return out
  }

  private static func draw(_ folder: Folder, indent: String, into out: inout String) {
    let items = folder.items
    for (index, item) in items.enumerated() {
      let last = index == items.count - 1
      out += indent + (last ? "└── " : "├── ") + Output.printable(item.label) + "\n"
      if let child = item.folder {
        draw(child, indent: indent + (last ? "    " : "│   "), into: &out)
      }
    }
  }
}
