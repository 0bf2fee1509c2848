#!/usr/bin/env bash
# Times `vault import --from jsonl` of N entries (default 100,000; names of about 20 bytes,
# contents of about 100) on the release build, with the PIN (so the unlock at the default
# Argon2id profile is part of it), and prints a table (seconds). Usage: bench/import.sh [N]
# (from the repository root).
set -euo pipefail
count=${1:-100000}
swift build -c release >/dev/null
bin=$PWD/.build/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export HOME=$work XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state XDG_RUNTIME_DIR=$work/run
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
export VAULT_PATH=$work/vault.db
pin=$work/pin
printf '246810\n' > "$pin"
"$bin/vault" init --no-biometry --pin-fd 3 3<"$pin" 2>/dev/null

python3 - "$count" > "$work/in.jsonl" <<'PY'
import json, random, sys
random.seed(1)
alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
for n in range(int(sys.argv[1])):
    name = "site/%05d-%s" % (n, "".join(random.choice(alphabet) for _ in range(8)))
    password = "".join(random.choice(alphabet) for _ in range(24))
    content = "%s\nusername: user%d@example.com\nurl: https://example.com/%d\nnote: %s\n" % (
        password, n, n, "x" * 12)
    print(json.dumps({"name": name, "content": content}))
PY
bytes=$(wc -c < "$work/in.jsonl")

# seconds COMMAND...: wall time of one run, to the millisecond.
seconds() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; exit 1; }
  end=$(date +%s%N)
  python3 -c "print('%.2f' % (($end - $start) / 1e9))"
}

printf '| what (%s entries, %s bytes of jsonl) | seconds |\n|---|---|\n' "$count" "$bytes"
printf '| import --dry-run (read, unlock, check the names) | %s |\n' \
  "$(seconds sh -c '"$0" import --from jsonl --dry-run --pin-fd 3 "$1" 3<"$2"' "$bin/vault" "$work/in.jsonl" "$pin")"
printf '| import into an empty vault (unlock included) | %s |\n' \
  "$(seconds sh -c '"$0" import --from jsonl --pin-fd 3 "$1" 3<"$2"' "$bin/vault" "$work/in.jsonl" "$pin")"
printf '| import --force over every entry (history kept) | %s |\n' \
  "$(seconds sh -c '"$0" import --from jsonl --force --pin-fd 3 "$1" 3<"$2"' "$bin/vault" "$work/in.jsonl" "$pin")"
listed=$("$bin/vault" list --pin-fd 3 3<"$pin" | wc -l)
printf '| entries listed afterwards | %s |\n' "$listed"
[ "$listed" -eq "$count" ] || { echo "expected $count entries, listed $listed" >&2; exit 1; }
