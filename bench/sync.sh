#!/usr/bin/env bash
# How `vault sync` scales with the store: for vaults of 100 and of LARGE entries (default
# 10,000, filled by `vault import --from jsonl`), on the release build, times the first push
# (`vault sync init` into a new bare repository: the whole store), a second device's `vault sync
# clone`, a sync with nothing to do, a sync after one `vault add` (the median of N rounds,
# each adding one entry first), the second device's sync that receives one such add (verifying
# the records it takes as `vault check` does; the median of N rounds), a master-key rotation on the first device (`vault rekey` with
# the code in force, pushed) and the second device taking it (`vault sync` with its PIN), then
# prints a table (milliseconds) and the LARGE/100 ratios. A sync's cost should follow the
# change, not the store; a rotation seals every record again, so it follows the store.
# Usage: bench/sync.sh [N] [LARGE] (from the repository root).
set -euo pipefail
rounds=${1:-9}
large=${2:-10000}
swift build -c release >/dev/null
bin=$PWD/.build/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '246810\n' > "$work/pin"

# ms COMMAND...: wall milliseconds of one run (its output dropped; a failure stops the bench).
ms() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

median() { python3 -c 'import statistics,sys; print(int(statistics.median(map(int, sys.argv[1:]))))' "$@"; }

# device NAME: a HOME of its own (device state, sessions), as a second machine has.
device() {
  export HOME=$work/$1 XDG_DATA_HOME=$work/$1/data XDG_STATE_HOME=$work/$1/state
  export XDG_RUNTIME_DIR=$work/$1/run VAULT_PATH=$work/$1/vault.db
  mkdir -p -m 700 "$HOME" "$XDG_RUNTIME_DIR"
}

# rekey CODE: `vault rekey` with the PIN and CODE (the code in force) on a descriptor, the new
# code it shows read from its stderr and typed back; prints the milliseconds, then the new code.
rekey() {
  python3 - "$bin/vault" "$1" <<'PY'
import os, re, subprocess, sys, time
vault, code = sys.argv[1], sys.argv[2]
read_end, write_end = os.pipe()
start = time.monotonic()
child = subprocess.Popen(
    [vault, "rekey", "--pin-fd", str(read_end)], pass_fds=[read_end],
    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
os.close(read_end)
os.write(write_end, b"246810\n" + code.encode() + b"\n")
shown, seen = None, b""
while shown is None:
    chunk = os.read(child.stderr.fileno(), 4096)
    if not chunk:
        sys.exit("vault rekey ended before it showed a new code: " + seen.decode(errors="replace"))
    seen += chunk
    heading = seen.find(b"New recovery code")
    found = re.search(rb"[0-9A-Z]{4}(?:-[0-9A-Z]{4}){8}", seen[heading:]) if heading >= 0 else None
    if found:
        shown = found.group().decode()
os.write(write_end, shown.encode() + b"\n")
os.close(write_end)
rest = child.stderr.read()
if child.wait() != 0:
    sys.exit("vault rekey failed: " + (seen + rest).decode(errors="replace"))
print(int((time.monotonic() - start) * 1000))
print(shown)
PY
}

declare -A init clone idle one receive rotate take
for count in 100 "$large"; do
  remote=$work/remote-$count.git
  python3 - "$count" > "$work/in.jsonl" <<'PY'
import json, random, sys
random.seed(1)
alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
for n in range(int(sys.argv[1])):
    name = "site/%05d-%s" % (n, "".join(random.choice(alphabet) for _ in range(8)))
    password = "".join(random.choice(alphabet) for _ in range(24))
    print(json.dumps({"name": name, "content": "%s\nusername: user%d@example.com\n" % (password, n)}))
PY
  device "a$count"
  "$bin/vault" init --no-biometry --kdf interactive --pin-fd 3 3<"$work/pin" 2>"$work/init-err"
  code=$(grep -A1 '^Recovery code' "$work/init-err" | tail -1)
  "$bin/vault" import --from jsonl "$work/in.jsonl" --pin-fd 3 3<"$work/pin" >/dev/null 2>&1
  session_a=$("$bin/vault" unlock --raw --pin-fd 3 3<"$work/pin")
  export VAULT_SESSION=$session_a
  init[$count]=$(ms "$bin/vault" sync init "$remote")
  idle[$count]=$(ms "$bin/vault" sync)
  times=()
  for round in $(seq "$rounds"); do
    printf 'x%s' "$round" | "$bin/vault" add "new/$round" >/dev/null 2>&1
    times+=("$(ms "$bin/vault" sync)")
  done
  one[$count]=$(median "${times[@]}")
  unset VAULT_SESSION
  device "b$count"
  printf '%s\n246810\n' "$code" > "$work/clone-pin"
  clone[$count]=$(ms "$bin/vault" sync clone "$remote" --pin-fd 3 3<"$work/clone-pin")
  session_b=$("$bin/vault" unlock --raw --pin-fd 3 3<"$work/pin")
  times=()
  for round in $(seq "$rounds"); do
    device "a$count"
    printf 'y%s' "$round" | VAULT_SESSION=$session_a "$bin/vault" add "sent/$round" >/dev/null 2>&1
    VAULT_SESSION=$session_a "$bin/vault" sync >/dev/null 2>&1
    device "b$count"
    times+=("$(VAULT_SESSION=$session_b ms "$bin/vault" sync)")
  done
  receive[$count]=$(median "${times[@]}")
  unset VAULT_SESSION
  device "a$count"
  rekey "$code" > "$work/rekey-out"
  rotate[$count]=$(head -1 "$work/rekey-out")
  device "b$count"
  take[$count]=$(ms "$bin/vault" sync --pin-fd 3 3<"$work/pin")
done
printf '| vault sync (ms) | %s entries | %s entries | ratio |\n|---|---|---|---|\n' 100 "$large"
row() { # LABEL ARRAY
  declare -n m=$2
  printf '| %s | %s | %s | %s |\n' "$1" "${m[100]}" "${m[$large]}" \
    "$(python3 -c "print('%.2f' % (${m[$large]} / max(1, ${m[100]})))")"
}
row "first push (sync init)" init
row "clone on a second device (recovery code)" clone
row "sync, nothing changed" idle
row "sync after one add (median of $rounds)" one
row "sync on the second device receiving one add (median of $rounds)" receive
row "rotation on the first device (vault rekey, pushed)" rotate
row "rotation taken on the second device (vault sync, PIN)" take
