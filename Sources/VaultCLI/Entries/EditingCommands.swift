import VaultCore
import VaultFormat
import VaultSecrets

/// The table entries of `edit`, `journal`, `grep`, `generate`, `get --clip` and the hidden
/// clipboard clearer, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let editorDiscussion = """
    The plaintext goes into a private 0700 folder on a RAM-backed file system ($XDG_RUNTIME_DIR, \
    else /dev/shm; with neither, the command refuses unless --allow-disk-temp), as a 0600 file \
    opened with $VISUAL or $EDITOR (else vi). The folder is removed on every exit path: success, \
    editor failure, Ctrl-C, SIGTERM and SIGHUP; one left by a vault killed with SIGKILL is \
    removed by the next vault command. vim and nvim run without swap, backup, undo and viminfo \
    files. Unchanged content writes nothing. When the text did not end in a newline, a final \
    newline added by the editor is dropped.
    """

  static let clipOptions: [OptionSpec] = [Keys.clip.spec, Keys.clipTime.spec]

  static let edit = EditCommand.spec

  static let journal = CommandSpec(
    "journal", "Write a journal entry without unlocking; list, show or edit entries.",
    discussion: """
      Run alone, writes a new entry stamped with the local time (ISO 8601 with the UTC offset): \
      from standard input when it is not a terminal, otherwise from the editor. Text is never \
      taken from the command line. Writing needs neither the PIN nor the sensor: the entry is \
      sealed to the vault's journal public key (crypto_box_seal), and only the master key opens \
      it again. An empty editor buffer writes nothing. Entries are shown by the first 8 hex \
      digits of their ID; any unique prefix selects one. Dates are the local days the entries \
      were written on; today, yesterday and Nd count calendar days in the local time zone (TZ).
      """,
    options: [Keys.allowDiskTemp.spec],
    subcommands: [
      CommandSpec(
        "list", "List entries, newest last: ID, date and time, first line.",
        options: [
          Keys.since.spec, Keys.until.spec, Keys.count.spec, Keys.tag.spec, Keys.json.spec,
        ],
        run: runs(JournalCommandsRun.list)),
      journalTags,
      CommandSpec(
        "show", "Print an entry exactly, or every entry of a day.",
        discussion: """
          With an ID, prints the entry's text byte for byte. With a DATE, prints each entry of \
          that day, newest last, after a line '--- ID TIME', each ending in a newline. A word \
          that is a DATE form is read as a date.
          """,
        arguments: [Keys.journalEntry.spec], run: runs(JournalCommandsRun.show)),
      CommandSpec(
        "edit", "Edit a journal entry in your editor; its ID and time stay.",
        discussion: editorDiscussion, options: [Keys.allowDiskTemp.spec],
        arguments: [Keys.journalID.spec], run: JournalCommandsRun.edit),
    ],
    run: JournalCommandsRun.write)

  static let grep = GrepCommand.spec

  static let generate = GenerateCommand.spec

  static let clipClear = CommandSpec(
    "__clip-clear", "Clear the clipboard later if it still holds the secret on standard input.",
    options: [Keys.clipTime.spec], arguments: [Keys.clipTool.spec], hidden: true,
    run: runs(Clipboard.clearLater))
}
