#!/usr/bin/env bash
# Builds the libFuzzer targets (swiftc -sanitize=fuzzer,address) over VaultCore and runs each for
# SECONDS seconds from its committed corpus in fuzz/corpus/TARGET; prints a table and exits 1 on
# the first crash (its input is left in .build/fuzz/TARGET-crashes).
# Usage: fuzz/run.sh [SECONDS]   (run from the repository root; default 10)
set -euo pipefail
seconds=${1:-10}
out=.build/fuzz
mkdir -p "$out"
includes=(-I Sources/CSodium -I Sources/CSQLite -I Sources/CLibOATH -I Sources/CPlatform)
flags=(-sanitize=fuzzer,address -parse-as-library -O)
# The library once, instrumented; rebuilt when a VaultCore source is newer.
if [ ! -f "$out/libVaultCore.a" ] || [ -n "$(find Sources/VaultCore -newer "$out/libVaultCore.a" -name '*.swift')" ]; then
  # A failed build stops the run (and removes the old library, which would hide it).
  if ! swiftc "${flags[@]}" -module-name VaultCore -emit-library -static -o "$out/libVaultCore.a" \
    -emit-module -emit-module-path "$out/VaultCore.swiftmodule" "${includes[@]}" \
    Sources/VaultCore/*.swift >"$out/build.log" 2>&1; then
    grep -v 'Cannot export local symbol' "$out/build.log" >&2
    rm -f "$out/libVaultCore.a"
    echo "fuzz/run.sh: VaultCore does not build for fuzzing" >&2
    exit 1
  fi
fi
printf '| target | seconds | runs | coverage | crashes |\n|---|---|---|---|---|\n'
status=0
for dir in fuzz/*/; do
  target=$(basename "$dir")
  [ "$target" = corpus ] && continue
  if ! swiftc "${flags[@]}" -I "$out" "${includes[@]}" "$dir/main.swift" "$out/libVaultCore.a" \
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
