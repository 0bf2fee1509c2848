#!/usr/bin/env bash
# Counts what `vault get NAME` in a session and `vault unlock` touch: files opened (openat that
# succeeded, shared libraries excluded), device-state locks (flock LOCK_EX on device.lock) and
# fsyncs. Uses strace; prints a table. Usage: bench/path-trace.sh [debug|release]
set -euo pipefail
config=${1:-release}
command -v strace >/dev/null || { echo "bench/path-trace.sh needs strace (apt-get install strace)" >&2; exit 1; }
swift build -c "$config" >/dev/null
bin=$PWD/.build/$config
work=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state XDG_RUNTIME_DIR=$work/run
mkdir -p "$XDG_RUNTIME_DIR"
pin=$work/pin
printf '246810\n' > "$pin"
"$bin/biosim" enroll --label right-index 2>/dev/null
"$bin/biosim" next match
"$bin/vault" init --kdf interactive --pin-fd 3 3<"$pin" 2>/dev/null
"$bin/biosim" next match
export VAULT_SESSION=$("$bin/vault" unlock --raw --pin-fd 3 3<"$pin")
printf 'secret' | "$bin/vault" add small

# trace LABEL COMMAND...: one row of the table.
trace() {
  local label=$1
  shift
  strace -f -qq -o "$work/trace" -e trace=openat,flock,fsync,fdatasync "$@" >/dev/null 2>&1 || true
  local files locks syncs
  files=$(grep -E 'openat\(' "$work/trace" | grep -v -E '= -1|\.so|/proc/|/sys/|locale|gconv' \
    | sed -E 's/.*openat\([^"]*"([^"]*)".*/\1/' | sort -u | wc -l)
  locks=$(grep -c 'flock([0-9]*, LOCK_EX)' "$work/trace" || true)
  syncs=$(grep -c -E '^[0-9]+ +f(data)?sync\(' "$work/trace" || true)
  printf '| %s | %s | %s | %s |\n' "$label" "$files" "$locks" "$syncs"
}

printf '| command | distinct files opened | exclusive locks | fsyncs |\n|---|---|---|---|\n'
trace 'get in a session' "$bin/vault" get small
"$bin/biosim" next match
trace 'unlock (PIN + match)' sh -c '"$0" unlock --raw --pin-fd 3 3<"$1"' "$bin/vault" "$pin"
