# Bash completion for biosim(1).
# Generated from the command table by 'swift run generate-manual .'; do not edit.
# Install it as ~/.local/share/bash-completion/completions/biosim.

# Sets the facts of the command at path $1 in the caller's variables: each subcommand word
# with the name it stands for (commands), the subcommands and options offered (offered,
# options), the options that take a value (valued), how many arguments the command takes and
# whether the last one repeats (arguments, variadic).
_biosim_command() {
  case $1 in
  '')
    commands=' status=status hardware=hardware availability=availability enroll=enroll unenroll=unenroll passcode=passcode profile=profile next=next unlock-device=unlock-device credential-verified=credential-verified force-lockout=force-lockout os-upgrade=os-upgrade reset=reset help=help '
    offered='status hardware availability enroll unenroll passcode profile next unlock-device credential-verified force-lockout os-upgrade reset help'
    options='-h --help --version'
    valued=''
    arguments=0 variadic=0
    ;;
  'status')
    commands=''
    offered=''
    options='--json -h --help'
    valued=''
    arguments=0 variadic=0
    ;;
  'hardware')
    commands=''
    offered=''
    options='--external -h --help'
    valued=''
    arguments=1 variadic=0
    ;;
  'availability')
    commands=''
    offered=''
    options='-h --help'
    valued=''
    arguments=1 variadic=0
    ;;
  'enroll')
    commands=''
    offered=''
    options='--label -h --help'
    valued=' --label '
    arguments=0 variadic=0
    ;;
  'unenroll')
    commands=''
    offered=''
    options='--label --all -h --help'
    valued=' --label '
    arguments=0 variadic=0
    ;;
  'passcode')
    commands=''
    offered=''
    options='--keep-enrollment -h --help'
    valued=''
    arguments=1 variadic=0
    ;;
  'profile')
    commands=''
    offered=''
    options='-h --help'
    valued=''
    arguments=1 variadic=0
    ;;
  'next')
    commands=''
    offered=''
    options='--count --clear -h --help'
    valued=' --count '
    arguments=1 variadic=0
    ;;
  'unlock-device')
    commands=''
    offered=''
    options='-h --help'
    valued=''
    arguments=0 variadic=0
    ;;
  'credential-verified')
    commands=''
    offered=''
    options='-h --help'
    valued=''
    arguments=0 variadic=0
    ;;
  'force-lockout')
    commands=''
    offered=''
    options='-h --help'
    valued=''
    arguments=0 variadic=0
    ;;
  'os-upgrade')
    commands=''
    offered=''
    options='-h --help'
    valued=''
    arguments=0 variadic=0
    ;;
  'reset')
    commands=''
    offered=''
    options='-y --yes -h --help'
    valued=''
    arguments=0 variadic=0
    ;;
  'help')
    commands=''
    offered=''
    options='-h --help'
    valued=''
    arguments=1 variadic=1
    ;;
  esac
}

# Completes the value of option $2, or argument number $2 (from 0), of the command at path $1,
# for the word $3.
_biosim_value() {
  case "$1|$2" in
  'hardware|0')
    mapfile -t COMPREPLY < <(compgen -W 'none touch-id face-id optic-id' -- "$3")
    ;;
  'availability|0')
    mapfile -t COMPREPLY < <(compgen -W 'available unavailable disconnected not-paired' -- "$3")
    ;;
  'passcode|0')
    mapfile -t COMPREPLY < <(compgen -W 'set clear' -- "$3")
    ;;
  'profile|0')
    mapfile -t COMPREPLY < <(compgen -W 'apple android' -- "$3")
    ;;
  'next|0')
    mapfile -t COMPREPLY < <(compgen -W 'match no-match retry cancel fallback system-cancel app-cancel timeout' -- "$3")
    ;;
  'help|0')
    mapfile -t COMPREPLY < <(compgen -W 'status hardware availability enroll unenroll passcode profile next unlock-device credential-verified force-lockout os-upgrade reset help' -- "$3")
    ;;
  esac
}

# The completion function: walks the words before the cursor through the command table.
_biosim() {
  local cur words cword
  if declare -F _get_comp_words_by_ref >/dev/null; then
    _get_comp_words_by_ref -n =: cur words cword
  else
    cur=${COMP_WORDS[COMP_CWORD]} words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
  fi
  COMPREPLY=()
  local commands offered options valued arguments variadic
  local path='' count=0 ended='' value='' word next i
  _biosim_command ''
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
      _biosim_command "$path"
    else
      count=$((count + 1))
    fi
  done
  if [[ -n $value ]]; then
    _biosim_value "$path" "$value" "$cur"
  elif [[ -z $ended && $cur == --*=* ]]; then
    _biosim_value "$path" "${cur%%=*}" "${cur#*=}"
  elif [[ -z $ended && $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
  elif [[ -z $ended && $count == 0 && -n $offered ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$offered" -- "$cur")
  elif ((count < arguments || variadic)); then
    if ((count >= arguments)); then count=$((arguments - 1)); fi
    _biosim_value "$path" "$count" "$cur"
  fi
}

complete -F _biosim biosim
