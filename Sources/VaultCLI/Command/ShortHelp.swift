import VaultFormat

extension Help {
  /// What a program run without a command prints on standard error (then exits 64): its usage
  /// line, its visible commands with their one-line descriptions, the program's example and
  /// where the details are; no final newline.
  public static func short(_ program: ProgramSpec) -> String {
    let name = program.root.name
    let commands = program.root.visibleSubcommands
    let column = 4 + (commands.map(\.name.count).max() ?? 0)
    var out = "Usage: \(name) <command> [<options>]\n\nCommands:\n"
    for command in commands {
      let lead = "  " + command.name
      let body = wrap(command.abstract, indent: column).dropFirst(column)
      out += lead + String(repeating: " ", count: column - lead.count) + body + "\n"
    }
    out += "\nExample: \(program.example)\n"
    out += "See '\(name) help COMMAND' for a command's details, '\(name) --help' for the options."
    return out
  }
}
