/// The whole command line of `vault`, as one value.
public enum VaultCommands {
  static let nameArgument = ArgumentSpec(
    "NAME", "Entry name: UTF-8, '/' separates folders (a/b/c).", completion: .entryName)

  static let json = OptionSpec.flag("json", "Print JSON instead of text.")

  /// The program specification.
  public static let program = ProgramSpec(
    root: CommandSpec(
      "vault", "Encrypted secrets and journal entries behind a PIN and biometrics.",
      discussion: """
        vault keeps secrets and journal entries in one encrypted file. Its keys are released \
        only after the PIN and a biometric match whose enrollment (domain state) equals the one \
        sealed at activation. The biometric sensor is simulated by biosim(1).
        """,
      subcommands: [
        CommandSpec(
          "init", "Create a new vault and print its one-time recovery code.",
          discussion: """
            Asks for a new PIN twice (or reads one line from --pin-fd), creates the vault and \
            prints the recovery code once on the terminal (standard error when there is none). \
            When the sensor has an enrollment, biometric unlock is activated at once with a \
            match; otherwise enroll and run 'vault biometry activate'. When that activation fails, \
            the vault stays created and the command exits with the failure's code.
            """,
          options: [
            .value(
              "kdf", "PROFILE", "Argon2id cost: interactive, moderate (default) or sensitive.",
              completion: .values(["interactive", "moderate", "sensitive"])),
            .flag("no-biometry", "Create a PIN-only vault (no biometric check)."),
          ]),
        CommandSpec(
          "add", "Store a secret read from standard input or the terminal.",
          discussion: """
            From a pipe or file, the content is exactly the bytes read: nothing added, nothing \
            stripped. On a terminal the secret is asked for twice with echo off and stored \
            without the newline; with --multiline it is read until end of file (Ctrl-D), with \
            echo on so the lines can be seen as typed.
            """,
          options: [
            .flag("force", short: "f", "Replace an existing entry."),
            .flag("multiline", short: "m", "On a terminal, read until end of file."),
            .flag(
              "guard",
              "Every read needs fresh authentication, even in a session: a biometric match, or"
                + " the PIN in a PIN-only vault or under lockout."),
          ],
          arguments: [nameArgument]),
        CommandSpec(
          "get", "Write an entry's content to standard output, byte for byte.",
          options: clipOptions, arguments: [nameArgument]),
        CommandSpec(
          "list", aliases: ["ls"], "List entry names, sorted, one per line.",
          options: [json],
          arguments: [
            ArgumentSpec(
              "PREFIX", "Only names starting with this.", optional: true,
              completion: .entryName)
          ]),
        CommandSpec(
          "rm", aliases: ["remove"], "Delete an entry.", arguments: [nameArgument]),
        CommandSpec(
          "mv", aliases: ["move", "rename"], "Rename an entry.",
          options: [.flag("force", short: "f", "Replace an existing entry named NEW.")],
          arguments: [
            ArgumentSpec("OLD", "Current name.", completion: .entryName),
            ArgumentSpec("NEW", "New name.", completion: .entryName),
          ]),
        CommandSpec(
          "passwd", "Change the PIN (the master key is re-wrapped, entries are untouched).",
          discussion: """
            Asks for the current PIN (and the biometric match the policy requires), then the \
            new PIN twice. With --pin-fd, reads the current PIN and the new PIN as two lines. \
            Every session of the vault is revoked.
            """),
        CommandSpec(
          "recover", "Set a new PIN with the recovery code (also on another machine).",
          discussion: """
            Asks for the recovery code, then a new PIN twice; with --pin-fd reads them as two \
            lines. The new PIN is bound to this machine's device secret, so a vault file copied \
            from another machine becomes usable here.
            """),
        CommandSpec(
          "status", "Show the vault's policy, biometry, PIN delay and session without unlocking.",
          options: [json]),
        CommandSpec(
          "unlock", "Start a session and print the shell code that exports VAULT_SESSION.",
          discussion: """
            Checks the PIN, then the biometric match against the sealed domain state, and \
            issues a session: run eval "$(vault unlock)" in bash or zsh, or \
            vault unlock --shell fish | source. A session ends after its idle timeout (renewed \
            on use), after 8 hours, at reboot, or with 'vault lock'.
            """,
          options: [
            .value(
              "timeout", "DURATION",
              "Idle timeout: 90s, 15m (default), 1h, or plain seconds; 8h at most."),
            .value(
              "shell", "SHELL", "Shell syntax to print: bash (default), zsh or fish.",
              completion: .values(["bash", "zsh", "fish"])),
            .flag("raw", "Print the token alone."),
          ]),
        CommandSpec("lock", "Revoke every session of the vault at once."),
        CommandSpec(
          "biometry", aliases: ["bio"], "Activate, deactivate or inspect biometric unlock.",
          subcommands: [
            CommandSpec(
              "activate", "Seal the current enrollment's domain state (PIN, then a match).",
              discussion: """
                Verifies the PIN first, then asks for a biometrics-only match and seals the \
                domain state from that match, with the sensor type and the time. This is the \
                only way back after biometric unlock was disabled by an enrollment change.
                """),
            CommandSpec(
              "deactivate", "Turn biometric unlock off (PIN and a match, or the recovery code).",
              discussion: """
                Makes the vault PIN-only. Needs the PIN and a biometric match, or with \
                --recovery the recovery code; never the PIN alone. Revokes every session.
                """,
              options: [.flag("recovery", "Authorize with the recovery code instead.")]),
            CommandSpec(
              "status", "Show whether biometric unlock is active, and why not.",
              options: [json]),
          ]),
        edit, journal, grep, generate, clipClear,
        CommandSpec(
          "check", "Open every record (entries, chunks, journal) and report any damage.",
          discussion: """
            Unlocks, then verifies the header MAC and every entry's metadata and content chunks, \
            every journal entry, and that no row is of an unknown kind or without its entry. \
            Prints a one-line summary; the first damaged record exits 17, naming it.
            """),
        CommandSpec(
          "backup", "Write a consistent copy of the vault file (still encrypted) to PATH.",
          discussion: """
            Uses SQLite's online backup, so the copy is consistent even while other commands \
            write. Needs no PIN: the copy is as encrypted as the vault, and its PIN keyslot is \
            bound to this device; on another machine, open it with 'vault recover'. Never \
            overwrites a file.
            """,
          arguments: [ArgumentSpec("PATH", "The new file.", completion: .file)]),
        CommandSpec(
          "tour", "Run every command on a throwaway vault and show what it does.",
          discussion: """
            Creates a vault and a simulated sensor in a temporary folder, touching nothing of \
            yours, and runs a scripted story through the built binaries: init, enrollment, \
            activation, a journal entry piped in, unlock, read back in a pipeline, an \
            enrollment change refused with exit 15, re-activation and unlock again.
            """),
        CommandSpec(
          "completions", "Print the tab-completion script for bash, zsh or fish.",
          discussion: """
            Load it at once with source <(vault completions bash) in bash, \
            source <(vault completions zsh) in zsh after compinit, or \
            vault completions fish | source in fish. Entry names are completed only while a \
            session is valid; completion never asks for the PIN.
            """,
          arguments: [
            ArgumentSpec(
              "SHELL", "bash, zsh or fish.", completion: .values(["bash", "zsh", "fish"]))
          ]),
        CommandSpec(
          "__complete", "Print the entry names starting with PREFIX, for completion scripts.",
          arguments: [ArgumentSpec("PREFIX", "Only names starting with this.", optional: true)],
          hidden: true),
        CommandSpec(
          "help", "Show help for a command.",
          arguments: [
            ArgumentSpec("COMMAND", "The command to describe.", optional: true, variadic: true)
          ]),
      ]),
    globalOptions: [
      .value(
        "vault", "PATH", "Vault file (default $VAULT_PATH, else ~/.local/share/vault/vault.db).",
        completion: .file),
      .value("pin-fd", "FD", "Read the PIN (one line per prompt) from this file descriptor."),
      .flag("help", short: "h", "Show help for the command."),
      .flag("version", "Show the version."),
    ],
    version: "0.1.0"
  ).completingHelp()
}
