# Fish completion for vault(1).
# Generated from the command table by 'swift run generate-manual .'; do not edit.
# Install it as ~/.config/fish/completions/vault.fish,
# or load it with: vault completions fish | source

# Prints the name that the word $argv[2] stands for as a subcommand of the command at path
# $argv[1] (words joined by '/'); fails when it is none.
function __vault_subcommand
    switch "$argv[1]:$argv[2]"
        case ':init'
            echo init
        case ':add' ':insert'
            echo add
        case ':get' ':show'
            echo get
        case ':list' ':ls'
            echo list
        case ':rm' ':remove' ':delete'
            echo rm
        case ':mv' ':move' ':rename'
            echo mv
        case ':pick'
            echo pick
        case ':set'
            echo set
        case ':unset'
            echo unset
        case ':run'
            echo run
        case ':inject'
            echo inject
        case ':audit'
            echo audit
        case ':find'
            echo find
        case ':import'
            echo import
        case ':passwd'
            echo passwd
        case ':recover'
            echo recover
        case ':rekey'
            echo rekey
        case ':status'
            echo status
        case ':unlock'
            echo unlock
        case ':lock'
            echo lock
        case ':biometry' ':bio'
            echo biometry
        case ':edit'
            echo edit
        case ':journal'
            echo journal
        case ':grep'
            echo grep
        case ':generate'
            echo generate
        case ':otp'
            echo otp
        case ':history'
            echo history
        case ':restore'
            echo restore
        case ':purge'
            echo purge
        case ':settings'
            echo settings
        case ':export'
            echo export
        case ':sync'
            echo sync
        case ':config'
            echo config
        case ':credential'
            echo credential
        case ':check'
            echo check
        case ':backup'
            echo backup
        case ':tour'
            echo tour
        case ':completions'
            echo completions
        case ':help'
            echo help
        case ':version'
            echo version
        case 'biometry:activate'
            echo activate
        case 'biometry:deactivate'
            echo deactivate
        case 'biometry:status'
            echo status
        case 'journal:list'
            echo list
        case 'journal:tags'
            echo tags
        case 'journal:show'
            echo show
        case 'journal:edit'
            echo edit
        case 'sync:init'
            echo init
        case 'sync:clone'
            echo clone
        case 'sync:devices'
            echo devices
        case 'sync:revoke'
            echo revoke
        case '*'
            return 1
    end
end

# Prints the options of the command at path $argv[1] that take a value, as typed.
function __vault_valued
    switch $argv[1]
        case ''
            printf '%s\n' --vault --pin-fd
        case 'init'
            printf '%s\n' --kdf --vault --pin-fd
        case 'add'
            printf '%s\n' --vault --pin-fd
        case 'get'
            printf '%s\n' --field --line -r --revision --clip-time --vault --pin-fd
        case 'list'
            printf '%s\n' --vault --pin-fd
        case 'rm'
            printf '%s\n' --vault --pin-fd
        case 'mv'
            printf '%s\n' --vault --pin-fd
        case 'pick'
            printf '%s\n' --menu --field --clip-time --vault --pin-fd
        case 'set'
            printf '%s\n' --vault --pin-fd
        case 'unset'
            printf '%s\n' --vault --pin-fd
        case 'run'
            printf '%s\n' --env --vault --pin-fd
        case 'inject'
            printf '%s\n' --output --vault --pin-fd
        case 'audit'
            printf '%s\n' --vault --pin-fd
        case 'find'
            printf '%s\n' --vault --pin-fd
        case 'import'
            printf '%s\n' --from --vault --pin-fd
        case 'passwd'
            printf '%s\n' --vault --pin-fd
        case 'recover'
            printf '%s\n' --vault --pin-fd
        case 'rekey'
            printf '%s\n' --vault --pin-fd
        case 'status'
            printf '%s\n' --vault --pin-fd
        case 'unlock'
            printf '%s\n' --timeout --shell --vault --pin-fd
        case 'lock'
            printf '%s\n' --vault --pin-fd
        case 'biometry'
            printf '%s\n' --vault --pin-fd
        case 'biometry/activate'
            printf '%s\n' --vault --pin-fd
        case 'biometry/deactivate'
            printf '%s\n' --vault --pin-fd
        case 'biometry/status'
            printf '%s\n' --vault --pin-fd
        case 'edit'
            printf '%s\n' --vault --pin-fd
        case 'journal'
            printf '%s\n' --vault --pin-fd
        case 'journal/list'
            printf '%s\n' --since --until -n --count --tag --vault --pin-fd
        case 'journal/tags'
            printf '%s\n' --vault --pin-fd
        case 'journal/show'
            printf '%s\n' --vault --pin-fd
        case 'journal/edit'
            printf '%s\n' --vault --pin-fd
        case 'grep'
            printf '%s\n' --vault --pin-fd
        case 'generate'
            printf '%s\n' --length --charset --words --separator --clip-time --vault --pin-fd
        case 'otp'
            printf '%s\n' --clip-time --vault --pin-fd
        case 'history'
            printf '%s\n' --vault --pin-fd
        case 'restore'
            printf '%s\n' -r --revision --vault --pin-fd
        case 'purge'
            printf '%s\n' --vault --pin-fd
        case 'settings'
            printf '%s\n' --vault --pin-fd
        case 'export'
            printf '%s\n' --to --output --kdf --verify --vault --pin-fd
        case 'sync'
            printf '%s\n' --vault --pin-fd
        case 'sync/init'
            printf '%s\n' --vault --pin-fd
        case 'sync/clone'
            printf '%s\n' --vault --pin-fd
        case 'sync/devices'
            printf '%s\n' --vault --pin-fd
        case 'sync/revoke'
            printf '%s\n' --vault --pin-fd
        case 'config'
            printf '%s\n' --vault --pin-fd
        case 'credential'
            printf '%s\n' --vault --pin-fd
        case 'check'
            printf '%s\n' --vault --pin-fd
        case 'backup'
            printf '%s\n' --vault --pin-fd
        case 'tour'
            printf '%s\n' --vault --pin-fd
        case 'completions'
            printf '%s\n' --vault --pin-fd
        case 'help'
            printf '%s\n' --vault --pin-fd
        case 'version'
            printf '%s\n' --vault --pin-fd
    end
end

# Prints the command path before the cursor and how many arguments it was given, as PATH#N,
# or PATH#- when the word at the cursor is an option or its value. `--` ends the options.
function __vault_state
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
            if contains -- $token (__vault_valued "$path")
                set value 1
            end
        else if test $ended = 0; and test $count = 0
            and set next (__vault_subcommand "$path" $token)
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
function __vault_in
    set -l state (string split '#' -- (__vault_state))
    test "$state[1]" = "$argv[1]"
end

# True when the word at the cursor is argument number $argv[2] (from 0) of the command at
# path $argv[1], or a later one when $argv[3] is given (an argument that repeats).
function __vault_at
    set -l state (string split '#' -- (__vault_state))
    test "$state[1]" = "$argv[1]"; and test "$state[2]" != -; or return 1
    if set -q argv[3]
        test "$state[2]" -ge $argv[2]
    else
        test "$state[2]" = $argv[2]
    end
end

# Prints `--vault` and the PATH typed earlier on the line (the last one, a leading ~/
# expanded), or nothing, so that names come from that vault.
function __vault_vault_option
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

# Prints the entry names from `vault __complete`, which reads a valid VAULT_SESSION only: it
# never prompts, and prints nothing while the vault is locked. fish escapes each name.
function __vault_entry_names
    set -l program (commandline -opc)[1]
    $program (__vault_vault_option) __complete 2>/dev/null
end

# Prints the journal entries' short ids from `vault __complete --journal`, as for names,
# and when $argv[1] is 1 the date words.
function __vault_journal_entries
    set -l program (commandline -opc)[1]
    $program (__vault_vault_option) __complete --journal 2>/dev/null
    test "$argv[1]" = 1; and printf '%s\n' today yesterday
end

# Prints the field keys of the entry named earlier on the line, from
# `vault __complete-fields`, which reads a valid VAULT_SESSION only.
function __vault_field_keys
    set -l words (commandline -opc)
    $words[1] (__vault_vault_option) __complete-fields -- '' $words[2..-1] 2>/dev/null
end

# Prints the journal tags (without their '@') from `vault __complete --tags`, which reads
# a valid VAULT_SESSION only, as for entry names.
function __vault_journal_tags
    set -l program (commandline -opc)[1]
    $program (__vault_vault_option) __complete --tags 2>/dev/null
end

complete -c vault -f

# Global options, accepted by every command.
complete -c vault -l vault -r -F -d 'Vault file (default $VAULT_PATH, else ~/.local/share/vault/vault.db).'
complete -c vault -l pin-fd -x -d 'Read the PIN (one line per prompt) from this file descriptor.'
complete -c vault -s h -l help -d 'Show help for the command.'

# vault: Encrypted secrets and journal entries behind a PIN and biometrics.
complete -c vault -n '__vault_at "" 0' -a init -d 'Create a new vault and print its one-time recovery code.'
complete -c vault -n '__vault_at "" 0' -a add -d 'Store a secret read from standard input or the terminal.'
complete -c vault -n '__vault_at "" 0' -a get -d 'Write an entry\'s content to standard output, byte for byte.'
complete -c vault -n '__vault_at "" 0' -a list -d 'List entry names, sorted, one per line.'
complete -c vault -n '__vault_at "" 0' -a rm -d 'Remove an entry (undo with \'vault restore\').'
complete -c vault -n '__vault_at "" 0' -a mv -d 'Rename an entry.'
complete -c vault -n '__vault_at "" 0' -a pick -d 'Choose an entry in a menu, then copy, print or type its password.'
complete -c vault -n '__vault_at "" 0' -a set -d 'Set one field of an entry (a \'KEY: VALUE\' line), keeping the rest of its text.'
complete -c vault -n '__vault_at "" 0' -a unset -d 'Remove one field (every \'KEY: VALUE\' line of KEY) from an entry.'
complete -c vault -n '__vault_at "" 0' -a run -d 'Run COMMAND with secrets in its environment: --env VAR=NAME[:FIELD] ... -- COMMAND.'
complete -c vault -n '__vault_at "" 0' -a inject -d 'Fill {{ vault NAME[:FIELD] }} placeholders in a template read from standard input.'
complete -c vault -n '__vault_at "" 0' -a audit -d 'Check every password (first line) offline: reused, short, weak or old.'
complete -c vault -n '__vault_at "" 0' -a find -d 'Find entry names by fuzzy match, best first, one per line.'
complete -c vault -n '__vault_at "" 0' -a import -d 'Bring in entries and journal entries from another tool\'s export.'
complete -c vault -n '__vault_at "" 0' -a passwd -d 'Change the PIN (the master key is re-wrapped, entries are untouched).'
complete -c vault -n '__vault_at "" 0' -a recover -d 'Set a new PIN with the recovery code (also on another machine).'
complete -c vault -n '__vault_at "" 0' -a rekey -d 'Replace the master key, the journal keys and the recovery code.'
complete -c vault -n '__vault_at "" 0' -a status -d 'Show the vault\'s policy, biometry, PIN delay, agent and session without unlocking.'
complete -c vault -n '__vault_at "" 0' -a unlock -d 'Hand the vault\'s key to your unlock agent, for every shell of yours.'
complete -c vault -n '__vault_at "" 0' -a lock -d 'Lock the vault: the agent lets it go and every session is revoked.'
complete -c vault -n '__vault_at "" 0' -a biometry -d 'Activate, deactivate or inspect biometric unlock.'
complete -c vault -n '__vault_at "" 0' -a edit -d 'Edit an entry in your editor, leaving no plaintext on disk.'
complete -c vault -n '__vault_at "" 0' -a journal -d 'Write a journal entry without unlocking; list, show or edit entries.'
complete -c vault -n '__vault_at "" 0' -a grep -d 'Search entry names, contents and journal entries for a pattern.'
complete -c vault -n '__vault_at "" 0' -a generate -d 'Store a random password or passphrase under NAME.'
complete -c vault -n '__vault_at "" 0' -a otp -d 'Print the current one-time code (TOTP or HOTP) of an entry.'
complete -c vault -n '__vault_at "" 0' -a history -d 'List the kept versions of an entry, newest first.'
complete -c vault -n '__vault_at "" 0' -a restore -d 'Bring back a kept version of an entry, also after \'vault rm\'.'
complete -c vault -n '__vault_at "" 0' -a purge -d 'Remove an entry and its history for good, or every kept revision.'
complete -c vault -n '__vault_at "" 0' -a settings -d 'Show or change the vault\'s settings (history retention, biometric reuse).'
complete -c vault -n '__vault_at "" 0' -a export -d 'Write the entries (and the journal) in another format, to leave or to move.'
complete -c vault -n '__vault_at "" 0' -a sync -d 'Carry the vault between your devices through a git repository.'
complete -c vault -n '__vault_at "" 0' -a config -d 'Show or change this device\'s settings for the vault (sync.auto), or yours (--global).'
complete -c vault -n '__vault_at "" 0' -a credential -d 'Answer git\'s credential requests (gitcredentials(7)): get, store, erase.'
complete -c vault -n '__vault_at "" 0' -a check -d 'Verify the vault\'s state and every record, and report any damage.'
complete -c vault -n '__vault_at "" 0' -a backup -d 'Write a consistent copy of the vault file (still encrypted) to PATH.'
complete -c vault -n '__vault_at "" 0' -a tour -d 'Run every command on a throwaway vault and show what it does.'
complete -c vault -n '__vault_at "" 0' -a completions -d 'Print the tab-completion script for bash, zsh or fish.'
complete -c vault -n '__vault_at "" 0' -a help -d 'Show help for a command.'
complete -c vault -n '__vault_at "" 0' -a version -d 'Show the version (as --version).'
complete -c vault -n '__vault_in ""' -l version -d 'Show the version.'

# vault init: Create a new vault and print its one-time recovery code.
complete -c vault -n '__vault_in "init"' -l kdf -x -a 'interactive moderate sensitive' -d 'Argon2id cost: interactive, moderate or sensitive (default moderate).'
complete -c vault -n '__vault_in "init"' -l no-biometry -d 'Create a PIN-only vault (no biometric check).'

# vault add: Store a secret read from standard input or the terminal.
complete -c vault -n '__vault_in "add"' -s f -l force -d 'Replace an existing entry.'
complete -c vault -n '__vault_in "add"' -s m -l multiline -d 'On a terminal, read until end of file.'
complete -c vault -n '__vault_in "add"' -l guard -d 'Every read needs fresh authentication, even in a session: a biometric match, or the PIN in a PIN-only vault or under lockout.'
complete -c vault -n '__vault_at "add" 0' -a '(__vault_entry_names)'

# vault get: Write an entry's content to standard output, byte for byte.
complete -c vault -n '__vault_in "get"' -l field -x -a '(__vault_field_keys)' -d 'Only this field\'s value (a \'KEY: VALUE\' line; password is the first line).'
complete -c vault -n '__vault_in "get"' -l line -x -d 'Only line N (from 1), without its line ending.'
complete -c vault -n '__vault_in "get"' -l fields -d 'List the entry\'s field keys, one per line, password first.'
complete -c vault -n '__vault_in "get"' -l json -d 'Print the entry as JSON: its password, fields and notes.'
complete -c vault -n '__vault_in "get"' -s r -l revision -x -d 'A kept revision of the entry (see \'vault history NAME\').'
complete -c vault -n '__vault_in "get"' -s c -l clip -d 'Copy to the clipboard instead of printing (wl-copy, xclip, xsel).'
complete -c vault -n '__vault_in "get"' -l clip-time -x -d 'Clear the clipboard after this many seconds, 1 to 3600, if it still holds the secret (default 45).'
complete -c vault -n '__vault_in "get"' -l all -d 'With --clip, copy the whole entry instead of its first line.'
complete -c vault -n '__vault_at "get" 0' -a '(__vault_entry_names)'

# vault list: List entry names, sorted, one per line.
complete -c vault -n '__vault_in "list"' -l json -d 'Print JSON instead of text.'
complete -c vault -n '__vault_in "list"' -l removed -d 'List removed entries that \'vault restore\' can bring back instead.'
complete -c vault -n '__vault_in "list"' -l tree -d 'Draw the names as a tree; a folder\'s line ends in \'/\'.'
complete -c vault -n '__vault_at "list" 0' -a '(__vault_entry_names)'

# vault rm: Remove an entry (undo with 'vault restore').
complete -c vault -n '__vault_at "rm" 0' -a '(__vault_entry_names)'

# vault mv: Rename an entry.
complete -c vault -n '__vault_in "mv"' -s f -l force -d 'Replace an existing entry named NEW.'
complete -c vault -n '__vault_at "mv" 0' -a '(__vault_entry_names)'
complete -c vault -n '__vault_at "mv" 1' -a '(__vault_entry_names)'

# vault pick: Choose an entry in a menu, then copy, print or type its password.
complete -c vault -n '__vault_in "pick"' -l menu -x -a 'fzf rofi wofi dmenu bemenu' -d 'The menu: fzf, rofi, wofi, dmenu, bemenu, or a command that reads names on standard input and prints the chosen one (default: the first of these found that can show here).'
complete -c vault -n '__vault_in "pick"' -s c -l clip -d 'Copy the value to the clipboard (the default; wl-copy, xclip, xsel).'
complete -c vault -n '__vault_in "pick"' -l print -d 'Print the value on standard output instead.'
complete -c vault -n '__vault_in "pick"' -l type -d 'Type the value into the window that had the focus when the menu opened (xdotool, wtype or ydotool).'
complete -c vault -n '__vault_in "pick"' -l autotype -d 'Type the username, Tab, the password and Enter, as rofi-pass does.'
complete -c vault -n '__vault_in "pick"' -l field -x -a '(__vault_field_keys)' -d 'Only this field\'s value (a \'KEY: VALUE\' line; password is the first line).'
complete -c vault -n '__vault_in "pick"' -l otp -d 'The current one-time code instead of the password.'
complete -c vault -n '__vault_in "pick"' -l clip-time -x -d 'Clear the clipboard after this many seconds, 1 to 3600, if it still holds the secret (default 45).'
complete -c vault -n '__vault_at "pick" 0' -a '(__vault_entry_names)'

# vault set: Set one field of an entry (a 'KEY: VALUE' line), keeping the rest of its text.
complete -c vault -n '__vault_at "set" 0' -a '(__vault_entry_names)'
complete -c vault -n '__vault_at "set" 1' -a '(__vault_field_keys)'

# vault unset: Remove one field (every 'KEY: VALUE' line of KEY) from an entry.
complete -c vault -n '__vault_at "unset" 0' -a '(__vault_entry_names)'
complete -c vault -n '__vault_at "unset" 1' -a '(__vault_field_keys)'

# vault run: Run COMMAND with secrets in its environment: --env VAR=NAME[:FIELD] ... -- COMMAND.
complete -c vault -n '__vault_in "run"' -l env -x -d 'Set VAR to the field (default password, the first line) of entry NAME; repeatable.'

# vault inject: Fill {{ vault NAME[:FIELD] }} placeholders in a template read from standard input.
complete -c vault -n '__vault_in "inject"' -l output -r -F -d 'Write to PATH (mode 0600, atomically) instead of standard output.'
complete -c vault -n '__vault_in "inject"' -s f -l force -d 'Replace PATH when it exists.'

# vault audit: Check every password (first line) offline: reused, short, weak or old.
complete -c vault -n '__vault_in "audit"' -l json -d 'Print JSON instead of text.'
complete -c vault -n '__vault_at "audit" 0' -a '(__vault_entry_names)'

# vault find: Find entry names by fuzzy match, best first, one per line.
complete -c vault -n '__vault_in "find"' -l json -d 'Print JSON instead of text.'

# vault import: Bring in entries and journal entries from another tool's export.
complete -c vault -n '__vault_in "import"' -l from -x -a 'jsonl bitwarden-json jrnl-json csv keepass-csv keepass-xml 1password-csv pass gopass vault' -d 'The format of SOURCE: jsonl, bitwarden-json, jrnl-json, csv, keepass-csv, keepass-xml, 1password-csv, pass, gopass or vault (needed).'
complete -c vault -n '__vault_in "import"' -l dry-run -d 'Check everything and write nothing.'
complete -c vault -n '__vault_in "import"' -s f -l force -d 'Replace entries that exist (each one\'s last version is kept in its history).'
complete -c vault -n '__vault_in "import"' -l rename-duplicates -d 'Name a later item that repeats an earlier one\'s name \'NAME (2)\', \'NAME (3)\', ... instead of refusing the import.'
complete -c vault -n '__vault_at "import" 0' -r -F

# vault passwd: Change the PIN (the master key is re-wrapped, entries are untouched).
complete -c vault -n '__vault_in "passwd"' -l no-hold -d 'Leave the vault locked afterwards, even on a terminal (the agent does not hold it again).'

# vault recover: Set a new PIN with the recovery code (also on another machine).
complete -c vault -n '__vault_in "recover"' -l no-hold -d 'Leave the vault locked afterwards, even on a terminal (the agent does not hold it again).'

# vault rekey: Replace the master key, the journal keys and the recovery code.
complete -c vault -n '__vault_in "rekey"' -l no-hold -d 'Leave the vault locked afterwards, even on a terminal (the agent does not hold it again).'

# vault status: Show the vault's policy, biometry, PIN delay, agent and session without unlocking.
complete -c vault -n '__vault_in "status"' -l json -d 'Print JSON instead of text.'
complete -c vault -n '__vault_in "status"' -l check -d 'Print nothing; exit 0 when the agent holds the vault or VAULT_SESSION is valid, 10 when not.'

# vault unlock: Hand the vault's key to your unlock agent, for every shell of yours.
complete -c vault -n '__vault_in "unlock"' -l timeout -x -d 'Idle timeout: 90s, 15m (default), 1h, or plain seconds; 8h at most.'
complete -c vault -n '__vault_in "unlock"' -l shell-session -d 'Issue a session for this shell (VAULT_SESSION) instead of handing the key to the agent.'
complete -c vault -n '__vault_in "unlock"' -l shell -x -a 'bash zsh fish' -d 'Shell syntax to print: bash, zsh or fish (default bash).'
complete -c vault -n '__vault_in "unlock"' -l raw -d 'Print the token alone (implies --shell-session).'
complete -c vault -n '__vault_in "unlock"' -s f -l force -d 'Ask for the PIN and the match even when the agent holds the vault.'

# vault lock: Lock the vault: the agent lets it go and every session is revoked.

# vault biometry: Activate, deactivate or inspect biometric unlock.
complete -c vault -n '__vault_at "biometry" 0' -a activate -d 'Seal the current enrollment\'s domain state (PIN, then a match).'
complete -c vault -n '__vault_at "biometry" 0' -a deactivate -d 'Turn biometric unlock off on this device (PIN and a match, or the recovery code).'
complete -c vault -n '__vault_at "biometry" 0' -a status -d 'Show whether biometric unlock is active, and why not.'

# vault biometry activate: Seal the current enrollment's domain state (PIN, then a match).
complete -c vault -n '__vault_in "biometry/activate"' -l no-hold -d 'Leave the vault locked afterwards, even on a terminal (the agent does not hold it again).'

# vault biometry deactivate: Turn biometric unlock off on this device (PIN and a match, or the recovery code).
complete -c vault -n '__vault_in "biometry/deactivate"' -l recovery -d 'Authorize with the recovery code instead.'

# vault biometry status: Show whether biometric unlock is active, and why not.
complete -c vault -n '__vault_in "biometry/status"' -l json -d 'Print JSON instead of text.'

# vault edit: Edit an entry in your editor, leaving no plaintext on disk.
complete -c vault -n '__vault_in "edit"' -l allow-disk-temp -d 'Use $TMPDIR when there is no RAM-backed folder (the plaintext may then reach the disk).'
complete -c vault -n '__vault_at "edit" 0' -a '(__vault_entry_names)'

# vault journal: Write a journal entry without unlocking; list, show or edit entries.
complete -c vault -n '__vault_at "journal" 0' -a list -d 'List entries, newest last: ID, date and time, first line.'
complete -c vault -n '__vault_at "journal" 0' -a tags -d 'List the journal\'s tags (@word), most used first, with their counts.'
complete -c vault -n '__vault_at "journal" 0' -a show -d 'Print an entry exactly, or every entry of a day.'
complete -c vault -n '__vault_at "journal" 0' -a edit -d 'Edit a journal entry in your editor; its ID and time stay.'
complete -c vault -n '__vault_in "journal"' -l allow-disk-temp -d 'Use $TMPDIR when there is no RAM-backed folder (the plaintext may then reach the disk).'

# vault journal list: List entries, newest last: ID, date and time, first line.
complete -c vault -n '__vault_in "journal/list"' -l since -x -a 'today yesterday' -d 'Only entries written on or after DATE (YYYY-MM-DD, today, yesterday or Nd (N days ago)).'
complete -c vault -n '__vault_in "journal/list"' -l until -x -a 'today yesterday' -d 'Only entries written on or before DATE.'
complete -c vault -n '__vault_in "journal/list"' -s n -l count -x -d 'Only the newest N entries (still newest last).'
complete -c vault -n '__vault_in "journal/list"' -l tag -x -a '(__vault_journal_tags)' -d 'Only entries with this tag (@TAG or TAG, any case); repeat to need each.'
complete -c vault -n '__vault_in "journal/list"' -l json -d 'Print JSON instead of text.'

# vault journal tags: List the journal's tags (@word), most used first, with their counts.
complete -c vault -n '__vault_in "journal/tags"' -l json -d 'Print JSON instead of text.'

# vault journal show: Print an entry exactly, or every entry of a day.
complete -c vault -n '__vault_at "journal/show" 0' -a '(__vault_journal_entries 1)'

# vault journal edit: Edit a journal entry in your editor; its ID and time stay.
complete -c vault -n '__vault_in "journal/edit"' -l allow-disk-temp -d 'Use $TMPDIR when there is no RAM-backed folder (the plaintext may then reach the disk).'
complete -c vault -n '__vault_at "journal/edit" 0' -a '(__vault_journal_entries 0)'

# vault grep: Search entry names, contents and journal entries for a pattern.
complete -c vault -n '__vault_in "grep"' -s i -l ignore-case -d 'Ignore case.'
complete -c vault -n '__vault_in "grep"' -s F -l fixed-strings -d 'PATTERN is a plain string, not a regular expression.'

# vault generate: Store a random password or passphrase under NAME.
complete -c vault -n '__vault_in "generate"' -l length -x -d 'Password length, 8 to 1024 (default 24).'
complete -c vault -n '__vault_in "generate"' -l no-symbols -d 'Letters and digits only.'
complete -c vault -n '__vault_in "generate"' -l charset -x -d 'Draw from these classes, joined by \',\': lower, upper, digits, symbols, and last chars:CHARACTERS (printable ASCII, to the end of the value) for a set of your own (default lower,upper,digits,symbols).'
complete -c vault -n '__vault_in "generate"' -l no-ambiguous -d 'Leave out look-alike characters: 0 O 1 l I.'
complete -c vault -n '__vault_in "generate"' -l words -x -d 'Make a passphrase of N words (3 to 64) instead.'
complete -c vault -n '__vault_in "generate"' -l separator -x -d 'Join passphrase words with S: up to 16 bytes, no control characters (default \'-\'; may be empty).'
complete -c vault -n '__vault_in "generate"' -s f -l force -d 'Replace an existing entry.'
complete -c vault -n '__vault_in "generate"' -l in-place -d 'Replace only the first line (the password) of an existing entry, keeping its fields and notes.'
complete -c vault -n '__vault_in "generate"' -l print -d 'Also print the new secret.'
complete -c vault -n '__vault_in "generate"' -s c -l clip -d 'Also copy the new secret to the clipboard (cleared as for \'get --clip\').'
complete -c vault -n '__vault_in "generate"' -l clip-time -x -d 'Clear the clipboard after this many seconds, 1 to 3600, if it still holds the secret (default 45).'
complete -c vault -n '__vault_at "generate" 0' -a '(__vault_entry_names)'

# vault otp: Print the current one-time code (TOTP or HOTP) of an entry.
complete -c vault -n '__vault_in "otp"' -l set -d 'Store the entry\'s one-time code: an otpauth:// URI or a base32 secret, read from a hidden prompt or standard input, never the command line.'
complete -c vault -n '__vault_in "otp"' -l json -d 'Print JSON instead of text.'
complete -c vault -n '__vault_in "otp"' -s c -l clip -d 'Copy to the clipboard instead of printing (wl-copy, xclip, xsel).'
complete -c vault -n '__vault_in "otp"' -l clip-time -x -d 'Clear the clipboard after this many seconds, 1 to 3600, if it still holds the secret (default 45).'
complete -c vault -n '__vault_at "otp" 0' -a '(__vault_entry_names)'

# vault history: List the kept versions of an entry, newest first.
complete -c vault -n '__vault_in "history"' -l json -d 'Print JSON instead of text.'
complete -c vault -n '__vault_at "history" 0' -a '(__vault_entry_names)'

# vault restore: Bring back a kept version of an entry, also after 'vault rm'.
complete -c vault -n '__vault_in "restore"' -s r -l revision -x -d 'The revision to bring back (default: the newest kept one).'
complete -c vault -n '__vault_at "restore" 0' -a '(__vault_entry_names)'

# vault purge: Remove an entry and its history for good, or every kept revision.
complete -c vault -n '__vault_in "purge"' -l history -d 'Drop every kept revision of every entry instead (current versions stay).'
complete -c vault -n '__vault_at "purge" 0' -a '(__vault_entry_names)'

# vault settings: Show or change the vault's settings (history retention, biometric reuse).
complete -c vault -n '__vault_at "settings" 0' -a 'history_keep history_days biometric_reuse_seconds'

# vault export: Write the entries (and the journal) in another format, to leave or to move.
complete -c vault -n '__vault_in "export"' -l to -x -a 'vault bitwarden-json keepass-xml jsonl csv' -d 'The format to write: vault, bitwarden-json, keepass-xml, jsonl or csv (needed).'
complete -c vault -n '__vault_in "export"' -l output -r -F -d 'Write to PATH, a new file of mode 0600, instead of standard output.'
complete -c vault -n '__vault_in "export"' -s f -l force -d 'Replace PATH when it exists.'
complete -c vault -n '__vault_in "export"' -l plaintext -d 'Allow a format that holds every secret in the clear (all but vault).'
complete -c vault -n '__vault_in "export"' -l kdf -x -a 'interactive moderate sensitive' -d 'Argon2id cost of the passphrase of --to vault: interactive, moderate or sensitive (default moderate).'
complete -c vault -n '__vault_in "export"' -l skip-guarded -d 'Leave guarded entries out, named (exit 5), instead of asking one fresh match for them.'
complete -c vault -n '__vault_in "export"' -l verify -r -F -d 'Read the vault export PATH back instead (its passphrase asked once), check every record and say what it holds; needs no vault and writes nothing.'
complete -c vault -n '__vault_at "export" 0' -a '(__vault_entry_names)'

# vault sync: Carry the vault between your devices through a git repository.
complete -c vault -n '__vault_at "sync" 0' -a init -d 'Set up sync with REMOTE and sync once.'
complete -c vault -n '__vault_at "sync" 0' -a clone -d 'Join this device to a vault synced at REMOTE, with its recovery code.'
complete -c vault -n '__vault_at "sync" 0' -a devices -d 'List the devices that sync this vault.'
complete -c vault -n '__vault_at "sync" 0' -a revoke -d 'Remove a device from the vault: its PIN keyslot and its writer key.'

# vault sync init: Set up sync with REMOTE and sync once.
complete -c vault -n '__vault_at "sync/init" 0' -r -F

# vault sync clone: Join this device to a vault synced at REMOTE, with its recovery code.
complete -c vault -n '__vault_at "sync/clone" 0' -r -F

# vault sync devices: List the devices that sync this vault.
complete -c vault -n '__vault_in "sync/devices"' -l json -d 'Print JSON instead of text.'

# vault sync revoke: Remove a device from the vault: its PIN keyslot and its writer key.
complete -c vault -n '__vault_in "sync/revoke"' -l rekey -d 'Then rotate the master key (a new recovery code), so the device learns nothing new.'

# vault config: Show or change this device's settings for the vault (sync.auto), or yours (--global).
complete -c vault -n '__vault_in "config"' -l global -d 'Your settings for every vault ($XDG_CONFIG_HOME/vault/config), not this device\'s for the vault.'
complete -c vault -n '__vault_at "config" 0' -a 'sync.auto pinentry credential.folder'

# vault credential: Answer git's credential requests (gitcredentials(7)): get, store, erase.
complete -c vault -n '__vault_at "credential" 0' -a 'get store erase'

# vault check: Verify the vault's state and every record, and report any damage.
complete -c vault -n '__vault_in "check"' -l accept-older -d 'Accept the file\'s state although it is older than the one this device last saw (a backup restored on purpose); needs the PIN.'

# vault backup: Write a consistent copy of the vault file (still encrypted) to PATH.
complete -c vault -n '__vault_at "backup" 0' -r -F

# vault tour: Run every command on a throwaway vault and show what it does.

# vault completions: Print the tab-completion script for bash, zsh or fish.
complete -c vault -n '__vault_at "completions" 0' -a 'bash zsh fish'

# vault help: Show help for a command.
complete -c vault -n '__vault_at "help" 0 more' -a 'init add get list rm mv pick set unset run inject audit find import passwd recover rekey status unlock lock biometry edit journal grep generate otp history restore purge settings export sync config credential check backup tour completions help version'

# vault version: Show the version (as --version).
