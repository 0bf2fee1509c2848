import VaultFormat

/// One visible command as the completion scripts see it: where it sits, what it offers.
struct CompletionNode {
  /// Command words after the program name, such as `["biometry", "status"]`.
  let path: [String]
  /// The command itself.
  let command: CommandSpec
  /// Options offered here: the command's own, then the global ones; hidden ones left out.
  let options: [OptionSpec]
  /// Every option parsed here, hidden ones included, so their values can be skipped.
  let parsedOptions: [OptionSpec]

  /// Subcommands offered here.
  var subcommands: [CommandSpec] { command.visibleSubcommands }

  /// The options of `parsedOptions` that take a value, as typed: `--long` and `-s`.
  var valuedWords: [String] {
    parsedOptions.filter { $0.valueName != nil }.flatMap(\.words)
  }

  /// Subcommand words (names and aliases) with the name each one stands for.
  var subcommandWords: [(word: String, name: String)] {
    subcommands.flatMap { sub in ([sub.name] + sub.aliases).map { ($0, sub.name) } }
  }
}

extension OptionSpec {
  /// The words that select the option: `-s` (when it has one), then `--long`.
  var words: [String] { (short.map { ["-\($0)"] } ?? []) + ["--\(long)"] }
}

extension ProgramSpec {
  /// Every visible command with what a shell completes for it, depth first, root first.
  var completionNodes: [CompletionNode] {
    allPaths().compactMap { path in
      command(at: path).map { command in
        // As in `Help.text`: `--version` only acts, and is only offered, at the root.
        let globals = globalOptions.filter { $0.long != "version" || path.isEmpty }
        let parsed = command.options + globals
        return CompletionNode(
          path: path, command: command, options: parsed.filter { !$0.hidden },
          parsedOptions: parsed)
      }
    }
  }

  /// `vault` or `biosim`.
  var name: String { root.name }

  /// A shell function name for the command at `path`: `_vault_biometry_status`.
  func functionName(_ path: [String], suffix: String = "") -> String {
    let words = ([name] + path).map { word in
      String(word.map { $0.isLetter || $0.isNumber ? $0 : "_" })
    }
    return "_" + words.joined(separator: "_") + suffix
  }
}

/// How completion scripts quote the text they embed.
enum ShellQuote {
  /// `text` as one single-quoted POSIX shell word (bash and zsh): `'it'\''s'`.
  static func posix(_ text: String) -> String {
    "'" + text.replacing("'", with: #"'\''"#) + "'"
  }

  /// `text` as one single-quoted fish word: `'it\'s'`.
  static func fish(_ text: String) -> String {
    "'"
      + text.replacing(#"\"#, with: #"\\"#)
      .replacing("'", with: #"\'"#) + "'"
  }
}

/// The line every generated file starts with (in the file's comment syntax).
enum GeneratedNotice {
  /// The notice itself, naming the command that regenerates the file.
  static let text =
    "Generated from the command table by '\(GeneratedFiles.refreshCommand)'; do not edit."
}

extension GeneratedNotice {
  /// Where a completion script goes, and how to load it at once when the program prints it: one
  /// or two lines for a `#` comment.
  static func install(_ program: ProgramSpec, as file: String, load: String) -> String {
    program.root.subcommand("completions") == nil
      ? "Install it as \(file)."
      : "Install it as \(file),\n# or load it with: \(load)"
  }
}
