import VaultCore

/// `vault completions SHELL`: prints the completion script of `vault` for one shell.
enum CompletionsCommand {
  /// Prints the script; a shell other than bash, zsh or fish is invalid input (exit 5).
  static func print(_ invocation: Invocation) throws -> Int32 {
    let shell = invocation.arguments.first ?? ""
    guard let script = GeneratedFiles.completionScript(shell: shell) else {
      throw VaultError.invalidInput("unknown shell '\(shell)' (bash, zsh or fish)")
    }
    Output.print(script)
    return 0
  }
}
