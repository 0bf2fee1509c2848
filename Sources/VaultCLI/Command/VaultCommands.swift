import VaultFormat

/// The whole command line of `vault`, as one value.
public enum VaultCommands {
  /// The program specification.
  public static let program: ProgramSpec = ProgramSpec(
    root: CommandSpec(
      "vault", "Encrypted secrets and journal entries behind a PIN and biometrics.",
      discussion: """
        vault keeps secrets and journal entries in one encrypted file. Its keys are released \
        only after the PIN and a biometric match whose enrollment (domain state) equals the one \
        sealed at activation. The biometric sensor is simulated by biosim(1).
        """,
      subcommands: [
        InitCommand.spec,
        AddCommand.spec,
        GetCommand.spec,
        ListCommand.spec,
        RemoveCommand.spec,
        MoveCommand.spec,
        setField, unsetField, runCommand, inject, audit, find, importEntries,
        PasswdCommand.spec,
        RecoverCommand.spec,
        RekeyCommand.spec,
        StatusCommand.spec,
        UnlockCommand.spec,
        LockCommand.spec,
        CommandSpec(
          "__agent", "Run the unlock agent (started by 'vault unlock').",
          options: [Keys.persistent.spec], hidden: true, run: AgentServer.run),
        VerifyHeldCommand.spec,
        CommandSpec(
          "biometry", aliases: ["bio"], "Activate, deactivate or inspect biometric unlock.",
          subcommands: [
            BiometryActivateCommand.spec,
            BiometryDeactivateCommand.spec,
            BiometryStatusCommand.spec,
          ]),
        edit, journal, grep, generate, otp, history, restore, purge, settings, clipClear,
        exportEntries, sync,
        CommandSpec(
          "config", "Show or change this device's settings for the vault (sync.auto).",
          discussion: """
            Alone, prints every setting as KEY VALUE; with KEY, its value; with KEY VALUE, sets \
            it. sync.auto (default off; the vault must sync, see 'vault sync init'): on, every \
            command that changes the vault starts 'vault sync' in the background when it is \
            done, and never waits for it. The background sync takes the key from a session or \
            the agent, as any command does; without one it cannot ask for the PIN and does \
            nothing. Its messages replace those of the one before in PATH.sync/auto-sync.log. \
            The setting is this device's (in the sync repository's git configuration), not \
            synced. Needs no key.
            """,
          arguments: [Keys.configKey.spec, Keys.configValue.spec],
          run: runs(ConfigCommandRun.run)),
        CheckCommand.spec,
        BackupCommand.spec,
        CommandSpec(
          "tour", "Run every command on a throwaway vault and show what it does.",
          discussion: """
            Creates a vault and a simulated sensor in a temporary folder, touching nothing of \
            yours, and runs a scripted story through the built binaries: init, enrollment, \
            activation, a journal entry piped in, unlock, read back in a pipeline, a field, a \
            one-time code, the tree, a fuzzy find and an audit, an enrollment change refused \
            with exit 15, re-activation and unlock again.
            """, run: Tour.run),
        CommandSpec(
          "completions", "Print the tab-completion script for bash, zsh or fish.",
          discussion: """
            Load it at once with source <(vault completions bash) in bash, \
            source <(vault completions zsh) in zsh after compinit, or \
            vault completions fish | source in fish. Entry names are completed only while a \
            session is valid; completion never asks for the PIN.
            """,
          arguments: [Keys.shellArgument.spec], run: CompletionsCommand.print),
        CommandSpec(
          "__complete", "Print the entry names starting with PREFIX, for completion scripts.",
          options: [Keys.completeTags.spec, Keys.completeJournal.spec],
          arguments: [Keys.prefix.spec], hidden: true,
          silent: true, run: CompleteCommand.run),
        CommandSpec(
          "__complete-fields", "Print the field keys of the entry a command line names.",
          arguments: [Keys.fieldPrefix.spec, Keys.completedLine.spec], hidden: true, silent: true,
          run: CompleteCommand.fields),
        CommandSpec(
          "help", "Show help for a command.", arguments: [Keys.command.spec],
          run: { try HelpCommand.run($0, program: VaultCommands.program) }),
        version,
      ]),
    globalOptions: [Keys.vault.spec, Keys.pinFD.spec, Keys.help.spec, Keys.version.spec],
    version: "0.12.0",
    example: "printf 'hunter2' | vault add mail/work; vault get mail/work",
    agentCommands: agentCommands,
    otherToolWords: otherToolWords
  ).completingHelp()
}

extension VaultCommands {
  /// The commands the unlock agent runs when it holds the vault (`ProgramSpec.agentCommands`).
  ///
  /// Every one that reads or changes entries or the journal with a session's key. `unlock`,
  /// `passwd`, `recover`, `rekey` and `biometry` always ask for their own credentials, and
  /// `journal` alone writes without a key.
  static let agentCommands: [[String]] = [
    ["add"], ["get"], ["list"], ["rm"], ["mv"], ["edit"], ["grep"], ["generate"], ["find"],
    ["set"], ["unset"], ["otp"], ["run"], ["inject"], ["audit"], ["export"], ["import"],
    ["history"], ["restore"], ["purge"], ["settings"], ["check"], ["journal", "list"],
    ["journal", "show"], ["journal", "edit"], ["journal", "tags"], ["__complete"],
    ["__complete-fields"], ["__verify-held"], ["sync"], ["sync", "init"], ["sync", "devices"],
  ]
}
