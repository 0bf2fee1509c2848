import VaultFormat

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
        arguments: [Keys.syncRemote.spec], run: runs(SyncCommandsRun.initialize)),
      CommandSpec(
        "clone", "Join this device to a vault synced at REMOTE, with its recovery code.",
        discussion: """
          For a device with no vault yet: fetches REMOTE, asks for the vault's recovery code \
          (which opens it; a wrong code is refused before anything is written), verifies \
          every file, makes the vault file, then asks for a new PIN for this device twice (or \
          reads the code and the PIN as two lines from --pin-fd; a failure before the PIN is \
          set removes the vault file and repository it made) and syncs, so the other \
          devices learn of this one. This device gets its own PIN keyslot, journal writer key \
          and, with 'vault biometry activate', its own biometric activation.
          """,
        arguments: [Keys.syncRemote.spec], run: runs(SyncCommandsRun.clone)),
      CommandSpec(
        "devices", "List the devices that sync this vault.",
        discussion: """
          One line per device: the first 8 hex digits of its id, its biometric unlock \
          (active, off or disabled), how many commits it pushed as of this device's last sync, \
          and which is this one; then the revoked ones. Needs the key (a session will do).
          """,
        options: [Keys.json.spec], run: runs(SyncCommandsRun.devices)),
      CommandSpec(
        "revoke", "Remove a device from the vault: its PIN keyslot and its writer key.",
        discussion: """
          Needs the PIN and a match (never a session). Removes DEVICE's record from the \
          vault's header, so its PIN opens nothing the next syncs carry, moves its journal \
          writer key to the retired ones (its entries so far still verify, none it signs \
          later is taken), and syncs, so every device learns it; a revoked device's own sync \
          is then refused (exit 17). The revoked device still holds the master key and so \
          everything synced until now, and anything synced later that it obtains: the \
          command syncs first (a rotation another device made is taken then, and the command \
          stops with exit 18 before anything changes: run it again); with --rekey it then also rotates the master key (a new recovery \
          code, shown and typed back, as 'vault rekey') and syncs the rotation, so the revoked \
          device reads nothing written after it; each other device takes the new key at its \
          next 'vault sync', with its PIN. See SYNC in vault(1).
          """,
        options: [Keys.rekey.spec], arguments: [Keys.syncDevice.spec],
        run: runs(SyncCommandsRun.revoke)),
    ],
    run: runs(SyncCommandsRun.sync))
}
