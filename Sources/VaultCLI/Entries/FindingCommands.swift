import VaultFormat

/// The table entries for finding things (`find`, `version`, the words other tools use) and
/// `journal tags`, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let find = CommandSpec(
    "find", "Find entry names by fuzzy match, best first, one per line.",
    discussion: """
      A name matches when every WORD's letters appear in it in order, not necessarily \
      adjacent, in any case (as gopass find does). Each matched letter scores 1, 5 more when it \
      comes right after the previous matched letter of its WORD, and 3 more when it starts the \
      name or follows a '/'; a quarter of the name's length in characters (rounded down) is \
      taken off. Names are printed by score, highest first; equal scores shortest first, then \
      by name. Reads names only, never contents. Exits 0 when something matched and 1 when \
      nothing did, as grep does.
      """,
    options: [Keys.json.spec], arguments: [Keys.findWords.spec], run: FindCommandRun.find)

  static let version = CommandSpec(
    "version", "Show the version (as --version).",
    run: runs { _ in Output.print("vault \(VaultCommands.program.version)\n") })

  static let journalTags = CommandSpec(
    "tags", "List the journal's tags (@word), most used first, with their counts.",
    discussion: """
      A tag is a word that starts with '@' at the start of an entry or after white space, \
      followed by letters, digits, '_' or '-' (as in jrnl; an address such as a@b.c has none); \
      tags differ only by more than case. Each line is the number of entries with the tag, \
      right-aligned, two spaces and the tag in lower case; equal counts by tag.
      """,
    options: [Keys.json.spec], run: runs(JournalTagsRun.tags))

  /// Words that other password managers take and vault does not, each with the hint that names
  /// vault's way (a near command is never suggested for them: `git` is not `get`).
  static let otherToolWords: [String: String] = [
    "copy": "copy an entry to the clipboard with: vault get --clip NAME",
    "cp":
      "copy an entry under another name with: vault get NAME | vault add NEW; to the clipboard:"
      + " vault get --clip NAME",
    "git":
      "vault keeps one encrypted file and has no git store; it syncs between devices through a"
      + " git remote with: vault sync init REMOTE, then vault sync",
  ]
}
