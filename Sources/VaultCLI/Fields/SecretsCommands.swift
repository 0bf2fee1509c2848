import VaultCore
import VaultFormat
import VaultSecrets

/// The table entries of `run` and `inject`, which hand secrets to other programs, kept beside
/// the main table in `VaultCommands.swift`.
extension VaultCommands {
  static let runCommand = CommandSpec(
    "run", "Run COMMAND with secrets in its environment: --env VAR=NAME[:FIELD] ... -- COMMAND.",
    discussion: """
      Reads each value (the field FIELD of entry NAME; without FIELD the password, the first \
      line), then replaces itself with COMMAND, so COMMAND's exit status is the command's. \
      The text after the last ':' is the field: a name with a ':' in it is written with its \
      field (a:b:password). COMMAND is searched on PATH and gets descriptors 0-2 only, no \
      VAULT_ variable (not even VAULT_SESSION), and the umask and signal dispositions vault \
      was started with. With a session a guarded entry is refused, since its read needs fresh \
      authentication. Without --env nothing is unlocked. Put -- before COMMAND so its options \
      are not read as vault's. A variable in the environment is visible to COMMAND and to \
      whatever it starts, and to the same user through /proc while it runs.
      """,
    options: [Keys.env.spec], arguments: [Keys.runCommand.spec], run: RunCommandRun.run)

  static let inject = CommandSpec(
    "inject", "Fill {{ vault NAME[:FIELD] }} placeholders in a template read from standard input.",
    discussion: """
      Writes the template from standard input with each placeholder replaced by the field \
      FIELD of entry NAME (without FIELD the password, the first line), byte for byte, to \
      standard output, or with --output to a new file of mode 0600, written atomically (an \
      existing file is replaced only with --force; without it the command exits 5). It refuses \
      to write to a terminal. Each placeholder is on one line; spaces and tabs inside the braces \
      are optional, 'vault' is in lower case, and other {{ ... }} text is left as it is. Every reference is checked \
      before anything is unlocked, and nothing is written unless every one is found; an error \
      names the template's line. Redirecting with > creates the file with your umask's mode, \
      so prefer --output for a file that must stay private.
      """,
    options: [Keys.injectOutput.spec, Keys.injectForce.spec], run: runs(InjectCommandRun.run))

  static let audit = CommandSpec(
    "audit", "Check every password (first line) offline: reused, short, weak or old.",
    discussion: """
      Reads the first line of every entry (under PREFIX) and prints NAME: PROBLEM for each \
      problem found: reused (the same first line as other entries anywhere in the vault, \
      compared by a keyed \
      BLAKE2b under a key drawn for this run, never printed), short (fewer than \
      \(PasswordStrength.minimumLength) characters), weak (fewer than \
      \(PasswordStrength.minimumBits) estimated bits; see AUDIT in vault(1)), or old (not \
      changed for \(EntryStore.passwordMaximumAgeDays) days, from the entry's kept history). \
      Nothing leaves the machine. Exits 1 when a problem was found, 0 when none. Every \
      entry's first line is taken as a password, so give a PREFIX to leave notes out; in a \
      session guarded entries are left out, and content that is not text is skipped.
      """,
    options: [Keys.json.spec], arguments: [Keys.prefix.completing(.entryName).spec],
    run: AuditCommandRun.run)
}
