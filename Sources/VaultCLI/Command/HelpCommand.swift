/// `vault help [COMMAND...]` and `biosim help [COMMAND...]`: the help of the named command
/// (aliases allowed), or of the program.
protocol HelpCommand: VaultCommand {
  /// The program whose commands it names.
  static var program: ProgramSpec { get }
  /// The command's words, as typed.
  var words: [String] { get }
}

extension HelpCommand {
  /// `help`, with its COMMAND words.
  static var helpAbout: CommandAbout { CommandAbout("help", "Show help for a command.") }

  /// Prints the help of the named command, or of the program.
  ///
  /// - Throws: `UsageError` when the words name no command.
  func run(_ context: Context) throws -> Int32 {
    guard let target = Self.program.canonicalPath(words) else {
      throw UsageError(
        message: "unknown command '\(words.joined(separator: " "))'", path: ["help"])
    }
    Output.print(Help.text(Self.program, path: target))
    return ExitCode.success.rawValue
  }
}

/// `vault help [COMMAND...]`.
struct VaultHelpCommand: HelpCommand {
  static let about = helpAbout
  static var program: ProgramSpec { VaultCommands.program }

  @VariadicArgument(Keys.command) var words
}

/// `vault version`: the version, as `--version` prints it.
struct VersionCommand: VaultCommand {
  static let about = CommandAbout("version", "Show the version (as --version).")

  func run(_ context: Context) throws -> Int32 {
    Output.print("vault \(VaultCommands.program.version)\n")
    return ExitCode.success.rawValue
  }
}
