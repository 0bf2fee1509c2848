import VaultFormat

/// The table entries for finding things (`find`, `version`, the words other tools use) and
/// `journal tags`, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let find = FindCommand.spec

  static let version = CommandSpec(
    "version", "Show the version (as --version).",
    run: runs { _ in Output.print("vault \(VaultCommands.program.version)\n") })

  static let journalTags = JournalTagsCommand.spec

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
