#!/usr/bin/env bash
# Measures what a user waits for, on the release build, and prints a table (milliseconds,
# median of N runs). Usage: bench/profiles.sh [N]   (run from the repository root)
set -euo pipefail
runs=${1:-5}
swift build -c release >/dev/null
bin=$PWD/.build/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state XDG_RUNTIME_DIR=$work/run
mkdir -p "$XDG_RUNTIME_DIR"
export PATH=$bin:$PATH
pin=$work/pin
printf '246810\n' > "$pin"

# median_ms COMMAND...: runs the command $runs times, prints the median wall time in ms.
median_ms() {
  local times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}

printf '| what | profile | median ms (n=%s) |\n|---|---|---|\n' "$runs"
for profile in interactive moderate sensitive; do
  export VAULT_PATH=$work/$profile.db
  vault init --no-biometry --kdf "$profile" --pin-fd 3 3<"$pin" 2>/dev/null
  printf 'x' | vault add small --pin-fd 3 3<"$pin"
  printf '| unlock with the PIN (Argon2id) and list | %s | %s |\n' "$profile" \
    "$(median_ms sh -c 'vault list --pin-fd 3 3<"$0"' "$pin")"
done

export VAULT_PATH=$work/interactive.db
export VAULT_SESSION=$(vault unlock --raw --pin-fd 3 3<"$pin")
head -c 1048576 /dev/urandom > "$work/1m"
head -c 52428800 /dev/urandom > "$work/50m"
vault add one-mib < "$work/1m"
vault add fifty-mib < "$work/50m"
printf '| get a short entry in a session | - | %s |\n' "$(median_ms vault get small)"
printf '| get 1 MiB in a session | - | %s |\n' "$(median_ms vault get one-mib)"
printf '| get 50 MiB in a session | - | %s |\n' "$(median_ms vault get fifty-mib)"
printf '| add 50 MiB in a session (--force) | - | %s |\n' \
  "$(median_ms sh -c 'vault add --force fifty-mib < "$0"' "$work/50m")"
printf '| journal entry, no PIN | - | %s |\n' \
  "$(median_ms sh -c 'echo "dear diary" | vault journal')"
printf '| status, no unlock | - | %s |\n' "$(median_ms vault status)"
