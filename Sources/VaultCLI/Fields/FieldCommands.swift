import VaultFormat

/// The table entries of `set` and `unset`, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let setField = CommandSpec(
    "set", "Set one field of an entry (a 'KEY: VALUE' line), keeping the rest of its text.",
    discussion: """
      The value is read from standard input when it is not a terminal (one final newline \
      dropped), otherwise asked for twice with echo off; never from the command line. An \
      existing field keeps its place and spelling; a new one goes after the last field. KEY \
      password replaces the first line. The value is one line of UTF-8 text. The replaced \
      version is kept in the entry's history.
      """,
    arguments: [Keys.name.spec, Keys.fieldKey.spec], run: runs(FieldCommandsRun.set))

  static let unsetField = CommandSpec(
    "unset", "Remove one field (every 'KEY: VALUE' line of KEY) from an entry.",
    discussion: """
      The rest of the text is kept byte for byte, and the replaced version in the entry's \
      history. The password (the first line) cannot be removed.
      """,
    arguments: [Keys.name.spec, Keys.fieldKey.spec], run: runs(FieldCommandsRun.unset))
}
