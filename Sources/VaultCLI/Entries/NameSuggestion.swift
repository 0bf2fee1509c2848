import VaultCore
import VaultFormat

/// The hint for an entry name that is not found, from the names the vault holds: the folder to
/// list, else a name or a folder that differs only by case, else the nearest name by the rule
/// of the command suggestions (`Suggestion.closest`).
///
/// It is given names only by a command that opened the vault with its key: names are secret, so
/// they are never read for a hint alone.
enum NameSuggestion {
  /// The hint for `name` among `names` (full entry names), or nil when none is near.
  static func hint(for name: String, among names: [String]) -> String? {
    if names.contains(where: { $0.hasPrefix(name + "/") }) {
      return "'\(name)' is a folder; " + listHint(name)
    }
    let folded = name.lowercased()
    if let same = names.first(where: { $0.lowercased() == folded }) {
      return "did you mean '\(same)'?"
    }
    let folders = Set(names.flatMap(folders)).sorted()
    if let folder = folders.first(where: { $0.lowercased() == folded }) {
      return "did you mean the folder '\(folder)/'? " + listHint(folder)
    }
    // Names whose length differs by more than the largest distance allowed (3) are never near;
    // leaving them out spares the distance of long names.
    let length = name.count
    let candidates = names.filter { abs($0.count - length) <= 3 }
    return Suggestion.closest(to: name, among: candidates).map { "did you mean '\($0)'?" }
  }

  private static func listHint(_ folder: String) -> String {
    "list it with: vault list \(ShellWord.argument(folder + "/"))"
  }

  /// The folders `name` is in: `a/b/c` is in `a` and `a/b`.
  private static func folders(_ name: String) -> [String] {
    let segments = name.split(separator: "/", omittingEmptySubsequences: false)
    return (1..<max(1, segments.count)).map { segments.prefix($0).joined(separator: "/") }
  }
}

extension Context {
  /// The entry names of the vault this command opened with its key; nil when it opened none, or
  /// when they cannot be read (the failure being reported stays the one shown).
  func openedNames() -> [String]? { try? opened?.entries.listing().map(\.name) }
}
