import VaultFormat

/// The table entries of `history`, `restore`, `purge` and `settings`, kept beside the main
/// table in `VaultCommands.swift`.
extension VaultCommands {
  static let history = CommandSpec(
    "history", "List the kept versions of an entry, newest first.",
    discussion: """
      Every change of an entry (add --force, edit, generate --force, mv, restore, rm) keeps \
      the version it replaces, encrypted like the entry. Prints one line per version: its \
      revision, when it was made, its size, the command that made it and the name it had; the \
      current version is marked 'current', a removal 'removed'. A version is kept while it is \
      among the newest history_keep of its entry or younger than history_days (see 'vault \
      settings'). Read one with 'vault get NAME --revision R'.
      """,
    options: [Keys.json.spec], arguments: [Keys.name.spec], run: runs(HistoryCommandsRun.history))

  static let restore = CommandSpec(
    "restore", "Bring back a kept version of an entry, also after 'vault rm'.",
    discussion: """
      Makes the chosen revision (by default the newest kept one: the version before the last \
      change, or the entry as it was when removed) the entry's current version, under its \
      current name. The version it replaces is kept, so a restore can be undone too.
      """,
    options: [Keys.restoreRevision.spec], arguments: [Keys.name.spec],
    run: runs(HistoryCommandsRun.restore))

  static let purge = CommandSpec(
    "purge", "Remove an entry and its history for good, or every kept revision.",
    discussion: """
      'vault purge NAME' removes the entry (or what is kept of a removed one) and every \
      revision of it; a tombstone without content stays, so that a later sync does not bring \
      it back. 'vault purge --history' drops every kept revision of every entry; current \
      versions stay. Both then rewrite the file (VACUUM, with freed pages zeroed), so it \
      shrinks. The versions of an entry renamed since are in its history under its new name: \
      purge that name. Neither reaches other copies: backups, copies made with 'vault backup', \
      another machine's copy, the file system's or the disk's own retained blocks.
      """,
    options: [Keys.purgeHistory.spec], arguments: [Keys.purgeName.spec],
    run: runs(HistoryCommandsRun.purge))

  static let settings = CommandSpec(
    "settings", "Show or change the vault's settings (history retention, biometric reuse).",
    discussion: """
      Alone, prints every setting as KEY VALUE. With KEY, prints its value; with KEY VALUE, \
      sets it (a whole number) and applies it at once. history_keep (default 10) keeps that \
      many newest revisions of each entry whatever their age; history_days (default 90) keeps \
      every revision replaced less than that many days ago (the current version is never \
      counted). A revision is dropped only when it is beyond both, when its entry is next \
      changed or a setting changes; 0 and 0 keep no history. biometric_reuse_seconds (default \
      0, at most 300) lets a device unlock with biometry that recent ('biosim unlock-device') \
      stand in for the match of 'vault unlock'; see BIOMETRICS in vault(1).
      """,
    arguments: [Keys.setting.spec, Keys.settingValue.spec],
    run: runs(HistoryCommandsRun.settings))
}
