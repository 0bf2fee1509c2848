import Biometry
import VaultCore

/// `vault(5)`: the vault file format and its cryptography, as a normative specification.
///
/// Constants (profiles, bounds, subkeys, sizes, delays) are read from the code so the page cannot
/// drift from it; the domain-separation strings are written out and must match the sources.
public enum FormatManual {
  /// The page (`man/vault.5`).
  public static func page() -> String {
    ManualPage(
      name: "vault", section: 5, source: "vault \(VaultCommands.program.version)",
      sections: [
        ManualSection(
          "NAME", roff: "vault \\- format of the vault file and its cryptography\n"),
        description, primitives, container, header, kdf, keyslots, subkeys, entries,
        journal, biometry, associatedData, sessions, deviceState, limiting, recoveryCode,
        considerations, seeAlso,
      ]
    ).roff
  }

  static let description = ManualSection(
    "DESCRIPTION",
    [
      .paragraph(
        """
        This page specifies format \(Header.currentFormat) of the file in which vault(1) keeps \
        secrets, and the records outside it that unlocking depends on: the device-side state and \
        the session files. The key words MUST, MUST NOT and SHOULD are to be read as in RFC 2119.
        """),
      .paragraph(
        """
        A reader MUST refuse what this page does not allow rather than guess, and MUST keep the \
        failure classes apart: a file that does not parse is a malformed header or an \
        unsupported version, a box or MAC that does not verify once the key is known is an \
        integrity failure, and only a keyslot that does not open is a wrong PIN or recovery code.
        """),
      .paragraph(
        """
        Notation: `||` is concatenation; a string in double quotes stands for its ASCII bytes, \
        without a terminator; `u32be(n)` is n as 4 bytes, big-endian; base64 is the standard \
        alphabet of RFC 4648 with padding; hex is lower case; *name* is the UTF-8 bytes of an \
        entry name after NFC normalization.
        """),
    ])

  static let primitives = ManualSection(
    "PRIMITIVES",
    [
      .item(
        "seal(*key*, *ad*, *plaintext*)",
        [
          """
          XChaCha20-Poly1305, IETF construction (`crypto_aead_xchacha20poly1305_ietf_encrypt`): \
          a 32-byte key, a fresh random 24-byte nonce for every sealing, associated data *ad*. \
          The result, called a box, is nonce || ciphertext || tag, with a 16-byte tag: 40 bytes \
          longer than the plaintext.
          """
        ]),
      .item(
        "BLAKE2b-*n*(*key*, *message*)",
        ["Keyed BLAKE2b (`crypto_generichash`, RFC 7693) with an *n*-byte output."]),
      .item(
        "Argon2id(*secret*, *salt*, *kdf*)",
        [
          """
          `crypto_pwhash` with `crypto_pwhash_ALG_ARGON2ID13` (Argon2id version 1.3, RFC 9106): \
          a \(Salt.byteCount)-byte salt, the header's opslimit and memlimit, a \
          \(SymmetricKey.byteCount)-byte output.
          """
        ]),
      .item(
        "subkey(*id*, *context*)",
        [
          """
          `crypto_kdf_derive_from_key` of 32 bytes from the master key: BLAKE2b keyed with the \
          master key, with the subkey id as salt and the 8-byte context as personalization.
          """
        ]),
    ])

  static let container = ManualSection(
    "CONTAINER",
    [
      .paragraph(
        """
        A vault is an SQLite 3 database. `PRAGMA application_id` MUST be \
        \(Vault.applicationID) (0x\(String(Vault.applicationID, radix: 16, uppercase: true)), \
        ASCII "VAUL"); a reader MUST refuse any other value as not a vault. \
        `PRAGMA user_version` is the schema version, \(Vault.schemaVersion); a reader MUST \
        refuse any other value as an unsupported version. The schema is:
        """),
      .example([
        "CREATE TABLE header (",
        "  id INTEGER PRIMARY KEY CHECK (id = 1),",
        "  body BLOB NOT NULL,",
        "  mac BLOB NOT NULL",
        ");",
        "CREATE TABLE entries (",
        "  entry_id BLOB PRIMARY KEY,",
        "  lookup BLOB UNIQUE,",
        "  kind INTEGER NOT NULL,",
        "  meta BLOB NOT NULL",
        ");",
        "CREATE TABLE chunks (",
        "  entry_id BLOB NOT NULL",
        "    REFERENCES entries (entry_id) ON DELETE CASCADE,",
        "  idx INTEGER NOT NULL,",
        "  box BLOB NOT NULL,",
        "  PRIMARY KEY (entry_id, idx)",
        ");",
      ]),
      .paragraph(
        """
        A writer creates the file under a temporary name, with mode 0600, and links it into \
        place only when complete, so it never replaces an existing vault. Writers SHOULD set \
        `PRAGMA secure_delete` and `PRAGMA synchronous = FULL`, and change the header and \
        records in transactions.
        """),
    ])

  static let header = ManualSection(
    "HEADER",
    [
      .paragraph(
        """
        The header row (id 1) holds `body`, a JSON object of at most 64 KiB with snake_case keys \
        written in sorted order, and `mac`:
        """),
      .example([#"mac = BLAKE2b-32(subkey(3, "vaulthdr"), "vault.header.v1" || body)"#]),
      .paragraph(
        """
        The MAC covers the stored bytes exactly, so a reader MUST NOT re-serialize the body \
        before checking it. The header is parsed before any key is known; the MAC is checked, in \
        constant time, as soon as a keyslot has yielded the master key. The fields are:
        """),
      .item(
        "`format`",
        ["The integer \(Header.currentFormat). Another value is an unsupported version."]),
      .item(
        "`vault_id`",
        ["Base64 of 16 random bytes, bound into every box, MAC and key derivation below."]),
      .item("`kdf`", ["The Argon2id parameters; see KDF PARAMETERS."]),
      .item(
        "`policy`",
        [
          """
          "\(Policy.pinAndBiometry.rawValue)": the keys are released after the PIN and a biometric \
          match; "\(Policy.pinOnly.rawValue)": after the PIN alone.
          """
        ]),
      .item(
        "`keyslots`",
        ["An array of exactly two keyslots, one of type \"pin\" and one of type \"recovery\"."]),
      .item("`journal_public_key`", ["Base64 of a 32-byte X25519 public key; see JOURNAL KEY."]),
      .item(
        "`journal_secret_key`",
        ["Base64 of the 72-byte box of the matching secret key; see JOURNAL KEY."]),
      .item(
        "`device_tag`",
        [
          """
          Base64 of BLAKE2b-128 keyed with the device secret of \"vault.device-tag.v1\" || \
          vault_id: the device the pin keyslot is bound to. A reader whose device secret gives \
          another tag MUST NOT try the PIN (nor count it as an attempt) and reports that the \
          vault belongs to another device.
          """
        ]),
      .item(
        "`slot_tag`",
        [
          """
          Base64 of BLAKE2b-128 keyed with the same device secret of "vault.slot-tag.v1" || \
          vault_id || profile "|" opslimit "|" memlimit || for each keyslot in order "|" type \
          "|" salt "|" wrapped (as stored, base64). Without the master key the header MAC cannot \
          be checked before the PIN is tried, and an edited KDF parameter or keyslot would look \
          like a wrong PIN; a reader on the bound device MUST refuse a mismatch as an integrity \
          failure before trying the PIN. It is rewritten whenever the pin keyslot is.
          """
        ]),
      .item(
        "`biometry`",
        [
          """
          Optional: the biometric activation record; see BIOMETRIC SEAL. Absent until biometric \
          unlock is first activated, and again after it is turned off.
          """
        ]),
      .paragraph(
        """
        A reader MUST refuse, as a malformed header, a body that is not a JSON object, an \
        unknown field, a missing field other than `biometry`, a value of the wrong type, a \
        base64 value of the wrong length, an unknown policy, and keyslots other than exactly one \
        of each type.
        """),
    ])

  static var kdf: ManualSection {
    let profiles = (KDFParameters.userProfiles + [.test]).map { profile in
      ManualBlock.item(
        "`\(profile.profile)`",
        [
          "opslimit \(profile.opsLimit), memlimit \(profile.memLimit) (\(size(profile.memLimit)))"
            + (profile == .moderate ? "; the default." : ".")
            + (profile == .test
              ? " For test suites only: it gives no resistance to guessing, and vault(1) warns."
              : "")
        ])
    }
    return ManualSection(
      "KDF PARAMETERS",
      [
        .paragraph(
          """
          `kdf` is an object with `profile`, `opslimit` (passes) and `memlimit` (bytes). The \
          profiles are libsodium's `crypto_pwhash` constants of the same names, and libsodium's \
          minimum for `test`:
          """)
      ] + profiles + [
        .paragraph(
          """
          A reader MUST check, before deriving anything, that opslimit lies between \
          \(KDFParameters.test.opsLimit) and \(KDFParameters.maxOpsLimit), that memlimit lies \
          between \(KDFParameters.test.memLimit) and \(KDFParameters.maxMemLimit) \
          (\(size(KDFParameters.maxMemLimit))), that the profile is one of the above and that \
          both values equal that profile's, so a crafted header cannot make it allocate without \
          bound or weaken the cost silently.
          """)
      ])
  }

  /// `64 MiB`, `8 KiB`, `4 GiB`.
  static func size(_ bytes: UInt64) -> String {
    if bytes >= 1 << 30 { return "\(bytes >> 30) GiB" }
    if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
    return "\(bytes >> 10) KiB"
  }

  static let keyslots = ManualSection(
    "KEYSLOTS",
    [
      .paragraph(
        """
        The master key is 32 random bytes. Each keyslot is an object with `type`, `salt` \
        (base64 of \(Salt.byteCount) random bytes) and `wrapped` (base64 of a 72-byte box):
        """),
      .example([
        #"wrapped = seal(kek, "vault.keyslot.v1" || vault_id || type,"#,
        "               master_key)",
        "s = Argon2id(secret, salt, kdf)",
        "pin:      kek = BLAKE2b-32(device_secret,",
        #"                  "vault.pin-kek.v1" || vault_id || s)"#,
        "recovery: kek = s",
      ]),
      .paragraph(
        """
        where *type* is the ASCII type name. For the pin slot the secret is the PIN: its UTF-8 \
        bytes after NFC normalization, \(PIN.minimumLength) characters to \
        \(PIN.maximumByteCount) bytes, without control characters. For the recovery slot it is \
        the recovery code in canonical form; see RECOVERY CODE.
        """),
      .paragraph(
        """
        The device secret is 32 random bytes kept in the device-side state, never in the vault \
        file; see DEVICE STATE. Entangling it with the Argon2id output means the vault file \
        alone cannot be attacked offline, and that a vault copied to another machine opens there \
        only with the recovery code. A box that does not open means a wrong PIN or recovery \
        code; the MAC of the header is then not checked.
        """),
      .paragraph(
        """
        Setting a PIN (a PIN change, or a recovery) writes a new pin keyslot with a fresh salt, \
        bound to the device secret of the machine it runs on, and the matching `device_tag`. The \
        recovery slot never changes, and neither does the master key.
        """),
    ])

  static var subkeys: ManualSection {
    let items = Subkey.allCases.map { subkey in
      ManualBlock.item(
        "id \(subkey.id), context \"\(subkey.context)\"", [purpose(subkey)])
    }
    return ManualSection(
      "SUBKEYS",
      [
        .paragraph(
          """
          Everything else is keyed by subkeys of the master key, derived with \
          `crypto_kdf_derive_from_key`. Their ids and 8-byte contexts never change:
          """)
      ] + items)
  }

  static func purpose(_ subkey: Subkey) -> String {
    switch subkey {
    case .entries: "Seals entry metadata and content chunks."
    case .nameIndex: "Keys the name index (`lookup`)."
    case .header: "Keys the header MAC."
    case .biometry: "Seals the biometric activation record."
    case .journal: "Seals the journal secret key."
    }
  }
}
