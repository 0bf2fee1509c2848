# Bash completion for vault(1).
# Generated from the command table by 'swift run generate-manual .'; do not edit.
# Install it as ~/.local/share/bash-completion/completions/vault,
# or load it with: source <(vault completions bash)

# Sets the facts of the command at path $1 in the caller's variables: each subcommand word
# with the name it stands for (commands), the subcommands and options offered (offered,
# options), the options that take a value (valued), how many arguments the command takes and
# whether the last one repeats (arguments, variadic).
_vault_command() {
  case $1 in
  '')
    commands=' init=init add=add insert=add get=get show=get list=list ls=list rm=rm remove=rm delete=rm mv=mv move=mv rename=mv pick=pick set=set unset=unset run=run inject=inject audit=audit find=find import=import passwd=passwd recover=recover rekey=rekey status=status unlock=unlock lock=lock biometry=biometry bio=biometry edit=edit journal=journal grep=grep generate=generate otp=otp history=history restore=restore purge=purge settings=settings export=export sync=sync config=config credential=credential check=check backup=backup tour=tour completions=completions help=help version=version '
    offered='init add get list rm mv pick set unset run inject audit find import passwd recover rekey status unlock lock biometry edit journal grep generate otp history restore purge settings export sync config credential check backup tour completions help version'
    options='--vault --pin-fd -h --help --version'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'init')
    commands=''
    offered=''
    options='--kdf --no-biometry --vault --pin-fd -h --help'
    valued=' --kdf --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'add')
    commands=''
    offered=''
    options='-f --force -m --multiline --guard --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'get')
    commands=''
    offered=''
    options='--field --line --fields --json -r --revision -c --clip --clip-time --all --vault --pin-fd -h --help'
    valued=' --field --line -r --revision --clip-time --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'list')
    commands=''
    offered=''
    options='--json --removed --tree --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'rm')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'mv')
    commands=''
    offered=''
    options='-f --force --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=2 variadic=0
    ;;
  'pick')
    commands=''
    offered=''
    options='--menu -c --clip --print --type --autotype --field --otp --clip-time --vault --pin-fd -h --help'
    valued=' --menu --field --clip-time --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'set')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=2 variadic=0
    ;;
  'unset')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=2 variadic=0
    ;;
  'run')
    commands=''
    offered=''
    options='--env --vault --pin-fd -h --help'
    valued=' --env --vault --pin-fd '
    arguments=1 variadic=1
    ;;
  'inject')
    commands=''
    offered=''
    options='--output -f --force --vault --pin-fd -h --help'
    valued=' --output --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'audit')
    commands=''
    offered=''
    options='--json --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'find')
    commands=''
    offered=''
    options='--json --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=1
    ;;
  'import')
    commands=''
    offered=''
    options='--from --dry-run -f --force --rename-duplicates --vault --pin-fd -h --help'
    valued=' --from --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'passwd')
    commands=''
    offered=''
    options='--no-hold --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'recover')
    commands=''
    offered=''
    options='--no-hold --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'rekey')
    commands=''
    offered=''
    options='--no-hold --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'status')
    commands=''
    offered=''
    options='--json --check --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'unlock')
    commands=''
    offered=''
    options='--timeout --shell-session --shell --raw -f --force --vault --pin-fd -h --help'
    valued=' --timeout --shell --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'lock')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'biometry')
    commands=' activate=activate deactivate=deactivate status=status '
    offered='activate deactivate status'
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'biometry activate')
    commands=''
    offered=''
    options='--no-hold --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'biometry deactivate')
    commands=''
    offered=''
    options='--recovery --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'biometry status')
    commands=''
    offered=''
    options='--json --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'edit')
    commands=''
    offered=''
    options='--allow-disk-temp --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'journal')
    commands=' list=list tags=tags show=show edit=edit '
    offered='list tags show edit'
    options='--allow-disk-temp --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'journal list')
    commands=''
    offered=''
    options='--since --until -n --count --tag --json --vault --pin-fd -h --help'
    valued=' --since --until -n --count --tag --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'journal tags')
    commands=''
    offered=''
    options='--json --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'journal show')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'journal edit')
    commands=''
    offered=''
    options='--allow-disk-temp --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'grep')
    commands=''
    offered=''
    options='-i --ignore-case -F --fixed-strings --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'generate')
    commands=''
    offered=''
    options='--length --no-symbols --charset --no-ambiguous --words --separator -f --force --in-place --print -c --clip --clip-time --vault --pin-fd -h --help'
    valued=' --length --charset --words --separator --clip-time --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'otp')
    commands=''
    offered=''
    options='--set --json -c --clip --clip-time --vault --pin-fd -h --help'
    valued=' --clip-time --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'history')
    commands=''
    offered=''
    options='--json --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'restore')
    commands=''
    offered=''
    options='-r --revision --vault --pin-fd -h --help'
    valued=' -r --revision --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'purge')
    commands=''
    offered=''
    options='--history --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'settings')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=2 variadic=0
    ;;
  'export')
    commands=''
    offered=''
    options='--to --output -f --force --plaintext --kdf --skip-guarded --verify --vault --pin-fd -h --help'
    valued=' --to --output --kdf --verify --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'sync')
    commands=' init=init clone=clone devices=devices revoke=revoke '
    offered='init clone devices revoke'
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'sync init')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'sync clone')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'sync devices')
    commands=''
    offered=''
    options='--json --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'sync revoke')
    commands=''
    offered=''
    options='--rekey --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'config')
    commands=''
    offered=''
    options='--global --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=2 variadic=0
    ;;
  'credential')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'check')
    commands=''
    offered=''
    options='--accept-older --vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'backup')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'tour')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  'completions')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=0
    ;;
  'help')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=1 variadic=1
    ;;
  'version')
    commands=''
    offered=''
    options='--vault --pin-fd -h --help'
    valued=' --vault --pin-fd '
    arguments=0 variadic=0
    ;;
  esac
}

# Completes the value of option $2, or argument number $2 (from 0), of the command at path $1,
# for the word $3.
_vault_value() {
  case "$1|$2" in
  'init|--kdf' | 'export|--kdf')
    mapfile -t COMPREPLY < <(compgen -W 'interactive moderate sensitive' -- "$3")
    ;;
  'add|0' | 'get|0' | 'list|0' | 'rm|0' | 'mv|0' | 'mv|1' | 'pick|0' | 'set|0' | 'unset|0' | 'audit|0' | 'edit|0' | 'generate|0' | 'otp|0' | 'history|0' | 'restore|0' | 'purge|0' | 'export|0')
    _vault_entry_names "$3"
    ;;
  'get|--field' | 'pick|--field' | 'set|1' | 'unset|1')
    _vault_field_keys "$3"
    ;;
  'pick|--menu')
    mapfile -t COMPREPLY < <(compgen -W 'fzf rofi wofi dmenu bemenu' -- "$3")
    ;;
  'inject|--output' | 'import|0' | 'export|--output' | 'export|--verify' | 'sync init|0' | 'sync clone|0' | 'backup|0' | *'|--vault')
    _vault_files "$3"
    ;;
  'import|--from')
    mapfile -t COMPREPLY < <(compgen -W 'jsonl bitwarden-json jrnl-json csv keepass-csv keepass-xml 1password-csv pass gopass vault' -- "$3")
    ;;
  'unlock|--shell' | 'completions|0')
    mapfile -t COMPREPLY < <(compgen -W 'bash zsh fish' -- "$3")
    ;;
  'journal list|--since' | 'journal list|--until')
    mapfile -t COMPREPLY < <(compgen -W 'today yesterday' -- "$3")
    ;;
  'journal list|--tag')
    _vault_journal_tags "$3"
    ;;
  'journal show|0')
    _vault_journal_entries "$3" 1
    ;;
  'journal edit|0')
    _vault_journal_entries "$3" 0
    ;;
  'settings|0')
    mapfile -t COMPREPLY < <(compgen -W 'history_keep history_days biometric_reuse_seconds' -- "$3")
    ;;
  'export|--to')
    mapfile -t COMPREPLY < <(compgen -W 'vault bitwarden-json keepass-xml jsonl csv' -- "$3")
    ;;
  'config|0')
    mapfile -t COMPREPLY < <(compgen -W 'sync.auto pinentry credential.folder' -- "$3")
    ;;
  'credential|0')
    mapfile -t COMPREPLY < <(compgen -W 'get store erase' -- "$3")
    ;;
  'help|0')
    mapfile -t COMPREPLY < <(compgen -W 'init add get list rm mv pick set unset run inject audit find import passwd recover rekey status unlock lock biometry edit journal grep generate otp history restore purge settings export sync config credential check backup tour completions help version' -- "$3")
    ;;
  esac
}

# Splits the word $1 as readline sees it: `quote` is the quote left open at its end ('' when
# none), `before` the unquoted text before that quote, `unquoted` the whole word unquoted.
_vault_unquote() {
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
_vault_quote() {
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
# exactly that name. They come from `vault __complete`, which reads a valid VAULT_SESSION
# only: it never prompts, and prints nothing while the vault is locked.
_vault_entry_names() {
  local unquoted quote before quoted entry lead='' program=${COMP_WORDS[0]}
  local -a vault_option
  _vault_vault_option
  _vault_unquote "$1"
  if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
  # In a bare word, readline replaces only the text after the last '=' or ':'.
  if [[ -z $quote && $1 == *[=:]* ]]; then lead=${1%"${1##*[=:]}"}; fi
  while IFS= read -r entry; do
    if [[ -n $quote ]]; then
      _vault_quote "${entry#"$before"}"
    else
      _vault_quote "$entry"
      if [[ -n $lead && $quoted == "$lead"* ]]; then quoted=${quoted#"$lead"}; fi
    fi
    COMPREPLY+=("$quoted")
  done < <("$program" "${vault_option[@]}" __complete -- "$unquoted" 2>/dev/null)
}

# Sets the caller's vault_option to the `--vault PATH` typed earlier on the line (the last
# one, unquoted, a leading ~/ expanded), or to nothing, so that names come from that vault.
# Readline splits `--vault=PATH` into `--vault`, `=`, `PATH`.
_vault_vault_option() {
  local i unquoted quote before value=''
  vault_option=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    [[ ${COMP_WORDS[i]} == --vault ]] || continue
    if [[ ${COMP_WORDS[i + 1]} == = ]]; then i=$((i + 1)); fi
    ((i + 1 < COMP_CWORD)) || break
    _vault_unquote "${COMP_WORDS[i + 1]}"
    value=$unquoted
    if [[ $value == '~/'* ]]; then value=$HOME/${value#'~/'}; fi
    vault_option=(--vault "$value")
  done
}

# Offers the field keys that start with the word $1 of the entry named earlier on the line,
# from `vault __complete-fields`, which reads a valid VAULT_SESSION only.
_vault_field_keys() {
  local unquoted quote before program=${COMP_WORDS[0]} word
  local -a line=() vault_option
  _vault_vault_option
  if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
  for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    _vault_unquote "$word"
    line+=("$unquoted")
  done
  mapfile -t COMPREPLY < <(
    "$program" "${vault_option[@]}" __complete-fields -- "$1" "${line[@]}" 2>/dev/null)
}

# Offers the journal tags (without their '@') that start with the word $1. They come from
# `vault __complete --tags`, which reads a valid VAULT_SESSION only, as for entry names.
_vault_journal_tags() {
  local program=${COMP_WORDS[0]}
  local -a vault_option
  _vault_vault_option
  if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
  mapfile -t COMPREPLY < <(
    "$program" "${vault_option[@]}" __complete --tags -- "${1#@}" 2>/dev/null)
}

# Offers the journal entries' short ids that start with the word $1 and, when $2 is 1, the
# date words. The ids come from `vault __complete --journal`, as names do.
_vault_journal_entries() {
  local program=${COMP_WORDS[0]} word
  local -a vault_option
  _vault_vault_option
  if [[ $program == '~/'* ]]; then program=$HOME/${program#'~/'}; fi
  mapfile -t COMPREPLY < <(
    "$program" "${vault_option[@]}" __complete --journal -- "$1" 2>/dev/null)
  if [[ $2 == 1 ]]; then
    for word in today yesterday; do
      if [[ $word == "$1"* ]]; then COMPREPLY+=("$word"); fi
    done
  fi
}

# Offers file names that start with the word $1.
_vault_files() {
  local cur=$1
  if declare -F _filedir >/dev/null; then
    _filedir
  else
    compopt -o filenames 2>/dev/null
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}

# The completion function: walks the words before the cursor through the command table.
_vault() {
  local cur words cword
  if declare -F _get_comp_words_by_ref >/dev/null; then
    _get_comp_words_by_ref -n =: cur words cword
  else
    cur=${COMP_WORDS[COMP_CWORD]} words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
  fi
  COMPREPLY=()
  local commands offered options valued arguments variadic
  local path='' count=0 ended='' value='' word next i
  _vault_command ''
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
      _vault_command "$path"
    else
      count=$((count + 1))
    fi
  done
  if [[ -n $value ]]; then
    _vault_value "$path" "$value" "$cur"
  elif [[ -z $ended && $cur == --*=* ]]; then
    _vault_value "$path" "${cur%%=*}" "${cur#*=}"
  elif [[ -z $ended && $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
  elif [[ -z $ended && $count == 0 && -n $offered ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$offered" -- "$cur")
  elif ((count < arguments || variadic)); then
    if ((count >= arguments)); then count=$((arguments - 1)); fi
    _vault_value "$path" "$count" "$cur"
  fi
}

complete -F _vault vault
