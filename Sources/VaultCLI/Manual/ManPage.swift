/// The parts of a program's manual page that are not in its command table.
struct ProgramManual {
  /// The NAME line's summary, lower case: `encrypted secrets behind a PIN and biometrics`.
  var summary: String
  /// Paragraphs after the root command's discussion in DESCRIPTION.
  var description: [ManualBlock]
  /// Sections between OPTIONS and EXIT STATUS (such as JSON OUTPUT, ENVIRONMENT, FILES).
  var beforeExitStatus: [ManualSection]
  /// The exit codes and their meanings.
  var exitStatus: [(code: Int32, meaning: String)]
  /// Sections after EXIT STATUS (SECURITY, EXAMPLES, SEE ALSO).
  var afterExitStatus: [ManualSection]
}

/// The man(7) page of a program: NAME, SYNOPSIS, DESCRIPTION, COMMANDS and OPTIONS generated from
/// its command table, the rest from its `ProgramManual`.
public enum ManPage {
  /// The page of `vault` (`man/vault.1`).
  public static func vault() -> String { page(VaultCommands.program, VaultManual.text) }

  /// The page of `biosim` (`man/biosim.1`).
  public static func biosim() -> String { page(BiosimCommands.program, BiosimManual.text) }

  static func page(_ program: ProgramSpec, _ manual: ProgramManual) -> String {
    let name = program.name
    let nameSection = ManualSection(
      "NAME", roff: "\(name) \\- \(Roff.escape(manual.summary))\n")
    let exit = manual.exitStatus.map { ManualBlock.item("`\($0.code)`", [$0.meaning]) }
    let page = ManualPage(
      name: name, section: 1, source: "\(name) \(program.version)",
      sections: [
        nameSection,
        ManualSection("SYNOPSIS", roff: synopsis(program)),
        ManualSection(
          "DESCRIPTION",
          discussion(program.root).map(ManualBlock.tableText) + manual.description),
        ManualSection("COMMANDS", roff: commands(program)),
        ManualSection("OPTIONS", roff: optionList(program.globalOptions)),
      ] + manual.beforeExitStatus + [ManualSection("EXIT STATUS", exit)]
        + manual.afterExitStatus)
    return page.roff
  }

  private static func discussion(_ command: CommandSpec) -> [String] {
    command.discussion.components(separatedBy: "\n\n").filter { !$0.isEmpty }
  }

  private static func synopsis(_ program: ProgramSpec) -> String {
    var lines = [
      ".B \(program.name)",
      "[\\fIoptions\\fR]",
      "\\fIcommand\\fR",
      "[\\fIarguments\\fR]",
    ]
    for option in program.globalOptions
    where !option.hidden && option.valueName == nil && option.long != "help" {
      lines += [".br", Roff.bold("\(program.name) --\(option.long)")]
    }
    lines += [".br", Roff.bold("\(program.name) help") + " [\\fIcommand\\fR]"]
    return lines.joined(separator: "\n") + "\n"
  }

  /// `\fBvault add\fR [\fB\-\-force\fR] … \fINAME\fR`: the usage line with fonts.
  static func usage(_ program: ProgramSpec, _ path: [String], _ command: CommandSpec) -> String {
    var parts = [Roff.bold(([program.name] + path).joined(separator: " "))]
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
