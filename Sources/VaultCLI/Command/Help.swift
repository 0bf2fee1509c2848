import VaultFormat

/// `--help` text and usage lines, generated from the command table at a fixed width of 80.
public enum Help {
  /// Width the text is wrapped to, whatever the terminal.
  public static let width = 80

  /// The usage line: `vault add [--force] [--multiline] [--guard] NAME`.
  public static func usage(_ program: ProgramSpec, path: [String]) -> String {
    guard let command = program.command(at: path) else { return program.root.name }
    var parts = [program.root.name] + path
    if !command.visibleSubcommands.isEmpty && command.arguments.isEmpty {
      parts.append(command.runnable ? "[<command>]" : "<command>")
    }
    for option in command.options where !option.hidden {
      parts.append("[\(option.synopsis)]")
    }
    parts += command.arguments.map(\.synopsis)
    return parts.joined(separator: " ")
  }

  /// The full help text for the command at `path`, ending in a newline.
  public static func text(_ program: ProgramSpec, path: [String]) -> String {
    guard let command = program.command(at: path) else { return "" }
    var out = "OVERVIEW: \(command.abstract)\n\n"
    if !command.discussion.isEmpty {
      out += wrap(command.discussion, indent: 0) + "\n\n"
    }
    out += "USAGE: \(usage(program, path: path))\n"
    if !command.arguments.isEmpty {
      out += "\nARGUMENTS:\n"
      for argument in command.arguments { out += row(argument.name, argument.abstract) }
    }
    let options = command.options.filter { !$0.hidden }
    if !options.isEmpty {
      out += "\nOPTIONS:\n"
      for option in options { out += row(label(option), option.abstract) }
    }
    out += "\nGLOBAL OPTIONS:\n"
    for option in program.globalOptions where !option.hidden {
      if option.long == "version" && !path.isEmpty { continue }
      out += row(label(option), option.abstract)
    }
    let subcommands = command.visibleSubcommands
    if !subcommands.isEmpty {
      out += "\nSUBCOMMANDS:\n"
      for sub in subcommands { out += row(sub.name, sub.abstract) }
      let prefix = ([program.root.name] + path).joined(separator: " ")
      out += "\n  See '\(prefix) <command> --help' for a command's details.\n"
    }
    return out
  }

  /// `-f, --force` or `--vault PATH`.
  static func label(_ option: OptionSpec) -> String {
    (option.short.map { "-\($0), " } ?? "") + option.synopsis
  }

  private static func row(_ label: String, _ text: String) -> String {
    let column = 26
    let lead = "  " + label
    let body = wrap(text, indent: column)
    if lead.count + 2 <= column {
      let firstLine = body.dropFirst(column)
      return lead + String(repeating: " ", count: column - lead.count) + firstLine + "\n"
    }
    return lead + "\n" + body + "\n"
  }

  /// Wraps `text` to `width`, indenting every line by `indent` spaces.
  static func wrap(_ text: String, indent: Int) -> String {
    let pad = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if !line.isEmpty && indent + line.count + 1 + word.count > width {
        lines.append(pad + line)
        line = String(word)
      } else {
        line += (line.isEmpty ? "" : " ") + word
      }
    }
    if !line.isEmpty || lines.isEmpty { lines.append(pad + line) }
    return lines.joined(separator: "\n")
  }
}
