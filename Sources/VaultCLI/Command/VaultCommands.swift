import VaultFormat

/// The whole command line of `vault`, as one value.
public enum VaultCommands {
  /// The program specification.
  public static let program: ProgramSpec = ProgramSpec(
    root: VaultRootCommand.spec,
    globalOptions: [Keys.vault.spec, Keys.pinFD.spec, Keys.help.spec, Keys.version.spec],
    version: "0.12.0",
    example: "printf 'hunter2' | vault add mail/work; vault get mail/work",
    agentCommands: agentCommands,
    otherToolWords: otherToolWords
  ).completingHelp()
}

/// `vault`: the program's root, a group whose subcommands are every command, in the order help
/// lists them.
struct VaultRootCommand: VaultCommand {
  static let about = CommandAbout(
    "vault", "Encrypted secrets and journal entries behind a PIN and biometrics.",
    discussion: """
      vault keeps secrets and journal entries in one encrypted file. Its keys are released \
      only after the PIN and a biometric match whose enrollment (domain state) equals the one \
      sealed at activation. The biometric sensor is simulated by biosim(1).
      """, groupOnly: true)

  static let subcommands: [any VaultCommand.Type] = [
    InitCommand.self, AddCommand.self, GetCommand.self, ListCommand.self,
    RemoveCommand.self,
    MoveCommand.self, PickCommand.self, SetCommand.self, UnsetCommand.self, RunCommand.self,
    InjectCommand.self,
    AuditCommand.self, FindCommand.self, ImportCommand.self, PasswdCommand.self,
    RecoverCommand.self, RekeyCommand.self, StatusCommand.self, UnlockCommand.self,
    LockCommand.self, AgentCommand.self, VerifyHeldCommand.self, UnlockPromptCommand.self,
    BiometryCommand.self,
    EditCommand.self, JournalCommand.self, GrepCommand.self, GenerateCommand.self,
    OneTimeCodeCommand.self, HistoryCommand.self, RestoreCommand.self, PurgeCommand.self,
    SettingsCommand.self, ClipClearCommand.self, ExportCommand.self, SyncCommand.self,
    ConfigCommand.self, CredentialCommand.self, CheckCommand.self, BackupCommand.self,
    TourCommand.self,
    CompletionsCommand.self, CompleteNamesCommand.self, CompleteFieldsCommand.self,
    VaultHelpCommand.self, VersionCommand.self,
  ]
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
    ["credential"],
  ]

  /// Words that other password managers take and vault does not, each with the hint that names
  /// vault's way (a near command is never suggested for them: `git` is not `get`).
  static let otherToolWords: [String: String] = [
    "copy": "copy an entry to the clipboard with: vault get --clip NAME",
    "cp":
      "copy an entry under another name with: vault get NAME | vault add NEW; to the clipboard:"
      + " vault get --clip NAME",
    "git":
      "vault keeps one encrypted file and has no git store; it syncs between devices through a"
      + " git remote with: vault sync init REMOTE, then vault sync",
  ]
}
