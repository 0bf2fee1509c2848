/// The files generated from the command tables, as far as the command-line tool needs them: the
/// command that remakes them and the completion scripts.
///
/// Paths are relative to the package root. The manual generator (`VaultManualGenerator`) adds the
/// manual pages and writes every file; the files are committed, and a test regenerates them.
public enum GeneratedFiles {
  /// The command that rewrites them, run from the package root.
  public static let refreshCommand = "swift run generate-manual ."

  /// Each completion script's path relative to the package root, and its contents.
  public static func completions() -> [(path: String, contents: String)] {
    var files: [(path: String, contents: String)] = []
    for program in [VaultCommands.program, BiosimCommands.program] {
      files.append(("completions/\(program.name).bash", BashCompletion.script(for: program)))
      files.append(("completions/_\(program.name)", ZshCompletion.script(for: program)))
      files.append(("completions/\(program.name).fish", FishCompletion.script(for: program)))
    }
    return files
  }

  /// The completion script of `vault` for `shell`.
  public static func completionScript(_ shell: ShellSyntax) -> String {
    switch shell {
    case .bash: BashCompletion.script(for: VaultCommands.program)
    case .zsh: ZshCompletion.script(for: VaultCommands.program)
    case .fish: FishCompletion.script(for: VaultCommands.program)
    }
  }
}
