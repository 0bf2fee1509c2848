import VaultCLI

/// The parts of a command's man(7) page that come from its command table: SYNOPSIS, the root
/// command's discussion (the start of DESCRIPTION), COMMANDS and OPTIONS.
enum ManPage {
  /// The placeholders of a page about `program`: `{{synopsis}}`, `{{description}}`,
  /// `{{commands}}` and `{{options}}`, each a block of its own.
  static func commandTable(_ program: ProgramSpec) -> [String: Placeholder] {
    [
      "synopsis": .blocks([.roff(synopsis(program))]),
      "description": .blocks(discussion(program.root).map(ManualBlock.tableText)),
      "commands": .blocks([.roff(commands(program))]),
      "options": .blocks([.roff(optionList(program.globalOptions))]),
    ]
  }

  private static func discussion(_ command: CommandSpec) -> [String] {
    command.discussion.components(separatedBy: "\n\n").filter { !$0.isEmpty }
  }

  private static func synopsis(_ program: ProgramSpec) -> String {
    var lines = [
      ".B \(program.root.name)",
      "[\\fIoptions\\fR]",
      "\\fIcommand\\fR",
      "[\\fIarguments\\fR]",
    ]
    for option in program.globalOptions
    where !option.hidden && option.valueName == nil && option.long != "help" {
      lines += [".br", Roff.bold("\(program.root.name) --\(option.long)")]
    }
    lines += [".br", Roff.bold("\(program.root.name) help") + " [\\fIcommand\\fR]"]
    return lines.joined(separator: "\n") + "\n"
  }

  /// `\fBvault add\fR [\fB\-\-force\fR] … \fINAME\fR`: the usage line with fonts.
  static func usage(_ program: ProgramSpec, _ path: [String], _ command: CommandSpec) -> String {
    var parts = [Roff.bold(([program.root.name] + path).joined(separator: " "))]
    if !command.visibleSubcommands.isEmpty && command.arguments.isEmpty {
      // As in `Help.usage`: optional when the command also runs on its own.
      let word = Roff.italic("command")
      parts.append(command.runnable ? "[\(word)]" : word)
    }
    for option in command.options where !option.hidden {
      parts.append("[" + optionLabel(option, withShort: false) + "]")
    }
    for argument in command.arguments {
      let name = Roff.italic(argument.name) + (argument.variadic ? "\\&..." : "")
      parts.append(argument.optional ? "[\(name)]" : name)
    }
    return parts.joined(separator: " ")
  }

  private static func optionLabel(_ option: OptionSpec, withShort: Bool) -> String {
    var label = Roff.bold("--\(option.long)")
    if withShort, let short = option.short { label = Roff.bold("-\(short)") + ", " + label }
    if let value = option.valueName { label += " " + Roff.italic(value) }
    return label
  }

  private static func optionList(_ options: [OptionSpec]) -> String {
    options.filter { !$0.hidden }.map { option in
      ".TP\n" + optionLabel(option, withShort: true) + "\n" + Roff.plain(option.abstract) + "\n"
    }.joined()
  }

  /// Each command: its usage line as a paragraph (a `.TP` tag could not be wrapped), then, indented,
  /// its abstract, discussion, aliases, arguments and options.
  private static func commands(_ program: ProgramSpec) -> String {
    var out = ""
    for path in program.allPaths() where !path.isEmpty {
      guard let command = program.command(at: path) else { continue }
      out += ".PP\n" + Roff.wrap(usage(program, path, command)) + "\n.RS\n"
      out += Roff.plain(command.abstract) + "\n"
      for paragraph in discussion(command) { out += ".PP\n" + Roff.plain(paragraph) + "\n" }
      if !command.aliases.isEmpty {
        let aliases = command.aliases.map(Roff.bold).joined(separator: ", ")
        out += ".PP\nAlso called \(aliases).\n"
      }
      for argument in command.arguments {
        out += ".TP\n" + Roff.italic(argument.name) + "\n" + Roff.plain(argument.abstract) + "\n"
      }
      out += optionList(command.options) + ".RE\n"
    }
    return out
  }
}
