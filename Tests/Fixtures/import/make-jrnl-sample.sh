#!/usr/bin/env bash
# Makes jrnl-export.json, the jrnl sample of vault import's tests, with the real jrnl from PyPI:
# a journal of four entries (tags, a star, a multi-line body, non-ASCII text) exported with
# `jrnl --export json`. Usage: Tests/Fixtures/import/make-jrnl-sample.sh  (needs python3 -m venv)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet jrnl==4.6
export HOME=$work TZ=UTC
config=$work/jrnl.yaml
cat > "$config" <<YAML
colors: {body: none, date: none, tags: none, title: none}
default_hour: 9
default_minute: 0
editor: ''
encrypt: false
highlight: true
indent_character: '|'
journals:
  default: {journal: $work/journal.txt}
linewrap: 79
tagsymbols: '#@'
template: false
timeformat: '%F %r'
version: v4.6
YAML
jrnl() { "$work/venv/bin/jrnl" --config-file "$config" "$@" >/dev/null 2>&1; }
jrnl "2024-03-01 08:15: Started the @garden. Planted tomatoes and basil."
jrnl "2024-03-02 21:40: Dinner with @anna and @ben. We talked about the trip to Lisbon; it's booked for May."
printf '2024-03-03 18:30: Long day at work.\nThe build broke twice, fixed by evening.\nNote to self: @work backups before Friday. Café tomorrow — naïve résumé 😀\n' | jrnl
jrnl "2024-03-04 07:05: *Starred entry about the @garden."
"$work/venv/bin/jrnl" --config-file "$config" --export json > "$here/jrnl-export.json" 2>/dev/null
echo "wrote $here/jrnl-export.json"
