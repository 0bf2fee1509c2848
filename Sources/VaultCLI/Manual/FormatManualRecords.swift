import Biometry
import VaultCore

/// The sections of `vault(5)` on records: entries, seals, sessions and the device-side state.
extension FormatManual {
  static let entries = ManualSection(
    "ENTRIES",
    [
      .paragraph(
        """
        An entry is one row of `entries` and its rows in `chunks`. `entry_id` is 16 random \
        bytes, kept for the life of the entry, renames included. `kind` is 0 for a secret and \
        1 for a journal entry (see JOURNAL). A secret's row is found by its name's index, never \
        by the name, which is stored only inside `meta`:
        """),
      .example([
        #"lookup = BLAKE2b-32(subkey(2, "vaultidx"), "vault.name.v1" || name)"#,
        #"meta = seal(subkey(1, "vaultent"),"#,
        #"            "vault.entry-meta.v1" || vault_id || entry_id,"#,
        "            metadata)",
      ]),
      .paragraph(
        """
        The metadata is a JSON object with sorted keys: `name`; `created` and `updated`, ISO \
        8601 times in UTC to the second; `guarded`, true when every read needs a fresh \
        biometric match; `length`, the content length in bytes (at least 1); `chunks`, the \
        number of chunks; `revision`, base64 of 16 random bytes chosen anew at every write of \
        the content. A writer pads the JSON with spaces (0x20) to a multiple of 256 bytes, so \
        the length of `meta` does not reveal the length of the name; a reader ignores the \
        padding as JSON whitespace. After opening the metadata of the row found for a name, a \
        reader MUST check \
        that its `name` is that name: a row moved under another name's lookup opens, but belongs \
        to another entry.
        """),
      .paragraph(
        """
        The content is cut into chunks of \(EntryStore.chunkSize) bytes, the last one shorter. \
        Chunk *i* (from 0) of *n* is the row (entry_id, *i*, box) with:
        """),
      .example([
        #"box = seal(subkey(1, "vaultent"), "vault.entry-chunk.v1" || vault_id"#,
        "           || entry_id || revision || u32be(i) || u32be(n), chunk)",
      ]),
      .paragraph(
        """
        where *revision* is the metadata's `revision` text as stored (its ASCII bytes). A reader \
        MUST report an integrity failure when the number of chunk rows is not `chunks`, when \
        the indexes are not 0 to *n*-1 in order, or when the lengths do not add up to `length`. \
        So a chunk cannot move to another vault, entry, revision or place, and the content \
        cannot be truncated or extended without detection. Renaming rewrites `lookup` and \
        `meta` and leaves the chunks as they are.
        """),
      .paragraph(
        """
        A name has 1 to \(EntryName.maximumByteCount) bytes after NFC normalization, no control \
        characters, and '/'-separated segments that are neither empty, "." nor "..".
        """),
    ])

  static let journal = ManualSection(
    "JOURNAL",
    [
      .paragraph(
        """
        Each vault has an X25519 key pair (`crypto_box_keypair`), made when the vault is \
        created. The public key is `journal_public_key`; the secret key is kept as:
        """),
      .example([
        #"journal_secret_key = seal(subkey(5, "vaultjnl"),"#,
        #"    "vault.journal-key.v1" || vault_id, secret_key)"#,
      ]),
      .paragraph(
        """
        A journal entry is a row of `entries` with `kind` 1, no `lookup` (NULL) and no chunks. \
        Its `meta` is `crypto_box_seal` of the record to the journal public key (X25519 with an \
        ephemeral key, XSalsa20-Poly1305: \(SealedBox.overhead) bytes longer than the record), \
        so an entry can be added without any key:
        """),
      .example([
        #"record = "vault.journal.v1" || vault_id || entry_id"#,
        "         || u8(length of stamp) || stamp || text",
      ]),
      .paragraph(
        """
        where *stamp* is the local time and its offset as ASCII \
        `YYYY-MM-DDTHH:MM:SS+HH:MM` (or `-HH:MM`) and *text* is 1 byte to \
        \(JournalStore.maximumByteCount >> 20) MiB exactly as written. The box authenticates \
        the record but not where it is stored, so a reader MUST refuse a record whose vault id \
        or entry id is not the vault's and the row's. Editing an entry seals a new record with \
        the same entry id and stamp.
        """),
    ])

  static var biometry: ManualSection {
    let codes = BiometryType.allCases.filter { $0 != .none }
      .map { "\($0.rawValue) \($0.code)" }.joined(separator: ", ")
    return ManualSection(
      "BIOMETRIC SEAL",
      [
        .paragraph(
          """
          The header's `biometry` object has `state`, "active" or "disabled"; `changed_at`, when \
          the state last changed (ISO 8601, UTC); `reason`, why it was disabled; and, while \
          active, `seal`. These are in the clear, so that the status can be shown without the \
          key, and authenticated by the header MAC. An active record MUST have a seal:
          """),
        .example([
          #"seal = seal(subkey(4, "vaultbio"), "vault.biometry.v1" || vault_id,"#,
          "            record)",
        ]),
        .paragraph(
          """
          The record is a JSON object with sorted keys: `domain_state`, base64 of the 32-byte \
          domain state read from the match that activated biometric unlock; `type`, the sensor \
          type then ("touch-id", "face-id" or "optic-id"); `activated_at`.
          """),
        .paragraph(
          """
          Under the policy "\(Policy.pinAndBiometry.rawValue)", the keys are released only when the PIN \
          opens the pin keyslot, the header MAC verifies, the record is active and a fresh \
          match's domain state equals the sealed one, compared in constant time. A different \
          value or type, or an emptied enrollment, MUST set the state to "disabled" with its \
          reason and time, and revoke every session; nothing but a new activation, with the \
          PIN and a match, makes it active again. Without a record the vault cannot be unlocked \
          until one is made. Turning biometric unlock off sets the policy to \
          "\(Policy.pinOnly.rawValue)" and removes the record.
          """),
        .paragraph(
          """
          The simulated sensor of biosim(1) computes the domain state as below, where the type \
          codes are \(codes) and the application id is "\(DomainState.vaultAppID)"; the generation \
          grows at every enrollment change and the epoch at every simulated OS upgrade:
          """),
        .example([
          #"BLAKE2b-32(device_secret, "biosim.domain.v1" || u8(type code)"#,
          "    || u64le(enrollment_generation) || u32le(os_epoch) || app_id)",
        ]),
      ])
  }

  static let associatedData = ManualSection(
    "ASSOCIATED DATA",
    [
      .paragraph(
        """
        Every box binds, through its associated data, a label naming its use and version, and \
        the vault id; so no box opens in another vault or in another role:
        """),
      .item("keyslot", [#""vault.keyslot.v1" || vault_id || type"#]),
      .item("journal secret key", [#""vault.journal-key.v1" || vault_id"#]),
      .item(
        "journal entry",
        [
          """
          None: `crypto_box_seal` takes no associated data, so the sealed record itself starts \
          with "vault.journal.v1" || vault_id || entry_id.
          """
        ]),
      .item("entry metadata", [#""vault.entry-meta.v1" || vault_id || entry_id"#]),
      .item(
        "content chunk",
        [#""vault.entry-chunk.v1" || vault_id || entry_id || revision || u32be(i) || u32be(n)"#]),
      .item("biometric seal", [#""vault.biometry.v1" || vault_id"#]),
      .item("session", [#""vault.session.v1" || vault_id || session_id"#]),
    ])

  static let sessions = ManualSection(
    "SESSIONS",
    [
      .paragraph(
        """
        A session token is 32 random bytes, given to the user as 64 hex digits. From it:
        """),
      .example([
        #"session_id = hex(BLAKE2b-16(token, "vault.session-id.v1"))"#,
        #"token_key  = BLAKE2b-32(token, "vault.session-key.v1" || vault_id)"#,
        "wrapped    = seal(token_key,",
        #"                  "vault.session.v1" || vault_id || session_id,"#,
        "                  master_key)",
      ]),
      .paragraph(
        """
        The session file is *dir*`/`*hex(vault_id)*`/`*session_id*, where *dir* is \
        `$XDG_RUNTIME_DIR/vault`, or `$XDG_STATE_HOME/vault/sessions` without it; folders are \
        0700 and files 0600. It holds a JSON object with sorted keys: `vault_id` (hex), \
        `boot_id`, `created`, `last_used`, `idle`, `hard` and `wrapped` (base64). Times are \
        seconds on the boot clock (`CLOCK_BOOTTIME`), so setting the wall clock never extends a \
        session.
        """),
      .paragraph(
        """
        A session is valid while `boot_id` is the kernel's current \
        `/proc/sys/kernel/random/boot_id`, the clock is not before `last_used`, no more than \
        `idle` seconds have passed since `last_used` and no more than `hard` since `created`. \
        `idle` is \(Int(SessionStore.defaultIdle)) unless the user chose another value, at most \
        `hard`, which is \(Int(SessionStore.hardLimit)). A use sets `last_used`. An expired file \
        is removed; revoking the sessions of a vault removes its folder.
        """),
    ])

  static let deviceState = ManualSection(
    "DEVICE STATE",
    [
      .paragraph(
        """
        `$XDG_STATE_HOME/vault/device.json` (mode 0600) is shared by every vault of the user \
        and by biosim(1). It is a JSON object with `schema` (1), `device_secret` (base64 of 32 \
        random bytes, made when the file is first needed), `pin_attempts` and \
        `last_guarded_read` keyed by the hex vault id, and `sensor`, the simulated sensor. It is \
        changed under an exclusive lock on `device.lock` and replaced atomically.
        """)
    ])

  static var limiting: ManualSection {
    let delays = PINLimiter.delays.map { String(Int($0)) }.joined(separator: ", ")
    return ManualSection(
      "PIN ATTEMPT LIMITING",
      [
        .paragraph(
          """
          `pin_attempts` holds, per vault, `failures`, `last_wrong_tag`, `last_attempt_at` and \
          `previous_attempt_at` (wall-clock seconds). Let *delay(f)* be 0 for *f* below \
          \(PINLimiter.freeAttempts), and otherwise item *f* - \(PINLimiter.freeAttempts), \
          counting from 0, of \(delays) seconds, the last item for any larger *f*. A PIN check \
          goes:
          """),
        .item(
          "1.",
          [
            """
            Before the key derivation, under the lock: refuse while the later of the current \
            time and `last_attempt_at` is before `last_attempt_at` + *delay*(`failures`), so \
            setting the clock back never shortens a delay; otherwise add 1 to `failures`, move \
            `last_attempt_at` to `previous_attempt_at` and set `last_attempt_at` to the current \
            time. A check killed halfway still counts.
            """
          ]),
        .item("2.", ["When the keyslot opens, remove the vault's record."]),
        .item(
          "3.",
          [
            """
            When it does not, compute BLAKE2b-32(*kek*, "vault.pin-repeat.v1"). If it equals \
            `last_wrong_tag` (base64), the same wrong PIN was tried again: take the 1 back and \
            restore `last_attempt_at` from `previous_attempt_at`. Otherwise store it in \
            `last_wrong_tag`.
            """
          ]),
      ])
  }

  static let recoveryCode = ManualSection(
    "RECOVERY CODE",
    [
      .paragraph(
        """
        The recovery code is \(RecoveryCode.symbolCount) symbols drawn with \
        `randombytes_uniform` from Crockford's base32 alphabet, \
        "\(String(decoding: RecoveryCode.alphabet, as: UTF8.self))" (160 bits), shown once in \
        groups of 4 joined by '-'. Typed back, '-' and spaces are dropped, lower case is raised, \
        O reads as 0 and I and L as 1; anything else, or another number of symbols, is refused. \
        The canonical form, the \(RecoveryCode.symbolCount) ASCII symbols, is the Argon2id \
        secret of the recovery slot.
        """)
    ])

  static let considerations = ManualSection(
    "SECURITY CONSIDERATIONS",
    [
      .paragraph(
        """
        The attempt counter and the device secret are in a file the user can write. Restoring an \
        old copy of it resets the counter, and whoever holds both the vault and the device \
        state can guess PINs offline at the cost of one Argon2id evaluation each. The biometric \
        seal is a faithful model of the platform's behaviour on a simulated sensor, not a \
        security boundary; see vault(1).
        """),
      .paragraph(
        """
        The header is in the clear and authenticated only once the key is known: its KDF \
        parameters are bounded so that parsing it is safe, and nothing in it can turn the \
        biometric requirement off without breaking the MAC.
        """),
    ])

  static let seeAlso = ManualSection(
    "SEE ALSO",
    [
      .paragraph(
        """
        vault(1), biosim(1). RFC 2119; RFC 4648 (base64); RFC 7693 (BLAKE2); RFC 8439 \
        (ChaCha20 and Poly1305) and draft-irtf-cfrg-xchacha (XChaCha20); RFC 9106 (Argon2).
        """)
    ])
}
