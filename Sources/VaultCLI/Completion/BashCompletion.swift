import VaultFormat

/// The bash completion script of a program, generated from its command table.
///
/// The script walks the words before the cursor through the table (subcommands, aliases, options
/// that take a value, `--`), then offers subcommands, options, option values or arguments. Entry
/// names come from `vault __complete`, each quoted for where readline puts it: `two words` becomes
/// `two\ words` in a bare word, and `it's` after an open quote becomes `it'\''s` (readline closes
/// the quote).
/// It uses bash-completion's `_get_comp_words_by_ref` and `_filedir` when they are loaded.
public enum BashCompletion {
  /// The script for `program`, registered with `complete -F` for the program's name.
  public static func script(for program: ProgramSpec) -> String {
    let name = program.name
    let nodes = program.completionNodes
    var out = """
      # Bash completion for \(name)(1).
      # \(GeneratedNotice.text)
      # \(GeneratedNotice.install(program, as: "~/.local/share/bash-completion/completions/\(name)", load: "source <(\(name) completions bash)"))


      """
    out += commandFunction(program, nodes)
    out += valueFunction(program, nodes)
    let kinds = nodes.flatMap(kinds)
    let journal = kinds.contains { if case .journalEntry = $0 { true } else { false } }
    let fromVault = [CompletionKind.entryName, .fieldKey, .journalTag].contains(
      where: kinds.contains)
    if fromVault || journal {
      out += entryNamesFunction(name)
      out += vaultOptionFunction(name)
    }
    if kinds.contains(.fieldKey) { out += fieldKeysFunction(name) }
    if kinds.contains(.journalTag) { out += journalTagsFunction(name) }
    if journal { out += journalEntriesFunction(name) }
    if kinds.contains(.file) { out += filesFunction(name) }
    out += mainFunction(name)
    out += "complete -F _\(name) \(name)\n"
    return out
  }

  private static func kinds(_ node: CompletionNode) -> [CompletionKind] {
    node.parsedOptions.map(\.completion) + node.command.arguments.map(\.completion)
  }

  private static func commandFunction(_ program: ProgramSpec, _ nodes: [CompletionNode])
    -> String
  {
    var out = """
      # Sets the facts of the command at path $1 in the caller's variables: each subcommand word
      # with the name it stands for (commands), the subcommands and options offered (offered,
      # options), the options that take a value (valued), how many arguments the command takes and
      # whether the last one repeats (arguments, variadic).
      _\(program.name)_command() {
        case $1 in

      """
    for node in nodes {
      let commands = node.subcommandWords.map { "\($0.word)=\($0.name)" }
      let arguments = node.command.arguments
      out += "  \(ShellQuote.posix(node.path.joined(separator: " "))))\n"
      out += "    commands=\(ShellQuote.posix(spaced(commands)))\n"
      out +=
        "    offered=\(ShellQuote.posix(node.subcommands.map(\.name).joined(separator: " ")))\n"
      out +=
        "    options=\(ShellQuote.posix(node.options.flatMap(\.words).joined(separator: " ")))\n"
      out += "    valued=\(ShellQuote.posix(spaced(node.valuedWords)))\n"
      out +=
        "    arguments=\(arguments.count) variadic=\(arguments.last?.variadic == true ? 1 : 0)\n"
      out += "    ;;\n"
    }
    return out + "  esac\n}\n\n"
  }

  /// ` a b c `: a list that `*" word "*` can search.
  private static func spaced(_ words: [String]) -> String {
    words.isEmpty ? "" : " " + words.joined(separator: " ") + " "
  }

  private static func valueFunction(_ program: ProgramSpec, _ nodes: [CompletionNode]) -> String {
    var arms: [(action: String, patterns: [String])] = []
    func add(_ pattern: String, _ kind: CompletionKind) {
      guard let action = action(kind, program: program.name) else { return }
      if let index = arms.firstIndex(where: { $0.action == action }) {
        arms[index].patterns.append(pattern)
      } else {
        arms.append((action, [pattern]))
      }
    }
    for node in nodes {
      let path = node.path.joined(separator: " ")
      for option in node.command.options where option.valueName != nil {
        for word in option.words { add(ShellQuote.posix("\(path)|\(word)"), option.completion) }
      }
      for (index, argument) in node.command.arguments.enumerated() {
        add(ShellQuote.posix("\(path)|\(index)"), argument.completion)
      }
    }
    for option in program.globalOptions where option.valueName != nil {
      for word in option.words { add("*" + ShellQuote.posix("|\(word)"), option.completion) }
    }
    var out = """
      # Completes the value of option $2, or argument number $2 (from 0), of the command at path $1,
      # for the word $3.
      _\(program.name)_value() {
        case "$1|$2" in

      """
    for arm in arms {
      out += "  \(arm.patterns.joined(separator: " | ")))\n    \(arm.action)\n    ;;\n"
    }
    return out + "  esac\n}\n\n"
  }

  private static func action(_ kind: CompletionKind, program: String) -> String? {
    switch kind {
    case .none: nil
    case .file: "_\(program)_files \"$3\""
    case .entryName: "_\(program)_entry_names \"$3\""
    case .fieldKey: "_\(program)_field_keys \"$3\""
    case .journalTag: "_\(program)_journal_tags \"$3\""
    case .journalEntry(let dates): "_\(program)_journal_entries \"$3\" \(dates ? 1 : 0)"
    case .values(let words):
      "mapfile -t COMPREPLY < <(compgen -W \(ShellQuote.posix(words.joined(separator: " "))) -- \"$3\")"
    }
  }

  private static func entryNamesFunction(_ name: String) -> String {
    #"""
    # Splits the word $1 as readline sees it: `quote` is the quote left open at its end ('' when
    # none), `before` the unquoted text before that quote, `unquoted` the whole word unquoted.
    _\#(name)_unquote() {
      local word=$1 char i
      unquoted='' quote='' before=''
      for ((i = 0; i < ${#word}; i++)); do
        char=${word:i:1}
        if [[ $quote == "'" ]]; then
          if [[ $char == "'" ]]; then quote=''; else unquoted+=$char; fi
        elif [[ $char == '\' ]]; then
          i=$((i + 1))
          case ${word:i:1} in
          '$' | '`' | '"' | '\') ;;
          *) if [[ $quote == '"' ]]; then unquoted+='\'; fi ;;
          esac
          unquoted+=${word:i:1}
        elif [[ $char == '"' ]]; then
          if [[ $quote == '"' ]]; then quote=''; else quote='"' before=$unquoted; fi
        elif [[ $char == "'" && -z $quote ]]; then
          quote="'" before=$unquoted
        else
          unquoted+=$char
        fi
      done
    }

    # Quotes the name $1 for the place readline puts it: after the open quote `quote` (which
    # readline then closes), or as a bare word. Sets `quoted`.
    _\#(name)_quote() {
      local text=$1 char i
      quoted=''
      if [[ -z $quote ]]; then
        printf -v quoted %q "$text"
        return
      fi
      for ((i = 0; i < ${#text}; i++)); do
        char=${text:i:1}
        if [[ $quote == "'" && $char == "'" ]]; then
          quoted+="'\\''"
        elif [[ $quote == '"' && ( $char == '\' || $char == '$' || $char == '`' || $char == '"' ) ]]
        then
          quoted+="\\$char"
        else
          quoted+=$char
        fi
      done
    }

    # Offers the entry names that start with the word $1, each quoted so that the word becomes
    # exactly that name. They come from `\#(name) __complete`, which reads a valid VAULT_SESSION
    # only: it never prompts, and prints nothing while the vault is locked.
    _\#(name)_entry_names() {
      local unquoted quote before quoted entry lead='' program=${COMP_WORDS[0]}
      local -a vault_option
      _\#(name)_vault_option
      _\#(name)_unquote "$1"
      if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
      # In a bare word, readline replaces only the text after the last '=' or ':'.
      if [[ -z $quote && $1 == *[=:]* ]]; then lead=${1%"${1##*[=:]}"}; fi
      while IFS= read -r entry; do
        if [[ -n $quote ]]; then
          _\#(name)_quote "${entry#"$before"}"
        else
          _\#(name)_quote "$entry"
          if [[ -n $lead && $quoted == "$lead"* ]]; then quoted=${quoted#"$lead"}; fi
        fi
        COMPREPLY+=("$quoted")
      done < <("$program" "${vault_option[@]}" __complete -- "$unquoted" 2>/dev/null)
    }


    """#
  }

  private static func fieldKeysFunction(_ name: String) -> String {
    #"""
    # Offers the field keys that start with the word $1 of the entry named earlier on the line,
    # from `\#(name) __complete-fields`, which reads a valid VAULT_SESSION only.
    _\#(name)_field_keys() {
      local unquoted quote before program=${COMP_WORDS[0]} word
      local -a line=() vault_option
      _\#(name)_vault_option
      if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
      for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
        _\#(name)_unquote "$word"
        line+=("$unquoted")
      done
      mapfile -t COMPREPLY < <(
        "$program" "${vault_option[@]}" __complete-fields -- "$1" "${line[@]}" 2>/dev/null)
    }


    """#
  }

  private static func journalTagsFunction(_ name: String) -> String {
    #"""
    # Offers the journal tags (without their '@') that start with the word $1. They come from
    # `\#(name) __complete --tags`, which reads a valid VAULT_SESSION only, as for entry names.
    _\#(name)_journal_tags() {
      local program=${COMP_WORDS[0]}
      local -a vault_option
      _\#(name)_vault_option
      if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
      mapfile -t COMPREPLY < <(
        "$program" "${vault_option[@]}" __complete --tags -- "${1#@}" 2>/dev/null)
    }


    """#
  }

  private static func vaultOptionFunction(_ name: String) -> String {
    #"""
    # Sets the caller's vault_option to the `--vault PATH` typed earlier on the line (the last
    # one, unquoted, a leading ~/ expanded), or to nothing, so that names come from that vault.
    # Readline splits `--vault=PATH` into `--vault`, `=`, `PATH`.
    _\#(name)_vault_option() {
      local i unquoted quote before value=''
      vault_option=()
      for ((i = 1; i < COMP_CWORD; i++)); do
        [[ ${COMP_WORDS[i]} == --vault ]] || continue
        if [[ ${COMP_WORDS[i + 1]} == = ]]; then i=$((i + 1)); fi
        ((i + 1 < COMP_CWORD)) || break
        _\#(name)_unquote "${COMP_WORDS[i + 1]}"
        value=$unquoted
        if [[ $value == '~/'* ]]; then value=$HOME/${value#'~/'}; fi
        vault_option=(--vault "$value")
      done
    }


    """#
  }

  private static func journalEntriesFunction(_ name: String) -> String {
    #"""
    # Offers the journal entries' short ids that start with the word $1 and, when $2 is 1, the
    # date words. The ids come from `\#(name) __complete --journal`, as names do.
    _\#(name)_journal_entries() {
      local program=${COMP_WORDS[0]} word
      local -a vault_option
      _\#(name)_vault_option
      if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
      mapfile -t COMPREPLY < <(
        "$program" "${vault_option[@]}" __complete --journal -- "$1" 2>/dev/null)
      if [[ $2 == 1 ]]; then
        for word in today yesterday; do
          if [[ $word == "$1"* ]]; then COMPREPLY+=("$word"); fi
        done
      fi
    }


    """#
  }

  private static func filesFunction(_ name: String) -> String {
    #"""
    # Offers file names that start with the word $1.
    _\#(name)_files() {
      local cur=$1
      if declare -F _filedir >/dev/null; then
        _filedir
      else
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      fi
    }


    """#
  }

  private static func mainFunction(_ name: String) -> String {
    #"""
    # The completion function: walks the words before the cursor through the command table.
    _\#(name)() {
      local cur words cword
      if declare -F _get_comp_words_by_ref >/dev/null; then
        _get_comp_words_by_ref -n =: cur words cword
      else
        cur=${COMP_WORDS[COMP_CWORD]} words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
      fi
      COMPREPLY=()
      local commands offered options valued arguments variadic
      local path='' count=0 ended='' value='' word next i
      _\#(name)_command ''
      for ((i = 1; i < cword; i++)); do
        word=${words[i]}
        if [[ -n $value ]]; then
          value=''
        elif [[ -z $ended && $word == -- ]]; then
          ended=1
        elif [[ -z $ended && $word == -?* ]]; then
          if [[ $valued == *" $word "* ]]; then value=$word; fi
        elif [[ -z $ended && $count == 0 && $commands == *" $word="* ]]; then
          next=${commands#*" $word="}
          path=${path:+$path }${next%% *}
          _\#(name)_command "$path"
        else
          count=$((count + 1))
        fi
      done
      if [[ -n $value ]]; then
        _\#(name)_value "$path" "$value" "$cur"
      elif [[ -z $ended && $cur == --*=* ]]; then
        _\#(name)_value "$path" "${cur%%=*}" "${cur#*=}"
      elif [[ -z $ended && $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
      elif [[ -z $ended && $count == 0 && -n $offered ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$offered" -- "$cur")
      elif ((count < arguments || variadic)); then
        if ((count >= arguments)); then count=$((arguments - 1)); fi
        _\#(name)_value "$path" "$count" "$cur"
      fi
    }


    """#
  }
}
