import VaultFormat

/// The fish completion script of a program, generated from its command table.
///
/// A small function walks the tokens before the cursor through the table and prints the command
/// path and the number of arguments given (`biometry/status#0`); every `complete` line is
/// conditioned on it. Entry names come from `vault __complete`; fish escapes them for the line.
public enum FishCompletion {
  /// The script for `program`, loadable with `source` or from fish's completions folder.
  public static func script(for program: ProgramSpec) -> String {
    let name = program.name
    let nodes = program.completionNodes
    var out = """
      # Fish completion for \(name)(1).
      # \(GeneratedNotice.text)
      # \(GeneratedNotice.install(
        program, as: "~/.config/fish/completions/\(name).fish",
        load: "\(name) completions fish | source"))


      """
    out += stateFunctions(program, nodes)
    let journal = nodes.contains { node in
      (node.command.arguments.map(\.completion) + node.parsedOptions.map(\.completion)).contains {
        if case .journalEntry = $0 { true } else { false }
      }
    }
    out += vaultOptionFunction(name)
    if nodes.contains(where: usesEntryNames) { out += entryNamesFunction(name) }
    if journal { out += journalEntriesFunction(name) }
    if nodes.contains(where: { $0.parsedOptions.contains { $0.completion == .fieldKey } }) {
      out += fieldKeysFunction(name)
    }
    if nodes.contains(where: { $0.parsedOptions.contains { $0.completion == .journalTag } }) {
      out += journalTagsFunction(name)
    }
    out += "complete -c \(name) -f\n"
    let everywhere = program.globalOptions.filter { option in
      nodes.allSatisfy { node in node.options.contains { $0.long == option.long } }
    }
    if !everywhere.isEmpty {
      out += "\n# Global options, accepted by every command.\n"
      for option in everywhere { out += optionLine(name, option, condition: nil) }
    }
    for node in nodes {
      let path = node.path.joined(separator: "/")
      out += "\n# \(([name] + node.path).joined(separator: " ")): \(node.command.abstract)\n"
      for sub in node.subcommands {
        out += "complete -c \(name) -n \(condition(name, "at", path, "0")) -a \(sub.name)"
        out += " -d \(ShellQuote.fish(sub.abstract))\n"
      }
      for option in node.options where !everywhere.contains(where: { $0.long == option.long }) {
        out += optionLine(name, option, condition: condition(name, "in", path))
      }
      for (index, argument) in node.command.arguments.enumerated() {
        guard let arguments = candidates(name, argument.completion) else { continue }
        let test =
          argument.variadic
          ? condition(name, "at", path, String(index), "more")
          : condition(name, "at", path, String(index))
        out += "complete -c \(name) -n \(test) \(arguments)\n"
      }
    }
    return out
  }

  private static func usesEntryNames(_ node: CompletionNode) -> Bool {
    node.command.arguments.contains { $0.completion == .entryName }
      || node.parsedOptions.contains { $0.completion == .entryName }
  }

  /// `'__vault_at "add" 0'`: a `-n` condition calling one of the state functions.
  private static func condition(_ name: String, _ function: String, _ words: String...) -> String {
    let arguments = words.enumerated().map { $0.offset == 0 ? "\"\($0.element)\"" : $0.element }
    return ShellQuote.fish((["__\(name)_\(function)"] + arguments).joined(separator: " "))
  }

  private static func optionLine(_ name: String, _ option: OptionSpec, condition: String?)
    -> String
  {
    var line = "complete -c \(name)"
    if let condition { line += " -n \(condition)" }
    if let short = option.short { line += " -s \(short)" }
    line += " -l \(option.long)"
    if option.valueName != nil {
      switch option.completion {
      case .file: line += " -r -F"
      case .none: line += " -x"
      default: line += " -x " + (candidates(name, option.completion) ?? "")
      }
    }
    return line + " -d \(ShellQuote.fish(option.abstract))\n"
  }

  /// The `complete` arguments offering a value of `kind`, or nil when there is nothing to offer.
  private static func candidates(_ name: String, _ kind: CompletionKind) -> String? {
    switch kind {
    case .none: nil
    case .file: "-r -F"
    case .entryName: "-a " + ShellQuote.fish("(__\(name)_entry_names)")
    case .fieldKey: "-a " + ShellQuote.fish("(__\(name)_field_keys)")
    case .journalTag: "-a " + ShellQuote.fish("(__\(name)_journal_tags)")
    case .journalEntry(let dates):
      "-a " + ShellQuote.fish("(__\(name)_journal_entries \(dates ? 1 : 0))")
    case .values(let words): "-a " + ShellQuote.fish(words.joined(separator: " "))
    }
  }

  private static func stateFunctions(_ program: ProgramSpec, _ nodes: [CompletionNode]) -> String {
    let name = program.name
    var out = """
      # Prints the name that the word $argv[2] stands for as a subcommand of the command at path
      # $argv[1] (words joined by '/'); fails when it is none.
      function __\(name)_subcommand
          switch "$argv[1]:$argv[2]"

      """
    for node in nodes {
      let path = node.path.joined(separator: "/")
      for sub in node.subcommands {
        let patterns = ([sub.name] + sub.aliases).map { ShellQuote.fish("\(path):\($0)") }
        out += "        case \(patterns.joined(separator: " "))\n            echo \(sub.name)\n"
      }
    }
    out += """
              case '*'
                  return 1
          end
      end

      # Prints the options of the command at path $argv[1] that take a value, as typed.
      function __\(name)_valued
          switch $argv[1]

      """
    for node in nodes where !node.valuedWords.isEmpty {
      out += "        case \(ShellQuote.fish(node.path.joined(separator: "/")))\n"
      out += "            printf '%s\\n' \(node.valuedWords.joined(separator: " "))\n"
    }
    out += #"""
          end
      end

      # Prints the command path before the cursor and how many arguments it was given, as PATH#N,
      # or PATH#- when the word at the cursor is an option or its value. `--` ends the options.
      function __\#(name)_state
          set -l tokens (commandline -opc)
          set -e tokens[1]
          set -l path ''
          set -l count 0
          set -l ended 0
          set -l value 0
          set -l next
          for token in $tokens
              if test $value = 1
                  set value 0
              else if test $ended = 0; and test "$token" = --
                  set ended 1
              else if test $ended = 0; and string match -q -- '-?*' $token
                  if contains -- $token (__\#(name)_valued "$path")
                      set value 1
                  end
              else if test $ended = 0; and test $count = 0
                  and set next (__\#(name)_subcommand "$path" $token)
                  set path (string join / -- $path $next | string trim -l -c /)
              else
                  set count (math $count + 1)
              end
          end
          if test $value = 1
              set count -
          else if test $ended = 0; and string match -q -- '-*' (commandline -ct)
              set count -
          end
          echo "$path#$count"
      end

      # True when the command at the cursor is at path $argv[1].
      function __\#(name)_in
          set -l state (string split '#' -- (__\#(name)_state))
          test "$state[1]" = "$argv[1]"
      end

      # True when the word at the cursor is argument number $argv[2] (from 0) of the command at
      # path $argv[1], or a later one when $argv[3] is given (an argument that repeats).
      function __\#(name)_at
          set -l state (string split '#' -- (__\#(name)_state))
          test "$state[1]" = "$argv[1]"; and test "$state[2]" != -; or return 1
          if set -q argv[3]
              test "$state[2]" -ge $argv[2]
          else
              test "$state[2]" = $argv[2]
          end
      end


      """#
    return out
  }

  private static func journalTagsFunction(_ name: String) -> String {
    """
    # Prints the journal tags (without their '@') from `\(name) __complete --tags`, which reads
    # a valid VAULT_SESSION only, as for entry names.
    function __\(name)_journal_tags
        set -l program (commandline -opc)[1]
        $program (__\(name)_vault_option) __complete --tags 2>/dev/null
    end


    """
  }

  private static func entryNamesFunction(_ name: String) -> String {
    """
    # Prints the entry names from `\(name) __complete`, which reads a valid VAULT_SESSION only: it
    # never prompts, and prints nothing while the vault is locked. fish escapes each name.
    function __\(name)_entry_names
        set -l program (commandline -opc)[1]
        $program (__\(name)_vault_option) __complete 2>/dev/null
    end


    """
  }

  private static func vaultOptionFunction(_ name: String) -> String {
    """
    # Prints `--vault` and the PATH typed earlier on the line (the last one, a leading ~/
    # expanded), or nothing, so that names come from that vault.
    function __\(name)_vault_option
        set -l words (commandline -opc)
        set -l path
        set -l i 2
        while test $i -le (count $words)
            if test "$words[$i]" = --vault
                set i (math $i + 1)
                test $i -le (count $words); and set path $words[$i]
            else if string match -q -- '--vault=*' $words[$i]
                set path (string replace -- --vault= '' $words[$i])
            end
            set i (math $i + 1)
        end
        if test -n "$path"
            echo --vault
            string replace -r -- '^~/' "$HOME/" $path
        end
    end


    """
  }

  private static func journalEntriesFunction(_ name: String) -> String {
    """
    # Prints the journal entries' short ids from `\(name) __complete --journal`, as for names,
    # and when $argv[1] is 1 the date words.
    function __\(name)_journal_entries
        set -l program (commandline -opc)[1]
        $program (__\(name)_vault_option) __complete --journal 2>/dev/null
        test "$argv[1]" = 1; and printf '%s\\n' today yesterday
    end


    """
  }

  private static func fieldKeysFunction(_ name: String) -> String {
    """
    # Prints the field keys of the entry named earlier on the line, from
    # `\(name) __complete-fields`, which reads a valid VAULT_SESSION only.
    function __\(name)_field_keys
        set -l words (commandline -opc)
        $words[1] (__\(name)_vault_option) __complete-fields -- '' $words[2..-1] 2>/dev/null
    end


    """
  }
}
