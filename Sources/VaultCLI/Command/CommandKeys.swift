import Biometry
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat
import VaultJournal
import VaultSecrets
import VaultTransfer

/// Shell syntax for `vault unlock --shell` and `vault completions`.
public enum ShellSyntax: String, ChoiceValue {
  /// GNU bash.
  case bash
  /// zsh.
  case zsh
  /// fish.
  case fish
}

/// An Argon2id cost profile for `vault init --kdf`.
public enum KDFProfile: String, ChoiceValue {
  /// libsodium's `crypto_pwhash_*_INTERACTIVE`.
  case interactive
  /// libsodium's `crypto_pwhash_*_MODERATE` (the default).
  case moderate
  /// libsodium's `crypto_pwhash_*_SENSITIVE`.
  case sensitive
  /// The minimum cost, for tests only: accepted, never offered.
  case test

  /// `test` is never offered.
  public static var hiddenChoices: [KDFProfile] { [.test] }

  /// The environment variable (set to `1`) without which `test` is refused.
  public static let testSwitch = "VAULT_TEST_KDF"

  /// The parameters of this profile.
  public var parameters: KDFParameters {
    switch self {
    case .interactive: .interactive
    case .moderate: .moderate
    case .sensitive: .sensitive
    case .test: .test
    }
  }
}

/// A template label for `biosim enroll --label` and `unenroll --label`, checked as the sensor
/// checks it.
public struct TemplateLabel: ArgumentValue, Equatable {
  /// The label.
  public let text: String

  /// - Throws: `ValueError` for an empty label, one over 64 bytes, with a control character or
  ///   with white space at either end.
  public init(argument: String, label: String) throws {
    do {
      try SensorControls.validate(label: argument)
    } catch {
      throw ValueError(
        "invalid value for \(label): use 1 to \(SensorControls.maximumLabelBytes) bytes, no"
          + " control characters, no leading or trailing spaces")
    }
    text = argument
  }

  /// Nothing to offer.
  public static var completion: CompletionKind { .none }
}

/// A per-vault setting for `vault settings`, named as in the settings record.
public enum SettingName: String, ChoiceValue {
  /// `VaultSettings.historyKeep`.
  case historyKeep = "history_keep"
  /// `VaultSettings.historyDays`.
  case historyDays = "history_days"
  /// `VaultSettings.biometricReuse`.
  case biometricReuse = "biometric_reuse_seconds"

  /// The setting's key in the record.
  public var key: VaultSettings.Key {
    switch self {
    case .historyKeep: VaultSettings.historyKeep
    case .historyDays: VaultSettings.historyDays
    case .biometricReuse: VaultSettings.biometricReuse
    }
  }
}

/// A field key for `--field`, `vault set` and `vault unset`, checked as `EntryFields` reads keys.
public struct FieldKey: ArgumentValue, Equatable {
  /// The key as typed (keys match without regard to case).
  public let text: String

  /// - Throws: `ValueError` for an empty key, one over 64 bytes, or one with white space, a
  ///   control character or `:`.
  public init(argument: String, label: String) throws {
    do {
      try EntryFields.validate(key: argument)
    } catch {
      throw ValueError(
        "invalid value for \(label): a field key has 1 to \(EntryFields.maximumKeyBytes) bytes,"
          + " no spaces, control characters or ':'")
    }
    text = argument
  }

  /// The keys of the entry named earlier on the line, through `vault __complete-fields`.
  public static var completion: CompletionKind { .fieldKey }
}

/// A `vault generate --charset` value, checked as `PasswordAlphabet(charset:)` reads it.
public struct CharsetValue: ArgumentValue, Equatable {
  /// The value as typed.
  public let text: String

  /// - Throws: `ValueError` for an unknown class, an empty or non-ASCII literal set, or fewer
  ///   than 2 characters.
  public init(argument: String, label: String) throws {
    do {
      _ = try PasswordAlphabet(charset: argument, noAmbiguous: false)
    } catch let error as SecretError {
      throw ValueError("invalid value for \(label): \(error.message)")
    }
    text = argument
  }

  /// Nothing to offer (a list of classes).
  public static var completion: CompletionKind { .none }
}

/// A `vault generate --separator` value: up to 16 bytes without control characters.
public struct SeparatorValue: ArgumentValue, Equatable {
  /// The separator's bytes (UTF-8).
  public let bytes: [UInt8]

  /// - Throws: `ValueError` for one over 16 bytes or with a control character.
  public init(argument: String, label: String) throws {
    guard argument.utf8.count <= 16,
      !argument.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else {
      throw ValueError("invalid value for \(label): use up to 16 bytes, no control characters")
    }
    bytes = Array(argument.utf8)
  }

  /// Nothing to offer.
  public static var completion: CompletionKind { .none }
}

extension ExportFormat: ChoiceValue {}
extension BiometryType: ChoiceValue {}
extension SensorAvailability: ChoiceValue {}
extension Outcome: ChoiceValue {}
extension SensorProfile: ChoiceValue {}

/// `set` or `clear`, the argument of `biosim passcode`.
public enum PasscodeAction: String, ChoiceValue {
  /// Set a device passcode.
  case set
  /// Remove it.
  case clear
}
extension Clipboard.Tool: ChoiceValue {}
extension ImportFormat: ChoiceValue {}

/// The typed keys of every option and argument of `vault` and `biosim`: the table declares them,
/// runners read through them, so a value's kind is stated once.
enum Keys {
  // Global options.
  static let vault = Option<FilePath>(
    "vault", "PATH", "Vault file (default $VAULT_PATH, else ~/.local/share/vault/vault.db).")
  static let pinFD = Option.integer(
    "pin-fd", valueName: "FD", "Read the PIN (one line per prompt) from this file descriptor.",
    in: 0...Int(Int32.max), expected: "a file descriptor number")
  static let help = Flag("help", short: "h", "Show help for the command.")
  static let version = Flag("version", "Show the version.")

  // Shared by several commands.
  static let name = Argument<EntryName>(
    "NAME", "Entry name: UTF-8, '/' separates folders (a/b/c).")
  static let json = Flag("json", "Print JSON instead of text.")
  static let rekey = Flag(
    "rekey", "Then rotate the master key (a new recovery code), so the device learns nothing new.")
  static let acceptOlder = Flag(
    "accept-older",
    "Accept the file's state although it is older than the one this device last saw (a backup"
      + " restored on purpose); needs the PIN.")
  static let force = Flag("force", short: "f", "Replace an existing entry.")
  static let allowDiskTemp = Flag(
    "allow-disk-temp",
    "Use $TMPDIR when there is no RAM-backed folder (the plaintext may then reach the disk).")
  static let prefix = Argument<String>("PREFIX", "Only names starting with this.", optional: true)
  /// `vault audit [PREFIX]`, completed with entry names.
  static let auditPrefix = prefix.completing(.entryName)

  // init
  static let kdf = Option<KDFProfile>(
    "kdf", "PROFILE", "Argon2id cost: \(KDFProfile.choiceList) (default moderate).")
  static let noBiometry = Flag("no-biometry", "Create a PIN-only vault (no biometric check).")

  // add
  static let multiline = Flag("multiline", short: "m", "On a terminal, read until end of file.")
  static let guarded = Flag(
    "guard",
    "Every read needs fresh authentication, even in a session: a biometric match, or the PIN in"
      + " a PIN-only vault or under lockout.")

  // get
  static let clip = Flag(
    "clip", short: "c", "Copy to the clipboard instead of printing (wl-copy, xclip, xsel).")
  static let clipTime = Option.integer(
    "clip-time", valueName: "SECONDS",
    "Clear the clipboard after this many seconds, \(Clipboard.seconds.lowerBound) to \(Clipboard.seconds.upperBound), if it still holds the secret"
      + " (default 45).",
    in: Clipboard.seconds,
    expected:
      "whole seconds from \(Clipboard.seconds.lowerBound) to \(Clipboard.seconds.upperBound)")

  // get: fields and lines
  static let field = Option<FieldKey>(
    "field", "KEY",
    "Only this field's value (a 'KEY: VALUE' line; password is the first line).")
  static let line = Option.integer(
    "line", valueName: "N", "Only line N (from 1), without its line ending.", in: 1...Int.max)
  static let listFields = Flag(
    "fields", "List the entry's field keys, one per line, password first.")
  static let entryJSON = Flag(
    "json", "Print the entry as JSON: its password, fields and notes.")
  static let clipAll = Flag(
    "all", "With --clip, copy the whole entry instead of its first line.")

  // set, unset
  static let fieldKey = Argument<FieldKey>("KEY", "The field's key (password: the first line).")

  // get, history, restore, purge, settings
  static let revision = Option.integer(
    "revision", short: "r", valueName: "R",
    "A kept revision of the entry (see 'vault history NAME').", in: 1...Int.max)
  static let restoreRevision = Option.integer(
    "revision", short: "r", valueName: "R",
    "The revision to bring back (default: the newest kept one).", in: 1...Int.max)
  static let purgeName = Argument<EntryName>(
    "NAME", "The entry to remove for good, with its history.", optional: true)
  static let listRemoved = Flag(
    "removed", "List removed entries that 'vault restore' can bring back instead.")
  static let purgeHistory = Flag(
    "history", "Drop every kept revision of every entry instead (current versions stay).")
  static let setting = Argument<SettingName>(
    "KEY", "\(SettingName.choiceList).", optional: true)
  static let settingValue = Argument<String>("VALUE", "The new value.", optional: true)
  // pick
  static let menu = Option<PickMenu>(
    "menu", "MENU",
    "The menu: fzf, rofi, wofi, dmenu, bemenu, or a command that reads names on standard input"
      + " and prints the chosen one (default: the first of these found that can show here).")
  static let pickClip = Flag(
    "clip", short: "c", "Copy the value to the clipboard (the default; wl-copy, xclip, xsel).")
  static let pickPrint = Flag("print", "Print the value on standard output instead.")
  static let pickType = Flag(
    "type",
    "Type the value into the window that had the focus when the menu opened (xdotool, wtype or"
      + " ydotool).")
  static let autotype = Flag(
    "autotype", "Type the username, Tab, the password and Enter, as rofi-pass does.")
  static let pickOTP = Flag("otp", "The current one-time code instead of the password.")
  // credential
  static let credentialAction = Argument<CredentialAction>(
    "ACTION", "\(CredentialAction.choiceList), as git calls its helper.")
  // activate, passwd, recover, rekey
  static let noHold = Flag(
    "no-hold",
    "Leave the vault locked afterwards, even on a terminal (the agent does not hold"
      + " it again).")
  // config
  static let configKey = Argument<ConfigName>("KEY", "\(ConfigName.choiceList).", optional: true)
  static let configValue = Argument<String>(
    "VALUE",
    "on or off for sync.auto; a program's absolute path, tty or auto for pinentry; a folder for"
      + " credential.folder.",
    optional: true)
  static let configGlobal = Flag(
    "global",
    "Your settings for every vault ($XDG_CONFIG_HOME/vault/config), not this device's"
      + " for the vault.")
  // mv
  static let moveForce = Flag("force", short: "f", "Replace an existing entry named NEW.")
  static let old = Argument<EntryName>("OLD", "Current name.")
  static let new = Argument<EntryName>("NEW", "New name.")

  // unlock
  static let timeout = Option.duration(
    "timeout", "Idle timeout: 90s, 15m (default), 1h, or plain seconds; 8h at most.",
    in: 1...Int(SessionLedger.hardLimit))
  static let shell = Option<ShellSyntax>(
    "shell", "SHELL", "Shell syntax to print: \(ShellSyntax.choiceList) (default bash).")
  static let raw = Flag("raw", "Print the token alone (implies --shell-session).")
  static let yes = Flag("yes", short: "y", "Do not ask for confirmation.")
  static let persistent = Flag(
    "persistent", "Keep running while nothing is held (a service manager starts it).")
  static let shellSession = Flag(
    "shell-session",
    "Issue a session for this shell (VAULT_SESSION) instead of handing the key to the agent.")
  static let unlockAgain = Flag(
    "force", short: "f", "Ask for the PIN and the match even when the agent holds the vault.")
  static let check = Flag(
    "check",
    "Print nothing; exit 0 when the agent holds the vault or VAULT_SESSION is valid, 10 when not.")

  // biometry deactivate
  static let recovery = Flag("recovery", "Authorize with the recovery code instead.")

  // journal
  static let since = Option<JournalDay>(
    "since", "DATE", "Only entries written on or after DATE (\(JournalDate.forms)).")
  static let until = Option<JournalDay>("until", "DATE", "Only entries written on or before DATE.")
  static let count = Option.integer(
    "count", short: "n", "Only the newest N entries (still newest last).", in: 1...Int.max)
  static let journalEntry = Argument<String>(
    "ENTRY", "An entry ID (a unique prefix) or a DATE (\(JournalDate.forms))."
  )
  .completing(.journalEntry(dates: true))
  static let journalID = Argument<String>("ID", "An entry ID or a unique prefix of one.")
    .completing(.journalEntry(dates: false))

  // grep
  static let ignoreCase = Flag("ignore-case", short: "i", "Ignore case.")
  static let fixedStrings = Flag(
    "fixed-strings", short: "F", "PATTERN is a plain string, not a regular expression.")
  static let pattern = Argument<String>("PATTERN", "What to look for.")

  // generate
  static let length = Option.integer(
    "length", "Password length, 8 to 1024 (default 24).", in: PasswordGenerator.lengths)
  static let noSymbols = Flag("no-symbols", "Letters and digits only.")
  static let words = Option.integer(
    "words", "Make a passphrase of N words (3 to 64) instead.", in: PasswordGenerator.wordCounts)
  static let print = Flag("print", "Also print the new secret.")
  static let generateClip = Flag(
    "clip", short: "c", "Also copy the new secret to the clipboard (cleared as for 'get --clip').")
  static let inPlace = Flag(
    "in-place",
    "Replace only the first line (the password) of an existing entry, keeping its fields and"
      + " notes.")
  static let charset = Option<CharsetValue>(
    "charset", "CLASSES",
    "Draw from these classes, joined by ',': lower, upper, digits, symbols, and last"
      + " chars:CHARACTERS (printable ASCII, to the end of the value) for a set of your own"
      + " (default lower,upper,digits,symbols).")
  static let noAmbiguous = Flag("no-ambiguous", "Leave out look-alike characters: 0 O 1 l I.")
  static let separator = Option<SeparatorValue>(
    "separator", "S",
    "Join passphrase words with S: up to 16 bytes, no control characters (default '-'; may be"
      + " empty).")

  // export
  static let exportFormat = Option<ExportFormat>(
    "to", "FORMAT", "The format to write: \(ExportFormat.choiceList) (needed).")
  static let exportOutput = Option<FilePath>(
    "output", "PATH", "Write to PATH, a new file of mode 0600, instead of standard output.")
  static let exportForce = Flag("force", short: "f", "Replace PATH when it exists.")
  static let exportSkipGuarded = Flag(
    "skip-guarded",
    "Leave guarded entries out, named (exit 5), instead of asking one fresh match for them.")
  static let plaintext = Flag(
    "plaintext", "Allow a format that holds every secret in the clear (all but vault).")
  static let exportKDF = Option<KDFProfile>(
    "kdf", "PROFILE",
    "Argon2id cost of the passphrase of --to vault: \(KDFProfile.choiceList) (default moderate).")
  static let exportVerify = Option<FilePath>(
    "verify", "PATH",
    "Read the vault export PATH back instead (its passphrase asked once), check every record and"
      + " say what it holds; needs no vault and writes nothing.")
  static let exportPrefix = Argument<String>(
    "PREFIX", "Only entries whose names start with this, such as a folder (mail/).",
    optional: true
  ).completing(.entryName)

  // run, inject
  static let env = Option<RunCommand.Assignment>(
    "env", "VAR=NAME[:FIELD]",
    "Set VAR to the field (default password, the first line) of entry NAME; repeatable.")
  static let runCommand = Argument<String>(
    "COMMAND", "The program and its arguments (after --).", variadic: true)
  static let injectOutput = Option<FilePath>(
    "output", "PATH", "Write to PATH (mode 0600, atomically) instead of standard output.")
  static let injectForce = Flag("force", short: "f", "Replace PATH when it exists.")

  // import
  static let importFormat = Option<ImportFormat>(
    "from", "FORMAT", "The format of SOURCE: \(ImportFormat.choiceList) (needed).")
  static let dryRun = Flag("dry-run", "Check everything and write nothing.")
  static let importForce = Flag(
    "force", short: "f",
    "Replace entries that exist (each one's last version is kept in its history).")
  static let renameDuplicates = Flag(
    "rename-duplicates",
    "Name a later item that repeats an earlier one's name 'NAME (2)', 'NAME (3)', ... instead of"
      + " refusing the import.")
  static let importSource = Argument<FilePath>(
    "SOURCE", "The export: a file, or - for standard input.")

  // backup, completions, help, hidden commands
  static let backupPath = Argument<FilePath>("PATH", "The new file.")
  static let syncRemote = Argument<GitRemote>(
    "REMOTE", "A git remote: a path, or an ssh or https URL.")
  static let syncDevice = Argument<String>(
    "DEVICE", "4 to 32 hex digits of a device id, as 'vault sync devices' shows it.")
  static let shellArgument = Argument<ShellSyntax>("SHELL", "\(ShellSyntax.choiceList).")
  static let command = Argument<String>(
    "COMMAND", "The command to describe.", optional: true, variadic: true)
  static let clipTool = Argument<Clipboard.Tool>("TOOL", "\(Clipboard.Tool.choiceList).")
  static let fieldPrefix = Argument<String>("PREFIX", "Only keys starting with this.")
  static let completedLine = Argument<String>(
    "WORD", "The words of the line before the key, after the program name.", optional: true,
    variadic: true)

  // Finding things and journal tags: `list --tree`, `find`, `journal list --tag`, `journal tags`.
  static let listPrefix = Argument<String>(
    "PREFIX", "Only names starting with this; a PREFIX ending in '/' is a folder.",
    optional: true
  ).completing(.entryName)
  static let tree = Flag("tree", "Draw the names as a tree; a folder's line ends in '/'.")
  static let findWords = Argument<String>(
    "WORD", "Letters to find in a name, in order, not necessarily adjacent (any case).",
    variadic: true)
  static let completeTags = Flag("tags", "Print journal tags instead.", hidden: true)
  static let completeJournal = Flag(
    "journal", "Print the journal entries' short ids instead.", hidden: true)
  static let tag = Option<JournalTagWord>(
    "tag", "TAG", "Only entries with this tag (@TAG or TAG, any case); repeat to need each.")

  // biosim
  static let sensorType = Argument<BiometryType>("TYPE", "\(BiometryType.choiceList).")
  static let availability = Argument<SensorAvailability>(
    "STATE", "\(SensorAvailability.choiceList).")
  static let label = Option<TemplateLabel>(
    "label", "LABEL", "A name for the template (default finger-N, face-N or iris-N).")
  static let unenrollLabel = Option<TemplateLabel>("label", "LABEL", "The template to remove.")
  static let all = Flag("all", "Remove every template.")
  static let outcome = Argument<Outcome>(
    "OUTCOME", "\(Outcome.choiceList).", optional: true)
  static let clearQueue = Flag("clear", "Drop every queued answer instead.")
  static let external = Flag(
    "external", "A removable sensor (a keyboard with Touch ID), which can be disconnected.")
  static let passcodeAction = Argument<PasscodeAction>("ACTION", "\(PasscodeAction.choiceList).")
  static let keepEnrollment = Flag(
    "keep-enrollment", "With clear: keep the enrolled templates (preflight: passcodeNotSet).")
  static let profile = Argument<SensorProfile>("PROFILE", "\(SensorProfile.choiceList).")
  static let outcomeCount = Option.integer(
    "count", "Queue the answer N times (1-100, default 1).",
    in: 1...SensorControls.maximumQueueCount)

  // otp
  static let otpSet = Flag(
    "set",
    "Store the entry's one-time code: an otpauth:// URI or a base32 secret, read from a hidden"
      + " prompt or standard input, never the command line.")
}
