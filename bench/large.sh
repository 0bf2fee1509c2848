#!/usr/bin/env bash
# Large contents against age on the same file: `vault add big < FILE` and `vault get big > OUT`
# in a session, `age -r` and `age -d` (wall seconds and peak RSS from GNU time; the session's
# unlock is not counted), on the release build. Prints a table and the throughput ratios.
# Usage: bench/large.sh [MiB]   (from the repository root; 1024 MiB by default; needs age, time)
set -euo pipefail
mib=${1:-1024}
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

measure() { # NAME COMMAND...: "seconds KiB", after a warm page cache and an empty disk queue
  sync
  /usr/bin/time -f '%e %M' -o "$work/t" "${@:2}"
  cat "$work/t"
}
read -r add_s add_k < <(measure add sh -c 'vault add big < "$0"' "$work/in")
read -r get_s get_k < <(measure get sh -c 'vault get big > "$0"' "$work/out")
cmp "$work/in" "$work/out"
read -r enc_s enc_k < <(measure enc age -r "$recipient" -o "$work/in.age" "$work/in")
read -r dec_s dec_k < <(measure dec age -d -i "$work/key" -o "$work/out2" "$work/in.age")
printf '| %d MiB | vault s | vault peak RSS MiB | age s | age peak RSS MiB | throughput vs age |\n' "$mib"
printf '|---|---|---|---|---|---|\n'
python3 - "$add_s" "$add_k" "$enc_s" "$enc_k" "$get_s" "$get_k" "$dec_s" "$dec_k" <<'PY'
import sys
a = [float(x) for x in sys.argv[1:]]
for name, (vs, vk, ags, agk) in (("add / age -r", a[0:4]), ("get / age -d", a[4:8])):
    print("| %s | %.2f | %.1f | %.2f | %.1f | %.2fx |" % (name, vs, vk / 1024, ags, agk / 1024, ags / vs))
PY
