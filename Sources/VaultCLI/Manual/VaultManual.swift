import VaultCore

/// The hand-written parts of `vault(1)`: everything the command table does not say.
enum VaultManual {
  static var text: ProgramManual {
    ProgramManual(
      summary: "encrypted secrets and journal entries behind a PIN and biometrics",
      description: description, beforeExitStatus: [json, environment, files],
      exitStatus: ExitStatus.table, afterExitStatus: [security, examples, seeAlso])
  }

  static let delays = PINLimiter.delays.map { ExitStatus.duration(Int($0)) }

  static let description: [ManualBlock] = [
    .paragraph(
      """
      Entries are named like paths, such as `mail/work` or `journal/2026-11-29`. A name is UTF-8, \
      normalized to NFC, at most \(EntryName.maximumByteCount) bytes long, without control \
      characters and without empty, `.` or `..` segments. The content is any bytes: `vault get` \
      writes back exactly what `vault add` read.
      """),
    .paragraph(
      """
      A command that needs the key uses the session named by VAULT_SESSION while it is valid. \
      Otherwise it asks for the PIN, and the biometric match the vault's policy requires, on the \
      terminal, or reads the PIN from the descriptor given with `--pin-fd`. It never reads a PIN \
      from standard input: with no terminal, no valid session and no `--pin-fd` it exits 10.
      """),
    .paragraph(
      """
      Global options may come anywhere; a command's own options come after the command, \
      before or after its arguments. `--opt=value` and \
      `--opt value` are the same; a repeated option takes its last value; `--` ends the options, \
      so `vault get -- -name` reads an entry whose name starts with a dash.
      """),
  ]

  static let json = ManualSection(
    "JSON OUTPUT",
    [
      .paragraph(
        """
        With `--json`, `list`, `journal list`, `status` and `biometry status` print one line \
        of JSON, keys in the order shown. Shown here spread over several lines. Times are ISO \
        8601 to the second, in UTC except where said otherwise.
        """),
      .item(
        "`vault list --json`",
        [
          """
          An array with one object per entry, sorted by name: `name`, `created` and `updated` \
          (times), `guarded` (true when every read needs a fresh biometric match).
          """
        ]),
      .example([
        #"[{"name":"mail/work","created":"2026-11-29T15:55:11Z","#,
        #"  "updated":"2026-11-29T15:55:11Z","guarded":false}]"#,
      ]),
      .item(
        "`vault journal list --json`",
        [
          """
          An array with one object per entry, oldest first: `id` (the short ID shown to users), \
          `entry_id` (all 32 hex digits), `written` (the local time with its UTC offset) and \
          `first_line` (the first line of the text, at most 60 characters).
          """
        ]),
      .example([
        #"[{"id":"3f9a2c1e","entry_id":"3f9a2c1e5b7d90a4c6e8f1023b4d5e6f","#,
        #"  "written":"2026-11-29T07:12:03+01:00","#,
        #"  "first_line":"Walked to the river"}]"#,
      ]),
      .item(
        "`vault biometry status --json`",
        [
          """
          `policy` is `pin+biometry` or `pin`. `state` is `active`, `disabled` (after an \
          enrollment change, until `vault biometry activate`), `not-activated` or `off` (a \
          PIN-only vault). `since` is when the state last changed and `reason` why biometric \
          unlock was disabled; either may be null. `sensor` describes the simulated sensor: \
          `type` (`none`, `touch-id`, `face-id` or `optic-id`), `simulated` (always true), \
          `availability`, `enrolled` (the number of templates), `locked_out` and \
          `consecutive_failures`.
          """
        ]),
      .example([
        #"{"policy":"pin+biometry","state":"active","#,
        #" "since":"2026-11-29T15:55:11Z","reason":null,"#,
        #" "sensor":{"type":"touch-id","simulated":true,"#,
        #"  "availability":"available","enrolled":1,"#,
        #"  "locked_out":false,"consecutive_failures":0}}"#,
      ]),
      .item(
        "`vault status --json`",
        [
          """
          `path` is the vault file; `format` its format version; `bound_to_this_device` false \
          when the PIN belongs to another device's secret (run `vault recover`); `policy` as \
          above; `kdf` the \
          Argon2id `profile`, `opslimit` (passes) and `memlimit` (bytes); `biometry` the object \
          `vault biometry status --json` prints; `pin` the `consecutive_failures` and the \
          `delay_seconds` before the next PIN is accepted; `session` the seconds left before the \
          session in VAULT_SESSION ends when idle (`idle_seconds`) and at the latest \
          (`hard_seconds`), or null when there is no valid session. It never unlocks the vault \
          and never renews the session.
          """
        ]),
      .example([
        #"{"path":"/home/ada/.local/share/vault/vault.db","format":1,"#,
        #" "policy":"pin+biometry","#,
        #" "kdf":{"profile":"moderate","opslimit":3,"memlimit":268435456},"#,
        #" "biometry":{"policy":"pin+biometry","state":"active",...},"#,
        #" "pin":{"consecutive_failures":0,"delay_seconds":0},"#,
        #" "session":{"idle_seconds":840,"hard_seconds":28740}}"#,
      ]),
    ])

  static let environment = ManualSection(
    "ENVIRONMENT",
    [
      .item(
        "VAULT_PATH",
        ["The vault file when `--vault` is not given. Default: `$XDG_DATA_HOME/vault/vault.db`."]),
      .item(
        "VAULT_SESSION",
        [
          """
          The session token printed by `vault unlock`: 64 hexadecimal digits. Commands use it \
          while it is valid and renew its idle timer; an invalid or expired token is ignored and \
          the PIN is asked for as usual.
          """
        ]),
      .item(
        "XDG_DATA_HOME",
        ["Folder of the default vault, `vault/vault.db` under it. Default: `~/.local/share`."]),
      .item(
        "XDG_STATE_HOME",
        [
          """
          Folder of the device-side state, `vault/device.json` under it, shared with biosim(1). \
          Default: `~/.local/state`.
          """
        ]),
      .item(
        "XDG_RUNTIME_DIR",
        [
          """
          Sessions are kept in `$XDG_RUNTIME_DIR/vault`; without it, in \
          `$XDG_STATE_HOME/vault/sessions`.
          """
        ]),
      .item("HOME", ["The base of the defaults above. Relative XDG values are ignored."]),
      .item(
        "VISUAL, EDITOR",
        [
          """
          The editor of `vault edit` and `vault journal`: VISUAL, else EDITOR, else `vi`. It runs \
          without VAULT_SESSION, with TMPDIR set to the private folder holding the plaintext.
          """
        ]),
      .item(
        "TMPDIR",
        [
          """
          Where `--allow-disk-temp` puts the plaintext being edited when there is no RAM-backed \
          folder. Default: `/tmp`.
          """
        ]),
      .item("TZ", ["The time zone of journal stamps and of the days that DATE forms name."]),
      .item(
        "WAYLAND_DISPLAY, DISPLAY",
        [
          """
          Choose the clipboard tool of `--clip`: `wl-copy` under Wayland, else `xclip` or `xsel` \
          under X11.
          """
        ]),
      .item(
        "VAULT_TEST_WALLCLOCK, VAULT_TEST_BOOTCLOCK, VAULT_TEST_BOOT_ID",
        ["Read by debug builds only, so tests can move time; release builds ignore them."]),
    ])

  static let files = ManualSection(
    "FILES",
    [
      .item(
        "`~/.local/share/vault/vault.db`",
        ["The vault: an SQLite database, mode 0600. Its format is described in vault(5)."]),
      .item(
        "`~/.local/state/vault/device.json`",
        [
          """
          The device-side state, mode 0600, shared by every vault of the user and by biosim(1): \
          the device secret, the PIN attempt counters and the simulated sensor. \
          `device.lock` beside it serializes updates.
          """
        ]),
      .item(
        "`$XDG_RUNTIME_DIR/vault/`*vault-id*`/`*session-id*",
        ["One file per session (mode 0600, folders 0700); `vault lock` removes the folder."]),
    ])

  static let security = ManualSection(
    "SECURITY",
    [
      .paragraph(
        """
        The biometric sensor is simulated by biosim(1), and its state is a file the user can \
        write: anyone running as you can enroll a template, queue a match or edit the file. The \
        biometric check is a faithful model of Touch ID, Face ID and Optic ID behaviour \
        (an enrollment change disables biometric unlock, five failed matches lock the sensor), \
        not a security boundary.
        """),
      .paragraph(
        """
        The cryptographic protection is the PIN. The key that unwraps the master key is derived \
        from the PIN with Argon2id and then keyed with the device secret, 32 random bytes kept in \
        the device-side state and never in the vault file, so a copied vault file cannot be \
        attacked offline. Wrong PINs are counted in the device-side state before the key \
        derivation runs. After the \(PINLimiter.freeAttempts)th wrong PIN in a row the next \
        attempt waits \(delays.first ?? ""), and after the following ones \
        \(delays.dropFirst().dropLast().joined(separator: ", ")), then \(delays.last ?? "") \
        each.
        """),
      .paragraph(
        """
        Without a hardware secure element that counter is only a file: restoring an old copy \
        of the device-side state resets it, and someone who has both the vault and the device \
        state can guess PINs at the speed of Argon2id. Choose a long PIN, or a passphrase, and \
        the `sensitive` profile when that matters. `--kdf test` exists for test suites only: it \
        offers no resistance at all, and `vault status` says so.
        """),
      .paragraph(
        """
        A session token in VAULT_SESSION is inherited by every process the shell starts, and \
        any process running as you can read it while it is valid. The session file holds the \
        master key wrapped under a key derived from the token. A session ends after its idle \
        timeout (\(ExitStatus.duration(Int(SessionStore.defaultIdle))) unless `--timeout` says \
        otherwise), after \(ExitStatus.duration(Int(SessionStore.hardLimit))), at reboot, with \
        `vault lock`, when the PIN is changed, and when a biometric check finds the enrollment \
        changed. Lock when you leave.
        """),
      .paragraph(
        """
        The recovery code, shown once by `vault init`, is \(RecoveryCode.symbolCount) symbols \
        of Crockford's base32 (160 bits). It opens the vault on any machine, without the device \
        secret and without attempt limiting: its length is its protection. It sets a new PIN \
        and can turn biometric unlock off. Keep it offline.
        """),
      .paragraph(
        """
        `vault journal` writes without unlocking, so it trusts the journal public key in the \
        header before the header can be authenticated. Each authenticated unlock records that \
        key in the device-side state, and a journal entry is refused (exit 17) when the file's \
        key differs from the recorded one; on a device where the vault was never unlocked, the \
        first key seen is trusted.
        """),
      .paragraph(
        """
        Keys, PINs and contents are held in locked memory that is wiped when released, and core \
        dumps are disabled.
        """),
    ])

  static let examples = ManualSection(
    "EXAMPLES",
    [
      .paragraph("Create a vault with biometric unlock on the simulated sensor:"),
      .example(["$ biosim enroll --label right-index", "$ vault init"]),
      .paragraph("Start a session in bash or zsh, or in fish, then end it:"),
      .example([
        #"$ eval "$(vault unlock)""#, "$ vault unlock --shell fish | source", "$ vault lock",
      ]),
      .paragraph("Store a secret from a pipe and read it back in a pipeline:"),
      .example([
        "$ printf '%s' 'correct horse' | vault add mail/work", "$ vault get mail/work | wc -c",
      ]),
      .paragraph("Write a journal entry on the terminal that needs a fresh match at every read:"),
      .example(["$ vault add --multiline --guard journal/2026-11-29"]),
      .paragraph("Read an entry whose name starts with a dash, and list entries as JSON:"),
      .example(["$ vault get -- -dash", "$ vault list --json notes/"]),
      .paragraph("Load tab completion for the current shell:"),
      .example([
        "$ source <(vault completions bash)", "$ source <(vault completions zsh)",
        "$ vault completions fish | source",
      ]),
    ])

  static let seeAlso = ManualSection(
    "SEE ALSO", roff: ".BR biosim (1),\n.BR vault (5),\n.BR sqlite3 (1)\n")
}
