import VaultFormat

/// The zsh completion function of a program (`_vault`), generated from its command table.
///
/// One function per command, each an `_arguments -S` call (so `--` ends the options) with the
/// command's options, the global ones and its arguments; commands with subcommands dispatch on the
/// next word. Entry names come from `vault __complete`; `compadd` quotes them for the line.
public enum ZshCompletion {
  /// The script for `program`: autoloadable from `$fpath` as `_NAME`, or loaded with `source`.
  public static func script(for program: ProgramSpec) -> String {
    let name = program.name
    let nodes = program.completionNodes
    var out = """
      #compdef \(name)
      # Zsh completion for \(name)(1).
      # \(GeneratedNotice.text)
      # \(GeneratedNotice.install(
        program, as: "_\(name) in a folder of $fpath",
        load: "source <(\(name) completions zsh)"))


      """
    for node in nodes {
      out += commandFunction(program, node)
      if !node.subcommands.isEmpty { out += subcommandsFunction(program, node) }
    }
    if nodes.contains(where: { $0.command.arguments.contains { $0.completion == .entryName } })
      || nodes.contains(where: { $0.parsedOptions.contains { $0.completion == .entryName } })
    {
      out += entryNamesFunction(name)
    }
    if nodes.contains(where: { $0.parsedOptions.contains { $0.completion == .fieldKey } }) {
      out += fieldKeysFunction(name)
    }
    if nodes.contains(where: { $0.parsedOptions.contains { $0.completion == .journalTag } }) {
      out += journalTagsFunction(name)
    }
    let journal = nodes.contains { node in
      (node.command.arguments.map(\.completion) + node.parsedOptions.map(\.completion)).contains {
        if case .journalEntry = $0 { true } else { false }
      }
    }
    if journal { out += journalEntriesFunction(name) }
    out += """
      if [[ $funcstack[1] == _\(name) ]]; then
        _\(name) "$@"
      else
        compdef _\(name) \(name)
      fi

      """
    return out
  }

  private static func commandFunction(_ program: ProgramSpec, _ node: CompletionNode) -> String {
    let function = program.functionName(node.path)
    var specs = node.options.flatMap { optionSpecs($0, program.name) }
    var out = "# \(([program.name] + node.path).joined(separator: " ")): \(node.command.abstract)\n"
    out += "\(function)() {\n"
    if node.path.isEmpty {
      // The program, and the `--vault PATH` typed before the cursor (the last one), kept for
      // the functions that ask the program for names: later functions see only their own words.
      let prefix = "_\(program.name)"
      out += """
          local \(prefix)_program=${(Q)words[1]} \(prefix)_i
          local -a \(prefix)_vault_option=()
          for (( \(prefix)_i = 2; \(prefix)_i < CURRENT; \(prefix)_i++ )); do
            case $words[\(prefix)_i] in
              (--vault) (( \(prefix)_i + 1 < CURRENT )) &&
                \(prefix)_vault_option=(--vault ${(Q)words[\(prefix)_i+1]}) ;;
              (--vault=*) \(prefix)_vault_option=(--vault ${(Q)${words[\(prefix)_i]#--vault=}}) ;;
            esac
          done
          if [[ $\(prefix)_vault_option[2] == '~/'* ]]; then
            \(prefix)_vault_option[2]=$HOME/${\(prefix)_vault_option[2]#'~/'}
          fi

        """
    }
    guard !node.subcommands.isEmpty else {
      specs += node.command.arguments.map { argumentSpec($0, program.name) }
      out += "  _arguments -S" + specs.map { " \\\n    \($0)" }.joined() + "\n}\n\n"
      return out
    }
    specs += [
      ShellQuote.posix(": :\(program.functionName(node.path, suffix: "_commands"))"),
      ShellQuote.posix("*:: :->command"),
    ]
    let context = ([program.name] + node.path).joined(separator: "-")
    out += """
        local curcontext=$curcontext state state_descr line ret=1
        local -A opt_args
        _arguments -C -S\(specs.map { " \\\n    \($0)" }.joined()) && ret=0
        if [[ $state == command ]]; then
          curcontext=${curcontext%:*:*}:\(context)-$words[1]:
          case $words[1] in

      """
    for sub in node.subcommands {
      let patterns = ([sub.name] + sub.aliases).joined(separator: "|")
      out += "    (\(patterns)) \(program.functionName(node.path + [sub.name])) && ret=0 ;;\n"
    }
    out += "    esac\n  fi\n  return ret\n}\n\n"
    return out
  }

  private static func subcommandsFunction(_ program: ProgramSpec, _ node: CompletionNode)
    -> String
  {
    let label = ([program.name] + node.path).joined(separator: " ") + " command"
    var out = "\(program.functionName(node.path, suffix: "_commands"))() {\n"
    out += "  local -a commands=(\n"
    for sub in node.subcommands {
      let item = sub.name.replacing(":", with: #"\:"#) + ":" + sub.abstract
      out += "    \(ShellQuote.posix(item))\n"
    }
    out += "  )\n  _describe -t commands \(ShellQuote.posix(label)) commands\n}\n\n"
    return out
  }

  /// `'(-f --force)'{-f,--force}'[Replace an existing entry.]'` or `'--kdf=[…]:profile:(…)'`.
  private static func optionSpecs(_ option: OptionSpec, _ program: String) -> [String] {
    let description = "[" + escapeDescription(option.abstract) + "]"
    var value = ""
    if let valueName = option.valueName {
      value = ":" + escapeMessage(valueName.lowercased()) + ":" + action(option.completion, program)
    }
    guard let short = option.short else {
      let form = "--\(option.long)" + (option.valueName == nil ? "" : "=")
      return [ShellQuote.posix(form + description + value)]
    }
    let longForm = "--\(option.long)" + (option.valueName == nil ? "" : "=")
    let shortForm = "-\(short)" + (option.valueName == nil ? "" : "+")
    let exclusion = ShellQuote.posix("(-\(short) --\(option.long))")
    return [exclusion + "{\(shortForm),\(longForm)}" + ShellQuote.posix(description + value)]
  }

  private static func argumentSpec(_ argument: ArgumentSpec, _ program: String) -> String {
    let lead = argument.variadic ? "*:" : (argument.optional ? "::" : ":")
    let message = escapeMessage(argument.name.lowercased())
    return ShellQuote.posix(lead + message + ":" + action(argument.completion, program))
  }

  private static func action(_ kind: CompletionKind, _ program: String) -> String {
    switch kind {
    case .none: " "
    case .file: "_files"
    case .entryName: "_\(program)_entry_names"
    case .fieldKey: "_\(program)_field_keys"
    case .journalTag: "_\(program)_journal_tags"
    case .journalEntry(let dates): "_\(program)_journal_entries \(dates ? 1 : 0)"
    case .values(let words): "(" + words.joined(separator: " ") + ")"
    }
  }

  private static func escapeDescription(_ text: String) -> String {
    text.replacing(#"\"#, with: #"\\"#)
      .replacing("[", with: #"\["#)
      .replacing("]", with: #"\]"#)
  }

  private static func escapeMessage(_ text: String) -> String {
    text.replacing(#"\"#, with: #"\\"#).replacing(":", with: #"\:"#)
  }

  private static func journalTagsFunction(_ name: String) -> String {
    """
    # Offers the journal tags (without their '@') from `\(name) __complete --tags`, which reads a
    # valid VAULT_SESSION only, as for entry names.
    _\(name)_journal_tags() {
      local program=${_\(name)_program:-\(name)} expl
      local -a tags
      if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
      tags=(${(f)"$($program $_\(name)_vault_option __complete --tags 2>/dev/null)"})
      _wanted journal-tags expl 'journal tag' compadd -a tags
    }


    """
  }

  private static func journalEntriesFunction(_ name: String) -> String {
    """
    # Offers the journal entries' short ids from `\(name) __complete --journal`, as for names,
    # and when $1 is 1 the date words.
    _\(name)_journal_entries() {
      local program=${_\(name)_program:-\(name)} expl
      local -a ids
      if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
      ids=(${(f)"$($program $_\(name)_vault_option __complete --journal 2>/dev/null)"})
      (( $1 )) && ids+=(today yesterday)
      _wanted journal-entries expl 'journal entry' compadd -a ids
    }


    """
  }

  private static func entryNamesFunction(_ name: String) -> String {
    """
    # Offers the entry names from `\(name) __complete`, which reads a valid VAULT_SESSION only: it
    # never prompts, and prints nothing while the vault is locked. compadd quotes each name.
    _\(name)_entry_names() {
      local program=${_\(name)_program:-\(name)} expl
      local -a names
      if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
      names=(${(f)"$($program $_\(name)_vault_option __complete 2>/dev/null)"})
      _wanted entry-names expl 'entry name' compadd -a names
    }


    """
  }

  private static func fieldKeysFunction(_ name: String) -> String {
    """
    # Offers the field keys of the entry named earlier on the line, from
    # `\(name) __complete-fields`, which reads a valid VAULT_SESSION only. In a command's function
    # `words` starts at the command's own name (a command of the top level: get, set, unset).
    _\(name)_field_keys() {
      local program=${_\(name)_program:-\(name)} expl
      local -a keys
      if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
      keys=(${(f)"$($program $_\(name)_vault_option __complete-fields -- '' \\
        "${(Q@)words[1,CURRENT-1]}" 2>/dev/null)"})
      _wanted field-keys expl 'field key' compadd -a keys
    }


    """
  }
}
