#!/usr/bin/env bash
# How `vault add`, `vault add --force` (which keeps the replaced version in the history) and
# `vault get` in a session scale with the number of entries: a vault of 100
# and one of 100,000 (filled in one write by BenchFillTests), each timed with hyperfine on the
# release build. Prints a table (milliseconds, mean of N runs) and the ratio.
# Usage: bench/scale.sh [N] [LARGE]   (from the repository root; LARGE defaults to 100000)
set -euo pipefail
runs=${1:-30}
large=${2:-100000}
swift build -c release >/dev/null
swift build --build-tests >/dev/null
bin=$PWD/.build/release
tests=$(ls -d $PWD/.build/debug/*PackageTests.xctest | head -1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state XDG_RUNTIME_DIR=$work/run
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
export PATH=$bin:$PATH
printf '246810\n' > "$work/pin"

mean_ms() { # COMMAND: hyperfine's mean in ms
  hyperfine --runs "$runs" --warmup 2 --style none --export-json "$work/h.json" "$1" >/dev/null 2>&1
  python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][0]["mean"]*1000))' "$work/h.json"
}

declare -A add force get
for count in 100 "$large"; do
  export VAULT_PATH=$work/v$count.db
  vault init --no-biometry --kdf interactive --pin-fd 3 3<"$work/pin" 2>/dev/null
  VAULT_BENCH_FILL=$VAULT_PATH VAULT_BENCH_PIN=246810 VAULT_BENCH_COUNT=$count \
    "$tests" VaultCoreTests.BenchFillTests >/dev/null 2>&1
  export VAULT_SESSION=$(vault unlock --raw --pin-fd 3 3<"$work/pin")
  add[$count]=$(mean_ms 'sh -c "printf x | vault add n-\$(date +%s%N)"')
  force[$count]=$(mean_ms 'sh -c "printf y | vault add --force fill/3"')
  get[$count]=$(mean_ms "vault get fill/7")
  unset VAULT_SESSION
done
printf '| command (session) | 100 entries | %s entries | ratio |\n|---|---|---|---|\n' "$large"
for what in add force get; do
  declare -n m=$what
  label="vault $what"
  [[ $what == force ]] && label="vault add --force"
  printf '| %s | %s ms | %s ms | %s |\n' "$label" "${m[100]}" "${m[$large]}" \
    "$(python3 -c "print('%.2f' % (${m[$large]} / ${m[100]}))")"
done
