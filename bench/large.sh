#!/usr/bin/env bash
# Large contents against age on the same file: `vault add big < FILE` and `vault get big > OUT`
# in a session, beside `age -r` and `age -d`, on the release build. Runs ROUNDS alternating
# pairs (vault, then age, on the same warm file, after a sync) and prints the medians of wall
# seconds and peak RSS (GNU time; the session's unlock is not counted) and the median of the
# pairwise throughput ratios (age seconds / vault seconds: above 1 is faster than age).
# Usage: bench/large.sh [MiB [ROUNDS]]   (from the repository root; 1024 MiB and 5 rounds by
# default; needs age and GNU time)
set -euo pipefail
mib=${1:-1024}
rounds=${2:-5}
swift build -c release --product vault >/dev/null
bin=$PWD/.build/release
work=$(mktemp -d "${TMPDIR:-/var/tmp}/vault-large.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state XDG_RUNTIME_DIR=$work/run
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
export PATH=$bin:$PATH VAULT_TEST_KDF=1
printf '246810\n' > "$work/pin"
vault init --no-biometry --kdf test --pin-fd 3 3<"$work/pin" >/dev/null 2>&1
export VAULT_SESSION=$(vault unlock --raw --pin-fd 3 3<"$work/pin")
head -c $((mib * 1048576)) /dev/urandom > "$work/in"
age-keygen -o "$work/key" 2>/dev/null
recipient=$(grep -o 'age1[0-9a-z]*' "$work/key")

measure() { # COMMAND...: prints "seconds KiB", after an empty disk queue
  sync
  /usr/bin/time -f '%e %M' -o "$work/t" "$@"
  cat "$work/t"
}
: > "$work/runs"
for round in $(seq "$rounds"); do
  vault rm big >/dev/null 2>&1 || true
  vault purge big >/dev/null 2>&1 || true
  rm -f "$work/in.age" "$work/out" "$work/out2"
  add=$(measure sh -c 'vault add big < "$0"' "$work/in")
  enc=$(measure age -r "$recipient" -o "$work/in.age" "$work/in")
  get=$(measure sh -c 'vault get big > "$0"' "$work/out")
  dec=$(measure age -d -i "$work/key" -o "$work/out2" "$work/in.age")
  cmp "$work/in" "$work/out"
  echo "$add $enc $get $dec" >> "$work/runs"
done
printf '| %d MiB, %d rounds | vault s | vault peak RSS MiB | age s | age peak RSS MiB | throughput vs age |\n' "$mib" "$rounds"
printf '|---|---|---|---|---|---|\n'
python3 - "$work/runs" <<'PY'
import statistics, sys
runs = [[float(x) for x in line.split()] for line in open(sys.argv[1])]
m = statistics.median
for name, v in (("add / age -r", 0), ("get / age -d", 4)):
    vs = [r[v] for r in runs]; vk = [r[v + 1] for r in runs]
    ags = [r[v + 2] for r in runs]; agk = [r[v + 3] for r in runs]
    ratios = [a / b for a, b in zip(ags, vs)]
    print("| %s | %.2f | %.1f | %.2f | %.1f | %.2fx (%.2f–%.2f) |" % (
        name, m(vs), m(vk) / 1024, m(ags), m(agk) / 1024, m(ratios), min(ratios), max(ratios)))
PY
