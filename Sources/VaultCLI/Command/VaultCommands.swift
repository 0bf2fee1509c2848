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
        CommandSpec(
          "init", "Create a new vault and print its one-time recovery code.",
          discussion: """
            Asks for a new PIN twice (or reads one line from --pin-fd), creates the vault and \
            prints the recovery code once on the terminal (standard error when there is none), \
            in 9 groups of 4 whose last is a check group. \
            When the sensor has an enrollment, biometric unlock is activated at once with a \
            match; otherwise enroll and run 'vault biometry activate'. When that activation fails, \
            the vault stays created and the command exits with the failure's code.
            """,
          options: [Keys.kdf.spec, Keys.noBiometry.spec],
          run: VaultCommandsRun.initialize),
        CommandSpec(
          "add", aliases: ["insert"], "Store a secret read from standard input or the terminal.",
          discussion: """
            From a pipe or file, the content is exactly the bytes read: nothing added, nothing \
            stripped. On a terminal the secret is asked for twice with echo off and stored \
            without the newline; with --multiline it is read until end of file (Ctrl-D), with \
            echo on so the lines can be seen as typed.
            """,
          options: [Keys.force.spec, Keys.multiline.spec, Keys.guarded.spec],
          arguments: [Keys.name.spec], run: runs(EntryCommandsRun.add)),
        CommandSpec(
          "get", aliases: ["show"], "Write an entry's content to standard output, byte for byte.",
          discussion: """
            To a pipe or file, exactly the bytes selected; on a terminal a newline follows \
            when they do not end in one. --field, --line, --fields and --json select a part \
            of the entry's text (see FIELDS in vault(1)); --clip copies the first line (the \
            password), or what --field or --line selects, or with --all the whole entry. With \
            --revision, reads a kept earlier version instead (see 'vault history'); reading \
            any version of a guarded entry needs its fresh check.
            """,
          options: [
            Keys.field.spec, Keys.line.spec, Keys.listFields.spec, Keys.entryJSON.spec,
            Keys.revision.spec,
          ] + clipOptions + [Keys.clipAll.spec], arguments: [Keys.name.spec],
          run: runs(EntryCommandsRun.get)),
        CommandSpec(
          "list", aliases: ["ls"], "List entry names, sorted, one per line.",
          discussion: """
            A PREFIX ending in '/' lists that folder. With --tree, the names are drawn as a \
            tree (as pass does), sorted, an entry before a folder of the same name; a folder's \
            line ends in '/', so an entry that is also a folder (a and a/b) has two lines. \
            With a folder PREFIX the tree is that folder's, under a first line naming it.
            """,
          options: [Keys.json.spec, Keys.listRemoved.spec, Keys.tree.spec],
          arguments: [Keys.listPrefix.spec],
          run: runs(EntryCommandsRun.list)),
        CommandSpec(
          "rm", aliases: ["remove", "delete"], "Remove an entry (undo with 'vault restore').",
          discussion: """
            The entry's last version is kept in its history, so 'vault restore NAME' brings it \
            back until retention drops it; 'vault purge NAME' removes it for good.
            """, arguments: [Keys.name.spec], run: runs(EntryCommandsRun.remove)),
        CommandSpec(
          "mv", aliases: ["move", "rename"], "Rename an entry.",
          options: [Keys.moveForce.spec], arguments: [Keys.old.spec, Keys.new.spec],
          run: runs(EntryCommandsRun.move)),
        setField, unsetField, runCommand, inject, audit, find, importEntries,
        CommandSpec(
          "passwd", "Change the PIN (the master key is re-wrapped, entries are untouched).",
          discussion: """
            Asks for the current PIN (and the biometric match the policy requires), then the \
            new PIN twice. With --pin-fd, reads the current PIN and the new PIN as two lines. \
            Every session of the vault is revoked.
            """, run: runs(VaultCommandsRun.passwd)),
        CommandSpec(
          "recover", "Set a new PIN with the recovery code (also on another machine).",
          discussion: """
            Asks for the recovery code, then a new PIN twice; with --pin-fd reads them as two \
            lines. A code with a typo in it is refused (exit 5) before anything is tried; a code \
            shown without a check group (8 groups, by an earlier release) is typed as shown. The \
            new PIN is bound to this machine's device secret, so a vault file copied from another \
            machine becomes usable here.
            """, run: runs { _ = try VaultCommandsRun.recover($0) }),
        CommandSpec(
          "rekey", "Replace the master key, the journal keys and the recovery code.",
          discussion: """
            Asks for the PIN (and the match the policy requires), shows a new recovery code on \
            the terminal and asks for it back; only then, in one transaction, seals every entry, \
            revision, journal entry and content chunk again under a new master key, seals that \
            key to every device, makes a new journal key pair and writer key, and replaces the \
            recovery code. Interrupted before that, nothing changed. Every session is revoked, \
            the old recovery code stops working, and a copy of the old keys, sessions or device \
            state reads nothing written after. The PIN does not change. The code is shown on \
            the terminal (on standard error without one) and read back like the PIN (from \
            --pin-fd when given).
            """, run: runs(RekeyCommandRun.run)),
        CommandSpec(
          "status",
          "Show the vault's policy, biometry, PIN delay, agent and session without unlocking.",
          options: [Keys.json.spec, Keys.check.spec], run: VaultCommandsRun.status),
        CommandSpec(
          "unlock", "Hand the vault's key to your unlock agent, for every shell of yours.",
          discussion: """
            Checks the PIN, then the biometric match against the sealed domain state, and hands \
            the master key to the unlock agent (started on demand): every shell of yours then \
            reads without a prompt, so 'vault unlock && vault get NAME' just works. The agent \
            lets the vault go after its idle timeout (renewed on use), after 8 hours, with \
            'vault lock', a PIN change, a recovery or a rotation, and at the first use after \
            the enrollment changed. When it already holds the vault, unlock says so and asks \
            nothing (--force asks anyway). With --shell-session (implied by --shell and --raw) \
            it issues a session for one shell instead: eval "$(vault unlock --shell-session)" \
            in bash or zsh, vault unlock --shell fish | source.
            """,
          options: [
            Keys.timeout.spec, Keys.shellSession.spec, Keys.shell.spec, Keys.raw.spec,
            Keys.unlockAgain.spec,
          ],
          run: runs(SessionCommandsRun.unlock)),
        CommandSpec(
          "lock", "Lock the vault: the agent lets it go and every session is revoked.",
          run: runs(SessionCommandsRun.lock)),
        CommandSpec(
          "__agent", "Run the unlock agent (started by 'vault unlock').",
          options: [Keys.persistent.spec], hidden: true, run: AgentServer.run),
        CommandSpec(
          "__verify-held",
          "Exit 0 when the agent's key still opens the vault and its binding holds, 10 if not.",
          hidden: true, silent: true, run: SessionCommandsRun.verifyHeld),
        CommandSpec(
          "biometry", aliases: ["bio"], "Activate, deactivate or inspect biometric unlock.",
          subcommands: [
            CommandSpec(
              "activate", "Seal the current enrollment's domain state (PIN, then a match).",
              discussion: """
                Verifies the PIN first, then asks for a biometrics-only match and seals the \
                domain state from that match, with the sensor type and the time. This is the \
                only way back after biometric unlock was disabled by an enrollment change.
                """, run: runs(SessionCommandsRun.activate)),
            CommandSpec(
              "deactivate",
              "Turn biometric unlock off on this device (PIN and a match, or the recovery code).",
              discussion: """
                Makes the vault PIN-only on this device; the other devices of a synced vault \
                keep their own policy. Needs the PIN and a biometric match, or with \
                --recovery the recovery code; never the PIN alone. Revokes every session.
                """,
              options: [Keys.recovery.spec], run: runs(SessionCommandsRun.deactivate)),
            CommandSpec(
              "status", "Show whether biometric unlock is active, and why not.",
              options: [Keys.json.spec], run: runs(SessionCommandsRun.biometryStatus)),
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
        CommandSpec(
          "check", "Verify the vault's state and every record, and report any damage.",
          discussion: """
            Unlocks, then verifies the header MAC, the state and its aggregate of every row (so \
            a deleted, added or rolled-back row is found), every entry's metadata and content \
            chunks, every journal entry and its writer's signature, and the journal entries \
            still pending. Prints a one-line summary; the first damage exits 17, naming it. \
            With --accept-older, a file older than the state this device last saw (a backup \
            restored on purpose) is verified with the PIN and accepted as the latest.
            """, options: [Keys.acceptOlder.spec], run: runs(MaintenanceCommandsRun.check)),
        CommandSpec(
          "backup", "Write a consistent copy of the vault file (still encrypted) to PATH.",
          discussion: """
            Uses SQLite's online backup, so the copy is consistent even while other commands \
            write. Needs no PIN: the copy is as encrypted as the vault, and its PIN keyslot is \
            bound to this device; on another machine, open it with 'vault recover'. Never \
            overwrites a file.
            """,
          arguments: [Keys.backupPath.spec], run: runs(MaintenanceCommandsRun.backup)),
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
