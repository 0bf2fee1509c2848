import VaultFormat
import VaultTransfer

/// The table entry of `import`, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let importEntries = CommandSpec(
    "import", "Bring in entries and journal entries from another tool's export.",
    discussion: """
      Reads SOURCE (a file, or - for standard input) in the format FORMAT, checks all of it \
      first and then stores it in one transaction: every name, every value, and every name \
      against the vault, so nothing is written unless all of it can be. An error names the \
      line or record of the source. A name that has an entry is refused unless --force, \
      which keeps the entry's last version in its history. Two items of the source with one \
      name are refused, naming both places, unless --rename-duplicates, which names each \
      later one 'NAME (2)', 'NAME (3)', ... and says so. With --dry-run everything is \
      checked and nothing is written. On a terminal a progress line on standard error shows \
      the count, the rate and the time left. See IMPORT in vault(1) for each format.
      """,
    options: [
      Keys.importFormat.spec, Keys.dryRun.spec, Keys.importForce.spec, Keys.renameDuplicates.spec,
    ],
    arguments: [Keys.importSource.spec], run: runs(ImportCommandRun.run))
}
