#!/usr/bin/env bash
# Builds the libFuzzer targets (swiftc -sanitize=fuzzer,address) over vault's libraries and runs
# each for SECONDS seconds from its committed corpus in fuzz/corpus/TARGET; prints a table and
# exits 1 on the first crash (its input is left in .build/fuzz/TARGET-crashes).
# Usage: fuzz/run.sh [SECONDS] [OPTIMIZATION]   (run from the repository root; default 10 and -O)
# OPTIMIZATION -Onone builds the libraries in about a sixth of the time (with two compile jobs)
# and runs fewer inputs a second: the setting for a short run such as the test suite's.
set -euo pipefail
seconds=${1:-10}
optimization=${2:--O}
case "$optimization" in
  -O | -Onone) ;;
  *) echo "fuzz/run.sh: OPTIMIZATION is -O or -Onone, not $optimization" >&2; exit 64 ;;
esac
out=.build/fuzz
mkdir -p "$out"
includes=(-I Sources/CSodium -I Sources/CSQLite -I Sources/CLibOATH -I Sources/CPlatform)
flags=(-sanitize=fuzzer,address -parse-as-library -package-name vault "$optimization")
jobs=()
[ "$optimization" = -Onone ] && jobs=(-j "$(nproc)")
# The libraries the targets use, in dependency order: each built once, instrumented, and rebuilt
# when one of its sources (or a library before it) is newer or the setting changed.
modules=(VaultCrypto VaultFormat VaultJournal VaultAgent)
libraries=()
rebuild=false
[ "$(cat "$out/optimization" 2>/dev/null)" != "$optimization" ] && rebuild=true
for module in "${modules[@]}"; do
  library="$out/lib$module.a"
  if $rebuild || [ ! -f "$library" ] \
    || [ -n "$(find "Sources/$module" -newer "$library" -name '*.swift')" ]; then
    rebuild=true
    rm -f "$out/optimization"
    # A failed build stops the run (and removes the old library, which would hide it).
    if ! swiftc "${flags[@]}" "${jobs[@]}" -module-name "$module" -emit-library -static \
      -o "$library" -emit-module -emit-module-path "$out/$module.swiftmodule" -I "$out" \
      "${includes[@]}" $(find "Sources/$module" -name '*.swift' | sort) >"$out/build.log" 2>&1; then
      grep -v 'Cannot export local symbol' "$out/build.log" >&2
      rm -f "$library"
      echo "fuzz/run.sh: $module does not build for fuzzing" >&2
      exit 1
    fi
  fi
  # A static library is linked before the ones it uses.
  libraries=("$library" "${libraries[@]}")
done
echo "$optimization" >"$out/optimization"
printf '| target | seconds | runs | coverage | crashes |\n|---|---|---|---|---|\n'
status=0
for dir in fuzz/*/; do
  target=$(basename "$dir")
  [ "$target" = corpus ] && continue
  if ! swiftc "${flags[@]}" -I "$out" "${includes[@]}" "$dir/main.swift" "${libraries[@]}" \
    -lsodium -lsqlite3 -loath -o "$out/$target" >"$out/$target-build.log" 2>&1; then
    grep -v 'Cannot export local symbol' "$out/$target-build.log" >&2
    echo "fuzz/run.sh: the $target target does not build" >&2
    exit 1
  fi
  work="$out/$target-corpus"
  crashes="$out/$target-crashes"
  rm -rf "$work" "$crashes"
  mkdir -p "$work" "$crashes"
  log="$out/$target.log"
  if "$out/$target" "$work" "fuzz/corpus/$target" -max_total_time="$seconds" -max_len=65536 \
    -artifact_prefix="$crashes/" >"$log" 2>&1; then
    found=0
  else
    found=$(ls "$crashes" | wc -l)
    status=1
  fi
  runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' || echo "?")
  cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -Eo '[0-9]+' || echo "?")
  printf '| %s | %s | %s | %s | %s |\n' "$target" "$seconds" "$runs" "$cov" "$found"
done
exit "$status"
