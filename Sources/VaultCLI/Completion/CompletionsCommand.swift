import VaultCore

/// `vault completions SHELL`: prints the completion script of `vault` for one shell.
enum CompletionsCommand {
  /// Prints the script (the parser has refused a shell other than bash, zsh or fish).
  static func print(_ context: Context) throws -> Int32 {
    Output.print(GeneratedFiles.completionScript(try context.argument(Keys.shellArgument)))
    return ExitCode.success.rawValue
  }
}
