# Fish completion for biosim(1).
# Generated from the command table by 'swift run generate-manual .'; do not edit.
# Install it as ~/.config/fish/completions/biosim.fish.

# Prints the name that the word $argv[2] stands for as a subcommand of the command at path
# $argv[1] (words joined by '/'); fails when it is none.
function __biosim_subcommand
    switch "$argv[1]:$argv[2]"
        case ':status'
            echo status
        case ':hardware'
            echo hardware
        case ':availability'
            echo availability
        case ':enroll'
            echo enroll
        case ':unenroll'
            echo unenroll
        case ':passcode'
            echo passcode
        case ':profile'
            echo profile
        case ':next'
            echo next
        case ':unlock-device'
            echo unlock-device
        case ':credential-verified'
            echo credential-verified
        case ':force-lockout'
            echo force-lockout
        case ':os-upgrade'
            echo os-upgrade
        case ':reset'
            echo reset
        case ':help'
            echo help
        case '*'
            return 1
    end
end

# Prints the options of the command at path $argv[1] that take a value, as typed.
function __biosim_valued
    switch $argv[1]
        case 'enroll'
            printf '%s\n' --label
        case 'unenroll'
            printf '%s\n' --label
        case 'next'
            printf '%s\n' --count
    end
end

# Prints the command path before the cursor and how many arguments it was given, as PATH#N,
# or PATH#- when the word at the cursor is an option or its value. `--` ends the options.
function __biosim_state
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
            if contains -- $token (__biosim_valued "$path")
                set value 1
            end
        else if test $ended = 0; and test $count = 0
            and set next (__biosim_subcommand "$path" $token)
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
function __biosim_in
    set -l state (string split '#' -- (__biosim_state))
    test "$state[1]" = "$argv[1]"
end

# True when the word at the cursor is argument number $argv[2] (from 0) of the command at
# path $argv[1], or a later one when $argv[3] is given (an argument that repeats).
function __biosim_at
    set -l state (string split '#' -- (__biosim_state))
    test "$state[1]" = "$argv[1]"; and test "$state[2]" != -; or return 1
    if set -q argv[3]
        test "$state[2]" -ge $argv[2]
    else
        test "$state[2]" = $argv[2]
    end
end

# Prints `--vault` and the PATH typed earlier on the line (the last one, a leading ~/
# expanded), or nothing, so that names come from that vault.
function __biosim_vault_option
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

complete -c biosim -f

# Global options, accepted by every command.
complete -c biosim -s h -l help -d 'Show help for the command.'

# biosim: Control the simulated biometric sensor that vault uses.
complete -c biosim -n '__biosim_at "" 0' -a status -d 'Show the sensor\'s state.'
complete -c biosim -n '__biosim_at "" 0' -a hardware -d 'Choose the sensor type (changing it wipes the enrollment).'
complete -c biosim -n '__biosim_at "" 0' -a availability -d 'Make the sensor available, unavailable, disconnected or not paired.'
complete -c biosim -n '__biosim_at "" 0' -a enroll -d 'Enroll a finger, face or iris (the domain state changes).'
complete -c biosim -n '__biosim_at "" 0' -a unenroll -d 'Remove one template, or all (the domain state changes).'
complete -c biosim -n '__biosim_at "" 0' -a passcode -d 'Set or remove the device passcode.'
complete -c biosim -n '__biosim_at "" 0' -a profile -d 'Follow Apple\'s or Android\'s lockout rules.'
complete -c biosim -n '__biosim_at "" 0' -a next -d 'Queue the sensor\'s next answers, or drop them with --clear.'
complete -c biosim -n '__biosim_at "" 0' -a unlock-device -d 'Unlock the device with a matching finger, face or iris at its lock screen.'
complete -c biosim -n '__biosim_at "" 0' -a credential-verified -d 'Enter the device passcode at the lock screen (ends a lockout).'
complete -c biosim -n '__biosim_at "" 0' -a force-lockout -d 'Lock the sensor as after too many failed matches elsewhere.'
complete -c biosim -n '__biosim_at "" 0' -a os-upgrade -d 'Simulate a major OS upgrade (the domain state changes).'
complete -c biosim -n '__biosim_at "" 0' -a reset -d 'Erase the device: new device secret, no enrollment, no PIN counters.'
complete -c biosim -n '__biosim_at "" 0' -a help -d 'Show help for a command.'
complete -c biosim -n '__biosim_in ""' -l version -d 'Show the version.'

# biosim status: Show the sensor's state.
complete -c biosim -n '__biosim_in "status"' -l json -d 'Print JSON instead of text.'

# biosim hardware: Choose the sensor type (changing it wipes the enrollment).
complete -c biosim -n '__biosim_in "hardware"' -l external -d 'A removable sensor (a keyboard with Touch ID), which can be disconnected.'
complete -c biosim -n '__biosim_at "hardware" 0' -a 'none touch-id face-id optic-id'

# biosim availability: Make the sensor available, unavailable, disconnected or not paired.
complete -c biosim -n '__biosim_at "availability" 0' -a 'available unavailable disconnected not-paired'

# biosim enroll: Enroll a finger, face or iris (the domain state changes).
complete -c biosim -n '__biosim_in "enroll"' -l label -x -d 'A name for the template (default finger-N, face-N or iris-N).'

# biosim unenroll: Remove one template, or all (the domain state changes).
complete -c biosim -n '__biosim_in "unenroll"' -l label -x -d 'The template to remove.'
complete -c biosim -n '__biosim_in "unenroll"' -l all -d 'Remove every template.'

# biosim passcode: Set or remove the device passcode.
complete -c biosim -n '__biosim_in "passcode"' -l keep-enrollment -d 'With clear: keep the enrolled templates (preflight: passcodeNotSet).'
complete -c biosim -n '__biosim_at "passcode" 0' -a 'set clear'

# biosim profile: Follow Apple's or Android's lockout rules.
complete -c biosim -n '__biosim_at "profile" 0' -a 'apple android'

# biosim next: Queue the sensor's next answers, or drop them with --clear.
complete -c biosim -n '__biosim_in "next"' -l count -x -d 'Queue the answer N times (1-100, default 1).'
complete -c biosim -n '__biosim_in "next"' -l clear -d 'Drop every queued answer instead.'
complete -c biosim -n '__biosim_at "next" 0' -a 'match no-match retry cancel fallback system-cancel app-cancel timeout'

# biosim unlock-device: Unlock the device with a matching finger, face or iris at its lock screen.

# biosim credential-verified: Enter the device passcode at the lock screen (ends a lockout).

# biosim force-lockout: Lock the sensor as after too many failed matches elsewhere.

# biosim os-upgrade: Simulate a major OS upgrade (the domain state changes).

# biosim reset: Erase the device: new device secret, no enrollment, no PIN counters.
complete -c biosim -n '__biosim_in "reset"' -s y -l yes -d 'Do not ask for confirmation.'

# biosim help: Show help for a command.
complete -c biosim -n '__biosim_at "help" 0 more' -a 'status hardware availability enroll unenroll passcode profile next unlock-device credential-verified force-lockout os-upgrade reset help'
