/// A command of `vault` or `biosim` as one type: its declaration (name, help, and the options
/// and arguments it stores, each a `DeclaredParameter`) and its `run`, in one file.
///
/// A command reads only what it declared: an option is one of its stored properties, so one
/// it did not declare is a compile error, never an empty value. `spec` turns the type into the
/// `CommandSpec` the parser, help, manual pages, completions and the fuzz grammar read.
protocol VaultCommand: SendableMetatype {
  /// The command's words and help; its options and arguments come from its stored parameters.
  static var about: CommandAbout { get }
  /// Subcommands, in the order help lists them (none for most).
  static var subcommands: [any VaultCommand.Type] { get }
  /// An unfilled command, whose parameters declare the table entries.
  init()
  /// Checks the rules between options after the parse.
  ///
  /// - Throws: `UsageError` (exit 64) or a `VaultError` for a combination refused.
  func validate(path: [String]) throws
  /// Runs the command; returns the exit code.
  ///
  /// - Throws: what the command throws; `CommandRunner` reports it with its exit code.
  func run(_ context: Context) throws -> Int32
}

/// What a command type says about itself besides its parameters.
struct CommandAbout {
  /// The word typed, such as `add`.
  var name: String
  /// Other words that run the same command.
  var aliases: [String] = []
  /// One-line description.
  var abstract: String
  /// Longer text for `--help` and the manual.
  var discussion: String = ""
  /// Left out of help, completions and the manual.
  var hidden = false
  /// Never speaks (`CommandSpec.silent`).
  var silent = false
  /// A group of subcommands that does not run alone (`vault biometry`).
  var groupOnly = false

  init(
    _ name: String, aliases: [String] = [], _ abstract: String, discussion: String = "",
    hidden: Bool = false, silent: Bool = false, groupOnly: Bool = false
  ) {
    self.name = name
    self.aliases = aliases
    self.abstract = abstract
    self.discussion = discussion
    self.hidden = hidden
    self.silent = silent
    self.groupOnly = groupOnly
  }
}

extension VaultCommand {
  static var subcommands: [any VaultCommand.Type] { [] }

  func validate(path: [String]) throws {}

  /// A group of subcommands that does not run alone never runs.
  func run(_ context: Context) throws -> Int32 { ExitCode.usage.rawValue }

  /// The table entry: `about`, the stored parameters' declarations in order, the subcommands'
  /// entries, and a handler that fills a new command from the parsed line and runs it.
  static var spec: CommandSpec {
    let about = about
    return CommandSpec(
      about.name, aliases: about.aliases, about.abstract, discussion: about.discussion,
      subcommands: subcommands.map { $0.spec }, hidden: about.hidden, silent: about.silent,
      run: about.groupOnly ? nil : handler, parameters: parameters)
  }

  /// The options and arguments the stored parameters declare, in order (by reflection, so made
  /// only when the table entry's are first read).
  private static func parameters() -> ParameterTable.Table {
    var table: ParameterTable.Table = ([], [])
    for declaration in CommandParameters.of(Self()).flatMap(\.declarations) {
      switch declaration {
      case .option(let option): table.options.append(option)
      case .argument(let argument): table.arguments.append(argument)
      }
    }
    return table
  }

  /// Fills a new command from the parsed line, checks its rules and runs it.
  private static var handler: CommandHandler {
    { context in
      let command = Self()
      try context.fill(CommandParameters.of(command))
      try command.validate(path: context.path)
      return try command.run(context)
    }
  }
}
