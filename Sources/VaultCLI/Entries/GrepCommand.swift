import Glibc
import VaultCore
import VaultFormat
import VaultJournal
import VaultSecrets

/// `vault grep [-i] [-F] PATTERN`: search entry names, entry contents and journal entries in
/// memory.
///
/// Prints `NAME:LINE:TEXT` per matching line (journal entries by their ID; a match in a name is
/// line 0), `NAME: binary match` for binary content, and exits 0 when anything matched and 1 when
/// nothing did, as grep does. Inside a session the content of guarded entries is not searched (it
/// needs a fresh biometric check per entry); a note on standard error says how many were skipped.
struct GrepCommand: VaultCommand {
  static let about = CommandAbout(
    "grep", "Search entry names, contents and journal entries for a pattern.",
    discussion: """
      Decrypts in memory and prints NAME:LINE:TEXT for each matching line (journal entries by \
      their ID; a match in an entry's name is line 0), or NAME: binary match for content with a \
      NUL byte or invalid UTF-8. PATTERN is a POSIX extended regular expression. Exits 0 when \
      something matched and 1 when nothing did, as grep does. In a session, guarded entries are \
      searched by name only.
      """)

  @FlagParameter(Keys.ignoreCase) var ignoreCase
  @FlagParameter(Keys.fixedStrings) var fixedStrings
  @ArgumentParameter(Keys.pattern) var pattern

  func run(_ context: Context) throws -> Int32 {
    // Character classes and -i follow UTF-8 rather than the C locale's ASCII.
    _ = setlocale(LC_CTYPE, "C.UTF-8")
    let pattern = try SearchPattern(
      self.pattern, fixed: fixedStrings,
      ignoreCase: ignoreCase)
    let unlocked = try context.open(.use(reason: "search the vault"))
    let store = unlocked.entries
    var matched = false
    var skipped = 0
    var large: [String] = []
    for metadata in try store.list() {
      let name = try EntryName(metadata.name)
      if Array(name.value.utf8).withUnsafeBytes(pattern.matches) {
        let shown = Output.listed(name.value)
        Output.print("\(shown):0:\(shown)\n")
        matched = true
      }
      if metadata.guarded && unlocked.source.withholdsGuarded {
        skipped += 1
        continue
      }
      if metadata.isLarge {
        large.append(name.value)
        continue
      }
      let (_, content) = try store.get(name)
      matched = Self.report(content.withBytes(pattern.search), label: name.value) || matched
    }
    let journal = try unlocked.journal().entries()
    for (entry, id) in zip(journal, JournalStore.shortIDs(journal)) {
      matched = Self.report(entry.text.withBytes(pattern.search), label: id) || matched
    }
    if skipped > 0 {
      Output.error(
        "vault: note: the content of \(skipped) guarded entr\(skipped == 1 ? "y was" : "ies were")"
          + " not searched; guarded entries need 'vault get' or a search \(unlocked.source.bypass)")
    }
    if !large.isEmpty {
      let names = large.map { "'\(Output.printable($0))'" }.joined(separator: ", ")
      Output.error(
        "vault: note: \(large.count) entr\(large.count == 1 ? "y is" : "ies are") too large to"
          + " search in memory (a content of more than \(EntryStore.streamThreshold) bytes) and"
          + " \(large.count == 1 ? "was" : "were") not searched: \(names)")
    }
    return matched ? 0 : 1
  }

  /// Prints what one search found; true when anything matched.
  private static func report(_ result: SearchResult, label: String) -> Bool {
    switch result {
    case .none:
      return false
    case .binary:
      Output.print("\(Output.listed(label)): binary match\n")
    case .lines(let lines):
      // On a terminal, stored text never acts on it (escapes) or hides itself (bidi controls).
      for line in lines {
        Output.print("\(Output.listed(label)):\(line.number):\(Output.listed(line.text))\n")
      }
    }
    return true
  }
}
