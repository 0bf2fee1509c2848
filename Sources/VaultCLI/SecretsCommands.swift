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
      standard output, or with --output to a new file of mode 0600, written atomically. It \
      refuses to write to a terminal. Each placeholder is on one line; spaces inside the braces \
      are optional, and other {{ ... }} text is left as it is. Every reference is checked \
      before anything is unlocked, and nothing is written unless every one is found; an error \
      names the template's line. Redirecting with > creates the file with your umask's mode, \
      so prefer --output for a file that must stay private.
      """,
    options: [Keys.injectOutput.spec, Keys.injectForce.spec], run: runs(InjectCommandRun.run))
}
