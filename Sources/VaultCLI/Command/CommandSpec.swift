import Synchronization

/// How a shell should complete a value.
public enum CompletionKind: Equatable, Sendable {
  /// Nothing to offer.
  case none
  /// A file path.
  case file
  /// One of a fixed set of words.
  case values([String])
  /// An entry name from the vault (through `vault __complete`).
  case entryName
  /// A field key of the entry named earlier on the line (through `vault __complete-fields`).
  case fieldKey
  /// A journal tag, without its `@` (through `vault __complete --tags`).
  case journalTag
  /// A journal entry's short id (through `vault __complete --journal`), and with `dates` the
  /// date words (`today`, `yesterday`).
  case journalEntry(dates: Bool)
}

/// One option: `--long`, an optional `-s`, and either a flag or a value.
public struct OptionSpec: Sendable {
  /// Long name without dashes, such as `force`.
  public var long: String
  /// Short letter, such as `f`.
  public var short: Character?
  /// Placeholder for the value (`PATH`, `N`); nil for a flag.
  public var valueName: String?
  /// One-line description for help, completions and the manual.
  public var abstract: String
  /// How a shell completes the value.
  public var completion: CompletionKind
  /// Left out of help and completions (still parsed).
  public var hidden: Bool
  /// Checks a value as the parser reads it (nil for a flag or free text): throws `ValueError`
  /// (a usage error, exit 64) or a `VaultError` for input refused on its merits.
  public var check: (@Sendable (String) throws -> Void)?

  /// A flag (no value).
  public static func flag(
    _ long: String, short: Character? = nil, _ abstract: String, hidden: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      long: long, short: short, valueName: nil, abstract: abstract, completion: .none,
      hidden: hidden, check: nil)
  }

  /// `--long VALUE` or `--long` as shown in usage lines.
  public var synopsis: String {
    "--\(long)" + (valueName.map { " \($0)" } ?? "")
  }
}

/// One positional argument.
public struct ArgumentSpec: Sendable {
  /// Placeholder, upper case: `NAME`.
  public var name: String
  /// One-line description.
  public var abstract: String
  /// May be left out.
  public var optional: Bool
  /// Takes every remaining argument (must be last).
  public var variadic: Bool
  /// How a shell completes it.
  public var completion: CompletionKind
  /// Checks the word as the parser reads it (nil for free text), as `OptionSpec.check`.
  public var check: (@Sendable (String) throws -> Void)?

  /// A free-text positional argument; typed arguments are declared with `Argument`.
  public init(
    _ name: String, _ abstract: String, optional: Bool = false, variadic: Bool = false,
    completion: CompletionKind = .none
  ) {
    self.name = name
    self.abstract = abstract
    self.optional = optional
    self.variadic = variadic
    self.completion = completion
    self.check = nil
  }

  /// `NAME`, `[NAME]` or `NAME...` as shown in usage lines.
  public var synopsis: String {
    let base = variadic ? "\(name)..." : name
    return optional ? "[\(base)]" : base
  }
}

/// What runs a command: given the parsed command line and the environment, returns the exit code.
public typealias CommandHandler = @Sendable (Context) throws -> Int32

/// A command, its options, arguments, subcommands and handler: the single declaration the parser,
/// the dispatch, help, completions and manual pages are generated from.
public struct CommandSpec: Sendable {
  /// The word typed, such as `add`.
  public var name: String
  /// Other words that run the same command.
  public var aliases: [String]
  /// One-line description.
  public var abstract: String
  /// Longer text for `--help` and the manual (paragraphs separated by blank lines).
  public var discussion: String
  /// Options of this command (global options are on the root).
  public var options: [OptionSpec] {
    get { parameters.value.options }
    set { parameters = ParameterTable((newValue, arguments)) }
  }
  /// Positional arguments.
  public var arguments: [ArgumentSpec] {
    get { parameters.value.arguments }
    set { parameters = ParameterTable((options, newValue)) }
  }
  /// Both, made when first read: a command type reflects over its stored parameters to make
  /// them, which the command that runs needs, and help, the manual and completions; the others
  /// of a command line are found by name alone.
  private var parameters: ParameterTable
  /// Subcommands; a command with subcommands and no handler needs one of them.
  public var subcommands: [CommandSpec]
  /// Left out of help, completions and the manual (such as `__complete`).
  public var hidden: Bool
  /// Runs the command; nil only for a command that is a group of subcommands (`vault biometry`).
  public var run: CommandHandler?
  /// Never speaks: its failures exit 0 with nothing on standard error (`__complete`, which runs
  /// inside a shell's line editor).
  public var silent: Bool

  /// Declares a command.
  public init(
    _ name: String, aliases: [String] = [], _ abstract: String, discussion: String = "",
    options: [OptionSpec] = [], arguments: [ArgumentSpec] = [],
    subcommands: [CommandSpec] = [], hidden: Bool = false, silent: Bool = false,
    run: CommandHandler? = nil
  ) {
    self.name = name
    self.aliases = aliases
    self.abstract = abstract
    self.discussion = discussion
    self.parameters = ParameterTable((options, arguments))
    self.subcommands = subcommands
    self.hidden = hidden
    self.silent = silent
    self.run = run
  }

  /// A command whose options and arguments are made by `parameters` when first read.
  init(
    _ name: String, aliases: [String], _ abstract: String, discussion: String,
    subcommands: [CommandSpec], hidden: Bool, silent: Bool, run: CommandHandler?,
    parameters: @escaping @Sendable () -> (options: [OptionSpec], arguments: [ArgumentSpec])
  ) {
    self.init(
      name, aliases: aliases, abstract, discussion: discussion, subcommands: subcommands,
      hidden: hidden, silent: silent, run: run)
    self.parameters = ParameterTable(parameters)
  }

  /// Completes every positional argument as `completion`, when they are first read (so that a
  /// command line that never shows help does not make help's table).
  mutating func completeArguments(as completion: CompletionKind) {
    let original = parameters
    parameters = ParameterTable {
      let table = original.value
      return (
        table.options,
        table.arguments.map {
          var argument = $0
          argument.completion = completion
          return argument
        }
      )
    }
  }

  /// Runs on its own as well as through its subcommands (`vault journal` writes an entry).
  public var runnable: Bool { run != nil && !subcommands.isEmpty }

  /// The subcommand called `word` (by name or alias).
  public func subcommand(_ word: String) -> CommandSpec? {
    subcommands.first { $0.name == word || $0.aliases.contains(word) }
  }

  /// Subcommands shown to users.
  public var visibleSubcommands: [CommandSpec] { subcommands.filter { !$0.hidden } }
}

/// A program: its root command plus the options every command accepts.
public struct ProgramSpec: Sendable {
  /// `vault` or `biosim`.
  public var root: CommandSpec
  /// Options accepted before or after any command word (`--vault`, `--help`…).
  public var globalOptions: [OptionSpec]
  /// Version string for `--version`.
  public var version: String
  /// A one-line example for the short help the program prints when run without a command
  /// (none: the usage error instead).
  public var example: String = ""
  /// The commands (canonical paths) that the unlock agent runs when it holds the vault and no
  /// session is given (`AgentForwarding`): every command that may use a session.
  public var agentCommands: [[String]] = []
  /// Words that name no command but that users bring from other tools, each with the hint shown
  /// instead of a "did you mean" (so `vault git` never suggests `get`).
  public var otherToolWords: [String: String] = [:]

  /// The command at `path` (words after the program name), or nil.
  public func command(at path: [String]) -> CommandSpec? {
    var current = root
    for word in path {
      guard let next = current.subcommand(word) else { return nil }
      current = next
    }
    return current
  }

  /// The path with every alias replaced by its command's name (`ls` → `list`), or nil when a
  /// word names no command.
  public func canonicalPath(_ words: [String]) -> [String]? {
    var current = root
    var out: [String] = []
    for word in words {
      guard let next = current.subcommand(word) else { return nil }
      out.append(next.name)
      current = next
    }
    return out
  }

  /// A copy whose `help` command completes its COMMAND argument with the visible command names.
  public func completingHelp() -> ProgramSpec {
    var copy = self
    let names = root.visibleSubcommands.map(\.name)
    copy.root.subcommands = root.subcommands.map { command in
      guard command.name == "help" else { return command }
      var help = command
      help.completeArguments(as: .values(names))
      return help
    }
    return copy
  }

  /// Every command path in the tree, depth first, root first.
  public func allPaths(includeHidden: Bool = false) -> [[String]] {
    func walk(_ spec: CommandSpec, _ path: [String]) -> [[String]] {
      [path]
        + spec.subcommands.filter { includeHidden || !$0.hidden }.flatMap {
          walk($0, path + [$0.name])
        }
    }
    return walk(root, [])
  }
}

/// A command's options and arguments, made once, when first read (`CommandSpec.options`).
final class ParameterTable: Sendable {
  /// What the table holds.
  typealias Table = (options: [OptionSpec], arguments: [ArgumentSpec])

  private let make: @Sendable () -> Table
  private let made = Mutex<Table?>(nil)

  /// A table made by `make` when first read.
  init(_ make: @escaping @Sendable () -> Table) { self.make = make }

  /// A table that holds `table`.
  init(_ table: Table) {
    make = { table }
    made.withLock { $0 = table }
  }

  /// The options and arguments.
  var value: Table {
    if let table = made.withLock({ $0 }) { return table }
    let table = make()
    made.withLock { $0 = table }
    return table
  }
}
