import VaultCrypto

/// A domain-separation label: the ASCII string, named for one use and versioned, that starts the
/// associated data, MAC message or keyed-hash input of that use, so that no box, tag or key made
/// for one use is accepted in another.
///
/// `vault(5)` lists every case with `separates`, and a test checks that the sources use exactly
/// these labels.
public enum DomainLabel: String, CaseIterable, Sendable {
  /// The header MAC's message.
  case header = "vault.header.v1"
  /// A keyslot's box.
  case keyslot = "vault.keyslot.v1"
  /// The pin keyslot's key, from the Argon2id output and the device secret.
  case pinKEK = "vault.pin-kek.v1"
  /// The tag that recognizes a wrong PIN tried again.
  case pinRepeat = "vault.pin-repeat.v1"
  /// The header's `slot_tag`.
  case slotTag = "vault.slot-tag.v1"
  /// The header's `device_tag`.
  case deviceTag = "vault.device-tag.v1"
  /// An entry name's index.
  case name = "vault.name.v1"
  /// An entry's metadata box.
  case entryMeta = "vault.entry-meta.v1"
  /// A content chunk's box.
  case entryChunk = "vault.entry-chunk.v1"
  /// The box of the journal secret key.
  case journalKey = "vault.journal-key.v1"
  /// A sealed journal record.
  case journal = "vault.journal.v1"
  /// A signed journal record (format 2).
  case journalSigned = "vault.journal.v2"
  /// The biometric seal.
  case biometry = "vault.biometry.v1"
  /// A session's grant id, from its token (releases 0.3 to 0.12 kept session files, under
  /// labels "vault.session.v2", "vault.session-id.v1", "vault.session-key.v1",
  /// "vault.session-boot.v2" and "vault.session-path.v2").
  case grant = "vault.grant.v1"
  /// A row's hash in a format-2 aggregate.
  case row = "vault.row.v2"
  /// A format-2 state's summary of the vault's contents.
  case stateSummary = "vault.state-summary.v2"
  /// A format-2 state link's MAC.
  case state = "vault.state.v2"

  /// The format-2 slot tag of a device record.
  case slotTagV2 = "vault.slot-tag.v2"
  /// The box of a device's X25519 secret key under its PIN KEK.
  case deviceKey = "vault.device-key.v2"
  /// The master key sealed to a device's public key.
  case masterBox = "vault.master-box.v2"
  /// The recovery slot's code verifier.
  case recoveryVerifier = "vault.recovery-verifier.v2"
  /// The recovery slot's tag over its KDF parameters and box.
  case recoveryTag = "vault.recovery-tag.v2"
  /// The check group shown after a new recovery code.
  case recoveryCheck = "vault.recovery-check.v2"
  /// A record's box.
  case record = "vault.record.v2"
  /// A content chunk's box (format 2).
  case chunk = "vault.chunk.v2"
  /// A counter's record id.
  case counterID = "vault.counter-id.v2"
  /// A device's biometric seal (format 2).
  case biometryV2 = "vault.biometry.v2"
  /// The settings record's id.
  case settingsID = "vault.settings-id.v2"
  /// The slot tag of a device record since release 0.3.0 (without the master box).
  case slotTagV3 = "vault.slot-tag.v3"
  /// The box of the previous master key in a rotation record.
  case rotation = "vault.rotation.v2"
  /// The fingerprint of an HOTP secret in its counter's name.
  case hotpSecret = "vault.hotp-secret.v2"
  /// The prefix of `vault audit`'s keyed hash of a password (never stored).
  case audit = "vault.audit.v1"
  /// A streamed content's message (format 2, release 0.5.0).
  case stream = "vault.stream.v2"
  /// A content chunk's box with its content id (format 2, release 0.5.0).
  case chunkV3 = "vault.chunk.v3"
  /// The check of an export's passphrase.
  case exportCheck = "vault.export-check.v1"
  /// The stream key of an export, from its passphrase's key.
  case exportKey = "vault.export-key.v1"
  /// An export's stream messages.
  case export = "vault.export.v1"
  /// The digest of a sealed domain state kept in the device state.
  case sealedDomain = "vault.sealed-domain.v1"
  /// The names of a sync repository's files.
  case syncName = "vault.sync-name.v1"
  /// The hashes of a sync repository's files.
  case syncHash = "vault.sync-hash.v1"
  /// A sync repository's record files.
  case syncRecord = "vault.sync-record.v1"
  /// The heads of a sync repository's content files.
  case syncContent = "vault.sync-content.v1"
  /// A sync repository's state file.
  case syncState = "vault.sync-state.v1"
  /// The record id of a device's sync record.
  case syncDevice = "vault.sync-device.v1"
  /// A master key's commitment in a rotation's link.
  case keyCommitment = "vault.key-commitment.v1"
  /// The message a rotation's link signs.
  case keyHandoff = "vault.key-handoff.v1"
  /// The seed of the writer key a rotation gives the rotating device.
  case writerSeed = "vault.writer-seed.v1"
  /// The seed of a recovery code's enrollment key.
  case enrollmentSeed = "vault.enrollment-seed.v1"
  /// The message a device record's enrollment signs (a record of a release before 0.11.0).
  case enrollment = "vault.enrollment.v1"
  /// The message a device record's enrollment signs, with its serial (since release 0.11.0).
  case enrollmentV2 = "vault.enrollment.v2"
  /// The message a rotation link's authorization signs.
  case handoffAuthorization = "vault.handoff-authorization.v1"
  /// The message a revocation signs.
  case revocation = "vault.revocation.v1"
  /// Every label, in the order `vault(5)` lists them.
  public static var all: [DomainLabel] { allCases }

  /// The label's ASCII bytes, as they enter the associated data or the hashed message.
  public var bytes: [UInt8] { Array(rawValue.utf8) }

  /// What the label separates and how it enters the primitive, one sentence for `vault(5)`.
  public var separates: String {
    switch self {
    case .header:
      "The prefix of the header MAC's message (keyed BLAKE2b, subkey 3)."
    case .keyslot:
      "The prefix of a keyslot box's associated data (XChaCha20-Poly1305)."
    case .pinKEK:
      "The prefix of the message that makes the pin keyslot's key from the Argon2id output"
        + " (BLAKE2b keyed with the device secret)."
    case .pinRepeat:
      "The message of the tag that recognizes a repeated wrong PIN (BLAKE2b keyed with the key"
        + " that PIN gave)."
    case .slotTag:
      "The prefix of the slot tag's message (BLAKE2b keyed with the device secret)."
    case .deviceTag:
      "The prefix of the device tag's message (BLAKE2b keyed with the device secret)."
    case .name:
      "The prefix of an entry name's index (keyed BLAKE2b, subkey 2)."
    case .entryMeta:
      "The prefix of an entry metadata box's associated data (XChaCha20-Poly1305)."
    case .entryChunk:
      "The prefix of a content chunk box's associated data (XChaCha20-Poly1305)."
    case .journalKey:
      "The prefix of the journal secret key box's associated data (XChaCha20-Poly1305)."
    case .journal:
      "The first bytes of a journal record, inside its sealed box (crypto_box_seal takes no"
        + " associated data)."
    case .journalSigned:
      "The first bytes of a format-2 journal record inside its sealed box, covered by the"
        + " writer's Ed25519 signature."
    case .biometry:
      "The prefix of the biometric seal's associated data (XChaCha20-Poly1305)."
    case .grant:
      "The message of a session's grant id, which the unlock agent keeps (BLAKE2b keyed with the"
        + " session token)."
    case .row:
      "The prefix of a row's hash, which the table's aggregate sums (keyed BLAKE2b, subkey 7)."
    case .stateSummary:
      "The prefix of the state summary's message (unkeyed BLAKE2b of the header digest and the"
        + " aggregates)."
    case .state:
      "The prefix of a state link's MAC message (keyed BLAKE2b, subkey 8)."
    case .slotTagV2:
      "The prefix of a device record's slot tag message (BLAKE2b keyed with the device secret)."
    case .deviceKey:
      "The prefix of the associated data of a device's secret key box (XChaCha20-Poly1305)."
    case .masterBox:
      "The first bytes of the master key sealed to a device (crypto_box_seal takes no associated"
        + " data)."
    case .recoveryVerifier:
      "The prefix of the recovery code's verifier (BLAKE2b keyed with the recovery code)."
    case .recoveryTag:
      "The prefix of the recovery slot's tag (BLAKE2b keyed with the recovery code)."
    case .recoveryCheck:
      "The prefix of the hash whose first 20 bits are a recovery code's check group (unkeyed"
        + " BLAKE2b)."
    case .record:
      "The prefix of a record box's associated data (XChaCha20-Poly1305, subkey 6)."
    case .chunk:
      "The prefix of a format-2 content chunk's associated data (XChaCha20-Poly1305, subkey 6)."
    case .counterID:
      "The prefix of a counter's record id (keyed BLAKE2b, subkey 2)."
    case .biometryV2:
      "The prefix of a device's biometric seal's associated data (XChaCha20-Poly1305)."
    case .settingsID:
      "The message hashed (BLAKE2b-16, unkeyed) into the settings record's id."
    case .rotation:
      "The prefix of the associated data of the previous master key's box in the header's"
        + " `rotations` (XChaCha20-Poly1305, subkey 9)."
    case .hotpSecret:
      "The prefix of the fingerprint (unkeyed BLAKE2b-16) of an HOTP secret in the name of its"
        + " counter record."
    case .slotTagV3:
      "The prefix of a device record's slot tag since release 0.3.0, without the master box"
        + " (BLAKE2b keyed with the device secret)."
    case .audit:
      "The prefix of `vault audit`'s keyed BLAKE2b of a password, under a key drawn for one run;"
        + " never stored."
    case .stream:
      "The prefix of the associated data of each message of a streamed content"
        + " (crypto_secretstream_xchacha20poly1305, subkey 10)."
    case .chunkV3:
      "The prefix of a content chunk's associated data since release 0.5.0, with the content"
        + " id (XChaCha20-Poly1305, subkey 6)."
    case .exportCheck:
      "The prefix of an export's passphrase check, over the first 41 bytes of its header (BLAKE2b"
        + " keyed with the Argon2id output)."
    case .exportKey:
      "The message of an export's stream key (BLAKE2b keyed with the Argon2id output)."
    case .export:
      "The prefix of the associated data of each message of an export, followed by its 81-byte"
        + " header (crypto_secretstream_xchacha20poly1305 under the export's stream key)."
    case .sealedDomain:
      "The prefix of the device state's digest of a sealed domain state, followed by the vault"
        + " id and the domain state (BLAKE2b keyed with the device secret)."
    case .syncName:
      "The prefix of the name of a sync repository's file, followed by \"r\" and a record id or"
        + " \"c\" and a content's place (BLAKE2b-16, subkey 12)."
    case .syncHash:
      "The prefix of the hash of a sync repository's file, followed by its path and bytes"
        + " (BLAKE2b-32, subkey 12)."
    case .syncRecord:
      "The prefix of the associated data of a sync repository's record file, followed by the"
        + " vault id and its path (XChaCha20-Poly1305, subkey 11)."
    case .syncContent:
      "The prefix of the associated data of the head of a sync repository's content file,"
        + " followed by the vault id and its path (XChaCha20-Poly1305, subkey 11)."
    case .syncState:
      "The prefix of the associated data of a sync repository's state file, followed by the"
        + " vault id and the file's public part (XChaCha20-Poly1305, subkey 11)."
    case .syncDevice:
      "The prefix of the record id of a device's sync record, followed by its device id"
        + " (BLAKE2b-16, subkey 2)."
    case .keyCommitment:
      "The prefix of a master key's commitment in a rotation's link (BLAKE2b keyed with that"
        + " master key)."
    case .keyHandoff:
      "The prefix of the message a rotation's link signs (Ed25519, the rotating device's former"
        + " writer key)."
    case .writerSeed:
      "The prefix of the message whose hash seeds the writer key a rotation gives the rotating"
        + " device (BLAKE2b keyed with the device secret)."
    case .enrollmentSeed:
      "The prefix of the message whose hash seeds a recovery code's enrollment key (BLAKE2b keyed"
        + " with the code)."
    case .enrollment:
      "The prefix of the message a device record's enrollment signs (Ed25519, the recovery"
        + " code's enrollment key), for a record without an enrollment serial."
    case .enrollmentV2:
      "The prefix of the message a device record's enrollment signs with its serial (Ed25519,"
        + " the recovery code's enrollment key)."
    case .handoffAuthorization:
      "The prefix of the message a rotation link's authorization signs (Ed25519, the old"
        + " recovery code's enrollment key)."
    case .revocation:
      "The prefix of the message a device's revocation signs (Ed25519, the recovery code's"
        + " enrollment key)."
    }
  }
}
