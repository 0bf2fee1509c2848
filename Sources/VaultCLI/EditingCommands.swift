/// The table entries of `edit`, `journal`, `grep`, `generate`, `get --clip` and the hidden
/// clipboard clearer, kept beside the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let allowDiskTemp = OptionSpec.flag(
    "allow-disk-temp",
    "Use $TMPDIR when there is no RAM-backed folder (the plaintext may then reach the disk).")

  static let editorDiscussion = """
    The plaintext goes into a private 0700 folder on a RAM-backed file system ($XDG_RUNTIME_DIR, \
    else /dev/shm; with neither, the command refuses unless --allow-disk-temp), as a 0600 file \
    opened with $VISUAL or $EDITOR (else vi). The folder is removed on every exit path: success, \
    editor failure, Ctrl-C, SIGTERM and SIGHUP; one left by a vault killed with SIGKILL is \
    removed by the next vault command. vim and nvim run without swap, backup, undo and viminfo \
    files. Unchanged content writes nothing. When the text did not end in a newline, a final \
    newline added by the editor is dropped.
    """

  static let clipOptions: [OptionSpec] = [
    .flag("clip", short: "c", "Copy to the clipboard instead of printing (wl-copy, xclip, xsel)."),
    .value(
      "clip-time", "SECONDS",
      "Clear the clipboard after this many seconds if it still holds the secret (default 45)."),
  ]

  static let edit = CommandSpec(
    "edit", "Edit an entry in your editor, leaving no plaintext on disk.",
    discussion: """
      Authenticates first (a guarded entry also needs its biometric check), so nothing typed is \
      lost to a failed PIN, then opens the entry in the editor and stores it again when the \
      editor exits successfully.
      """ + " " + editorDiscussion,
    options: [allowDiskTemp], arguments: [nameArgument])

  static let journalDate = "YYYY-MM-DD, today, yesterday or Nd (N days ago)"

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
    options: [allowDiskTemp],
    subcommands: [
      CommandSpec(
        "list", "List entries, newest last: ID, date and time, first line.",
        options: [
          .value("since", "DATE", "Only entries written on or after DATE (\(journalDate))."),
          .value("until", "DATE", "Only entries written on or before DATE."),
          .value("count", short: "n", "N", "Only the newest N entries (still newest last)."),
          json,
        ]),
      CommandSpec(
        "show", "Print an entry exactly, or every entry of a day.",
        discussion: """
          With an ID, prints the entry's text byte for byte. With a DATE, prints each entry of \
          that day, newest last, after a line '--- ID TIME', each ending in a newline. A word \
          that is a DATE form is read as a date.
          """,
        arguments: [
          ArgumentSpec("ENTRY", "An entry ID (a unique prefix) or a DATE (\(journalDate)).")
        ]),
      CommandSpec(
        "edit", "Edit a journal entry in your editor; its ID and time stay.",
        discussion: editorDiscussion, options: [allowDiskTemp],
        arguments: [ArgumentSpec("ID", "An entry ID or a unique prefix of one.")]),
    ],
    runnable: true)

  static let grep = CommandSpec(
    "grep", "Search entry names, contents and journal entries for a pattern.",
    discussion: """
      Decrypts in memory and prints NAME:LINE:TEXT for each matching line (journal entries by \
      their ID; a match in an entry's name is line 0), or NAME: binary match for content with a \
      NUL byte or invalid UTF-8. PATTERN is a POSIX extended regular expression. Exits 0 when \
      something matched and 1 when nothing did, as grep does. In a session, guarded entries are \
      searched by name only.
      """,
    options: [
      .flag("ignore-case", short: "i", "Ignore case."),
      .flag("fixed-strings", short: "F", "PATTERN is a plain string, not a regular expression."),
    ],
    arguments: [ArgumentSpec("PATTERN", "What to look for.")])

  static let generate = CommandSpec(
    "generate", "Store a random password or passphrase under NAME.",
    discussion: """
      Passwords use randombytes_uniform over lower and upper case letters, digits and, unless \
      --no-symbols, the symbols !#$%&()*+,-./:;<=>?@[]^_{|}~, with at least one of each. \
      Passphrases are words from a built-in list of short English words, joined by '-'. The \
      secret is printed only with --print.
      """,
    options: [
      .value("length", "N", "Password length, 8 to 1024 (default 24)."),
      .flag("no-symbols", "Letters and digits only."),
      .value("words", "N", "Make a passphrase of N words (3 to 64) instead."),
      .flag("force", short: "f", "Replace an existing entry."),
      .flag("print", "Also print the new secret."),
    ],
    arguments: [nameArgument])

  static let clipClear = CommandSpec(
    "__clip-clear", "Clear the clipboard later if it still holds the secret on standard input.",
    options: [clipOptions[1]],
    arguments: [ArgumentSpec("TOOL", "wl-copy, xclip or xsel.")],
    hidden: true)
}
