#!/usr/bin/env bash
# Makes the import samples the VaultTransfer and VaultCLI tests read, with the real tools:
#   gnupg/               a throwaway GnuPG home holding one TEST KEY WITHOUT A PASSPHRASE
#                        (vault test key <test@vault.invalid>): it protects nothing, it is here
#                        only so the tests can decrypt the stores below with gpg
#   pass/                a password store made by pass(1), encrypted to that key
#   gopass/              a store made by Debian's gopass (aviau/gopass, a pass implementation in
#                        Go; Debian does not package gopass.pw), its .git folder removed (git
#                        cannot hold a repository inside one; skipping .git is tested on its own)
#   keepass/export.csv   keepassxc-cli export --format csv
#   keepass/export.xml   keepassxc-cli export --format xml (KeePass 2 XML)
# 1password/export.csv and csv/*.csv are written by hand from the formats' documentation and are
# not made here. Keys, ciphertexts, UUIDs and times differ on every run; the tests check only
# what the tools were given, so they pass on any run's output.
#
# Needs: apt-get install -y gnupg pass gopass keepassxc git python3
# Run from anywhere: bash Tests/VaultTransferTests/Samples/make-samples.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
export GNUPGHOME="$work/gnupg"
cleanup() {
  gpgconf --kill gpg-agent 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
export HOME="$work/home" LC_ALL=C.UTF-8
mkdir -p "$HOME"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' \
  --quick-gen-key 'vault test key <test@vault.invalid>' future-default default never

# put NAME: the bytes on standard input become the entry NAME's whole content.
pass_put() { pass insert --multiline "$1" >/dev/null; }

export PASSWORD_STORE_DIR="$work/pass"
pass init test@vault.invalid >/dev/null
printf 'hunter2\nusername: ada\nurl: https://mail.example.org\n' | pass_put mail/work
printf 's3cret\nlogin: ada@example.org\nurl: https://example.org/login\notp: otpauth://totp/Example:ada?secret=JBSWY3DPEHPK3PXP&issuer=Example\n' |
  pass_put web/example.org
printf 'correct horse\nsecond line\n\nfourth line after a blank\n' | pass_put 'notes/multi line'
printf 'p\xc3\xa4ssw\xc3\xb6rd\n' | pass_put $'unicode/caf\xc3\xa9 \xe2\x98\x95'
printf '\xff\xfe\x00\x01binary\x80' | pass_put bin/blob
printf '\nusername: nobody\n' | pass_put empty-password
printf 'pw\r\nuser: win\r\n' | pass_put crlf/windows
printf 'deep\n' | pass_put a/b/c/deep
# What a store holds besides entries, all skipped by the reader.
printf 'not an entry\n' >"$PASSWORD_STORE_DIR/README"
mkdir "$PASSWORD_STORE_DIR/.extensions"
printf '#!/bin/sh\n' >"$PASSWORD_STORE_DIR/.extensions/hello.bash"
printf 'test@vault.invalid\n' >"$PASSWORD_STORE_DIR/mail/.gpg-id"

# gopass -m takes the content from an editor: this one copies $CONTENT into the file.
export PASSWORD_STORE_DIR="$work/gopass" GIT_AUTHOR_NAME=vault GIT_AUTHOR_EMAIL=test@vault.invalid
export GIT_COMMITTER_NAME=vault GIT_COMMITTER_EMAIL=test@vault.invalid
printf '#!/bin/sh\ncat "$CONTENT" >"$1"\n' >"$work/editor"
chmod +x "$work/editor"
export EDITOR="$work/editor"
gopass init test@vault.invalid >/dev/null 2>&1
gopass_put() {
  printf "$2" >"$work/content"
  # This gopass does not make the entry's folder itself.
  mkdir -p "$PASSWORD_STORE_DIR/$(dirname "$1")"
  CONTENT="$work/content" gopass insert --multiline "$1" </dev/null >/dev/null
}
gopass_put servers/db 'Tr0ub4dor&3\nuser: postgres\nhost: db.example.org:5432\n'
gopass_put $'team x/r\xc3\xa9sum\xc3\xa9' 'one\ntwo\nthree\n'
gopass_put bin/key '\x00\x9f\x92\x96raw'
gopass_put single 'only-a-password'
rm -rf "$PASSWORD_STORE_DIR/.git"

# KeePassXC: a database made with keepassxc-cli (a key file, no password). keepassxc-cli 2.7
# cannot add custom attributes, tags or a protected custom value, so its XML export gets them
# and is imported back with keepassxc-cli import; both exports come from that database.
kp="$work/kp"
mkdir "$kp"
cli() { keepassxc-cli "$@"; }
key=(-q -k "$kp/key" --no-password)
cli db-create -q -t 100 --set-key-file "$kp/key" "$kp/a.kdbx"
cli mkdir "${key[@]}" "$kp/a.kdbx" Email
cli mkdir "${key[@]}" "$kp/a.kdbx" Email/Work
cli mkdir "${key[@]}" "$kp/a.kdbx" Bank
cli mkdir "${key[@]}" "$kp/a.kdbx" $'\xc3\x9cn\xc3\xafcode'
printf 'top-secret\n' | cli add "${key[@]}" -p "$kp/a.kdbx" 'Top level'
printf 'p4ss"word\n' | cli add "${key[@]}" -p -u ada --url https://mail.example.org \
  --notes $'line one\nline "two", with a comma' "$kp/a.kdbx" 'Email/Work/Mail, main'
printf '\n' | cli add "${key[@]}" -p -u bob --url https://personal.example.org \
  "$kp/a.kdbx" 'Email/Personal'
printf 'first\n' | cli add "${key[@]}" -p "$kp/a.kdbx" 'Email/Same title'
printf 'second\n' | cli add "${key[@]}" -p -u other "$kp/a.kdbx" 'Email/Same title 2'
cli edit "${key[@]}" -t 'Same title' "$kp/a.kdbx" 'Email/Same title 2'
printf 'old-pin-entry\n' | cli add "${key[@]}" -p -u carol "$kp/a.kdbx" 'Bank/Card'
# A second password makes a history entry of the first.
printf '1234-new\n' | cli edit "${key[@]}" -p "$kp/a.kdbx" 'Bank/Card'
printf 'caf\xc3\xa9\n' | cli add "${key[@]}" -p "$kp/a.kdbx" $'\xc3\x9cn\xc3\xafcode/Caf\xc3\xa9 \xe2\x98\x95'
printf 'gone\n' | cli add "${key[@]}" -p -u dave "$kp/a.kdbx" 'Deleted'
cli rm "${key[@]}" "$kp/a.kdbx" 'Deleted'
cli export "${key[@]}" --format xml "$kp/a.kdbx" >"$kp/a.xml"
python3 - "$kp/a.xml" "$kp/b.xml" <<'EOF'
import sys
import xml.etree.ElementTree as ET

tree = ET.parse(sys.argv[1])
for entry in tree.getroot().iter("Entry"):
    title = next(s.findtext("Value") for s in entry.findall("String") if s.findtext("Key") == "Title")
    if title != "Card" or entry.find("History") is None:
        continue
    history = entry.find("History")
    position = list(entry).index(history)
    for index, (key, value, protect) in enumerate([
        ("PIN", "4321", True),
        ("account number", "DE00 1234", False),
        ("otp", "otpauth://totp/Bank:carol?secret=JBSWY3DPEHPK3PXP", False),
        ("multi", "line 1\nline 2", False),
    ]):
        string = ET.Element("String")
        ET.SubElement(string, "Key").text = key
        element = ET.SubElement(string, "Value")
        element.text = value
        if protect:
            element.set("ProtectInMemory", "True")
        entry.insert(position + index, string)
    entry.find("Tags").text = "finance;cards"
tree.write(sys.argv[2], encoding="UTF-8", xml_declaration=True)
EOF
cli import -q --set-key-file "$kp/key" -t 100 "$kp/b.xml" "$kp/b.kdbx"
mkdir -p "$here/keepass"
cli export "${key[@]}" --format csv "$kp/b.kdbx" >"$here/keepass/export.csv"
cli export "${key[@]}" --format xml "$kp/b.kdbx" >"$here/keepass/export.xml"

gpgconf --kill gpg-agent
rm -rf "$here/gnupg" "$here/pass" "$here/gopass"
mkdir -p "$here/gnupg"
cp -R "$GNUPGHOME/pubring.kbx" "$GNUPGHOME/trustdb.gpg" "$GNUPGHOME/private-keys-v1.d" \
  "$here/gnupg/"
cp -R "$work/pass" "$here/pass"
cp -R "$work/gopass" "$here/gopass"
echo "samples written under $here"
