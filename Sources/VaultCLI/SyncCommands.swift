/// The `sync` command's table.
extension VaultCommands {
  static let sync = CommandSpec(
    "sync", "Carry the vault between your devices through a git repository.",
    discussion: """
      Run alone, commits this device's changes, fetches the remote, verifies it, merges it \
      record by record, and pushes; needs the key (the PIN and a match, or a session). 'vault \
      sync init REMOTE' sets it up: REMOTE is any git remote (a path, an ssh or https URL); a \
      local path that does not exist becomes a new bare repository. The repository holds only \
      sealed files under opaque names, with fixed commit messages, authors and dates: see SYNC \
      in vault(1). A remote that is older than what this device synced, or whose files do not \
      verify, is refused with exit 17 and nothing merged; git or the remote failing is exit 21.
      """,
    subcommands: [
      CommandSpec(
        "init", "Set up sync with REMOTE and sync once.",
        discussion: """
          Makes the sync repository beside the vault file (PATH.sync), with REMOTE as its \
          origin, and syncs: into an empty remote the whole vault is pushed; a remote that \
          holds this vault is merged. A remote that holds another vault is refused.
          """,
        arguments: [Keys.syncRemote.spec], run: runs(SyncCommandsRun.initialize))
    ],
    run: runs(SyncCommandsRun.sync))
}
