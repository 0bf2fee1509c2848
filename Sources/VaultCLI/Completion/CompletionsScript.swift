import VaultCore

/// `vault completions SHELL`: prints the completion script of `vault` for one shell.
struct CompletionsCommand: VaultCommand {
  static let about = CommandAbout(
    "completions", "Print the tab-completion script for bash, zsh or fish.",
    discussion: """
      Load it at once with source <(vault completions bash) in bash, \
      source <(vault completions zsh) in zsh after compinit, or \
      vault completions fish | source in fish. Entry names are completed only while a \
      session is valid; completion never asks for the PIN.
      """)

  @ArgumentParameter(Keys.shellArgument) var shellArgument

  func run(_ context: Context) throws -> Int32 {
    Output.print(GeneratedFiles.completionScript(shellArgument))
    return ExitCode.success.rawValue
  }

}
