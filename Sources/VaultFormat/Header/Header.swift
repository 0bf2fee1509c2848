import FoundationEssentials
import Glibc
import VaultCrypto

/// The format-2 vault header: everything needed to unlock, stored in the clear and authenticated.
///
/// Serialized as JSON with sorted keys; the MAC (keyed BLAKE2b under the `header` subkey) covers the
/// exact stored bytes, so no canonical form is needed, and the state (`StateLink`) covers its
/// digest, so an older header put back is refused. See "HEADER" in `vault(5)`.
public struct Header: Encodable, Equatable, Sendable {
  /// The value of each stored property, in order.
  package init(
    format: Int, vaultID: VaultID, kdf: KDFParameters, policy: Policy, devices: [DeviceRecord],
    recovery: RecoverySlot, journalPublicKey: String, journalSecretKey: String,
    formatOneWriter: String? = nil, retiredWriters: [RetiredWriter]? = nil,
    rotations: [KeyRotation]? = nil, handoffs: [KeyHandoff]? = nil, revokedDevices: [String]? = nil,
    revocations: [SignedRevocation]? = nil, chunkHash: ChunkHash? = nil
  ) {
    self.format = format
    self.vaultID = vaultID
    self.kdf = kdf
    self.policy = policy
    self.devices = devices
    self.recovery = recovery
    self.journalPublicKey = journalPublicKey
    self.journalSecretKey = journalSecretKey
    self.formatOneWriter = formatOneWriter
    self.retiredWriters = retiredWriters
    self.rotations = rotations
    self.handoffs = handoffs
    self.revokedDevices = revokedDevices
    self.revocations = revocations
    self.chunkHash = chunkHash
  }

  /// The format this build writes.
  public static let currentFormat = 2
  /// Most device records a header holds.
  public static let maximumDevices = 64

  /// Format version (2).
  public var format: Int
  /// Bound into every record's associated data (`vault_id`, base64).
  public var vaultID: VaultID
  /// Argon2id parameters for the PIN and recovery keyslots.
  public var kdf: KDFParameters
  /// What unlocking needs.
  public var policy: Policy
  /// One record for each device that unlocks the vault with its own PIN.
  public var devices: [DeviceRecord]
  /// The recovery slot.
  public var recovery: RecoverySlot
  /// X25519 public key (32 bytes, base64) that journal entries are sealed to.
  public var journalPublicKey: String
  /// The matching secret key, sealed under the `journal` subkey (base64 AEAD box).
  public var journalSecretKey: String
  /// The Ed25519 public key (base64) that signed the journal entries migrated from format 1,
  /// whose secret key was discarded; nil in a vault made in format 2.
  public var formatOneWriter: String?

  /// Writer keys a master-key rotation replaced: they verify journal entries already folded into
  /// the state, never pending ones; nil when there are none.
  public var retiredWriters: [RetiredWriter]?
  /// The master-key rotations whose earlier keys the kept states still need, oldest first;
  /// nil when there are none.
  public var rotations: [KeyRotation]?
  /// One link for each master-key rotation, oldest first, at most `maximumHandoffs`: how a
  /// device holding an older key takes the newer one in a sync; nil before the first rotation.
  public var handoffs: [KeyHandoff]?
  /// The ids (base64, 16 bytes) of the devices `vault sync revoke` removed, oldest first.
  ///
  /// Nil when none was. No record has one, and none is ever dropped.
  public var revokedDevices: [String]?
  /// One revocation for each id of `revokedDevices`, in its order: the writer key it retired
  /// and the recovery code's authorization of it (`vault(5)` ENROLLMENT).
  ///
  /// Nil when no device was revoked, or in a header the code has not enrolled yet. See
  /// `revocationPairs`.
  public var revocations: [SignedRevocation]?
  /// How the chunks' aggregate hashes a chunk row.
  ///
  /// `.tag` since release 0.6.0; nil (the whole row) in a vault no release since has written.
  /// See `ChunkRowHash`.
  public var chunkHash: ChunkHash?
  /// Most rotations a header holds.
  public static let maximumRotations = 16
  /// Most rotation links a header holds.
  public static let maximumHandoffs = 16
  /// Most retired writer keys a header holds.
  public static let maximumRetiredWriters = 256
  /// Most revoked device ids a header holds.
  public static let maximumRevokedDevices = 256

  /// The writer id of the entries migrated from format 1 (no device has it).
  public static let formatOneWriterID = [UInt8](repeating: 0, count: 16)

  enum CodingKeys: String, CodingKey {
    case format, kdf, policy, devices, recovery
    case vaultID = "vault_id"
    case journalPublicKey = "journal_public_key"
    case journalSecretKey = "journal_secret_key"
    case formatOneWriter = "format_one_writer"
    case retiredWriters = "retired_writers"
    case rotations, handoffs
    case revokedDevices = "revoked_devices"
    case revocations
    case chunkHash = "chunk_hash"
  }

  /// The record whose device tag is `deviceSecret`'s, if any.
  public func device(for deviceSecret: DeviceSecret) -> DeviceRecord? {
    let tag = DeviceRecord.deviceTag(deviceSecret: deviceSecret, vaultID: vaultID)
    return devices.first { constantTimeEqual(Array($0.deviceTag.utf8), Array(tag.utf8)) }
  }

  /// The record with `deviceID` (base64), if any.
  public func device(id deviceID: String) -> DeviceRecord? {
    devices.first { $0.deviceID == deviceID }
  }

  /// Replaces the record with the same device id, or appends `record`.
  public mutating func setDevice(_ record: DeviceRecord) {
    if let index = devices.firstIndex(where: { $0.deviceID == record.deviceID }) {
      devices[index] = record
    } else {
      devices.append(record)
    }
  }

  /// Parses header bytes strictly: known format, bounded KDF parameters, well-formed fields.
  ///
  /// - Returns: the header; for a format-1 body use `FormatOneHeader.parse`.
  /// - Throws: `VaultError.unsupportedVersion` for another format, `VaultError.malformedHeader`
  ///   for anything else out of place.
  public static func parse(_ body: [UInt8]) throws -> Header {
    let (fields, format) = try HeaderJSON.object(body)
    guard format == currentFormat else { throw VaultError.unsupportedVersion(format) }
    try refuseUnknownFields(fields)
    let header: Header
    do {
      header = try Header(fields)
    } catch {
      throw VaultError.malformedHeader(.body(.fieldsNotValid))
    }
    try header.validate()
    return header
  }

  /// The members `parse` reads (others are refused before any is decoded).
  static let fieldNames = [
    "format", "vault_id", "kdf", "policy", "devices", "recovery", "journal_public_key",
    "journal_secret_key", "format_one_writer", "retired_writers", "rotations", "chunk_hash",
    "revoked_devices", "revocations", "handoffs",
  ]

  /// Refuses, naming it, a field no release wrote (in the header, a rotation, a retired writer, a
  /// device record, its biometry or the recovery slot), a policy and a biometry state this build
  /// does not know.
  private static func refuseUnknownFields(_ fields: JSONFields) throws {
    try requireKnownKeys(fields, fieldNames, what: .header)
    for rotation in fields.value("rotations")?.elements ?? [] {
      guard let rotation = try? JSONFields(rotation) else { continue }
      try requireKnownKeys(rotation, ["generation", "previous_key"], what: .rotation)
    }
    for link in fields.value("handoffs")?.elements ?? [] {
      guard let link = try? JSONFields(link) else { continue }
      try requireKnownKeys(link, KeyHandoff.fieldNames, what: .handoff)
    }
    for revocation in fields.value("revocations")?.elements ?? [] {
      guard let revocation = try? JSONFields(revocation) else { continue }
      try requireKnownKeys(revocation, ["writer_key", "signature"], what: .revocation)
    }
    for retired in fields.value("retired_writers")?.elements ?? [] {
      guard let retired = try? JSONFields(retired) else { continue }
      try requireKnownKeys(retired, ["device_id", "writer_key"], what: .retiredWriter)
    }
    if let policy = fields.value("policy")?.text(), Policy(rawValue: policy) == nil {
      throw VaultError.malformedHeader(.unknownPolicy(policy))
    }
    for device in fields.value("devices")?.elements ?? [] {
      guard let device = try? JSONFields(device) else { continue }
      try requireKnownKeys(device, DeviceRecord.fieldNames, what: .deviceRecord)
      if let policy = device.value("policy")?.text(), Policy(rawValue: policy) == nil {
        throw VaultError.malformedHeader(.unknownPolicy(policy))
      }
      if let biometry = try? device.optionalObject("biometry") {
        try requireKnownKeys(biometry, ["state", "changed_at", "reason", "seal"], what: .biometry)
        if let state = biometry.value("state")?.text(), BiometryState(rawValue: state) == nil {
          throw VaultError.malformedHeader(.unknownBiometryState(state))
        }
      }
    }
    if let recovery = try? fields.optionalObject("recovery") {
      try requireKnownKeys(recovery, RecoverySlot.fieldNames, what: .recoverySlot)
    }
  }

  private static func requireKnownKeys(
    _ fields: JSONFields, _ known: [String], what: HeaderObject
  ) throws {
    if let unknown = fields.unknownKey(known) {
      throw VaultError.malformedHeader(.unknownField(what, name: unknown))
    }
  }

  func validate() throws {
    try kdf.validate()
    guard (1...Self.maximumDevices).contains(devices.count) else {
      throw VaultError.malformedHeader(.deviceRecords(.count(maximum: Self.maximumDevices)))
    }
    for device in devices { try device.validate() }
    guard Set(devices.map(\.deviceID)).count == devices.count,
      !devices.contains(where: { $0.deviceIDBytes == Self.formatOneWriterID }),
      Set(devices.map(\.deviceTag)).count == devices.count
    else { throw VaultError.malformedHeader(.deviceRecords(.sharedIDOrTag)) }
    try recovery.validate()
    guard devices.allSatisfy({ ($0.enrollment != nil) == (recovery.enrollmentKey != nil) }) else {
      throw VaultError.malformedHeader(
        .deviceRecords(recovery.enrollmentKey == nil ? .enrolledWithoutKey : .notEnrolled))
    }
    _ = try [UInt8](base64: journalPublicKey, count: 32, field: "journal_public_key")
    _ = try [UInt8](base64: journalSecretKey, count: 24 + 32 + 16, field: "journal_secret_key")
    if let formatOneWriter {
      _ = try [UInt8](base64: formatOneWriter, count: 32, field: "format_one_writer")
    }
    if let rotations {
      guard rotations.count <= Self.maximumRotations,
        zip(rotations, rotations.dropFirst()).allSatisfy({ $0.generation < $1.generation }),
        rotations.allSatisfy({ (2...(1 << 62)).contains($0.generation) })
      else {
        throw VaultError.malformedHeader(.lists(.rotationsOutOfOrder))
      }
      for rotation in rotations {
        _ = try [UInt8](
          base64: rotation.previousKey, count: Nonce.byteCount + 32 + AEAD.tagByteCount,
          field: "rotations")
      }
    }
    if let handoffs {
      guard handoffs.count <= Self.maximumHandoffs else {
        throw VaultError.malformedHeader(.lists(.tooManyHandoffs(maximum: Self.maximumHandoffs)))
      }
      for link in handoffs { try link.validate() }
    }
    if let revokedDevices {
      guard revokedDevices.count <= Self.maximumRevokedDevices,
        Set(revokedDevices).count == revokedDevices.count,
        !devices.contains(where: { revokedDevices.contains($0.deviceID) })
      else {
        throw VaultError.malformedHeader(
          .lists(.revokedDevicesInvalid(maximum: Self.maximumRevokedDevices)))
      }
      for id in revokedDevices { _ = try [UInt8](base64: id, count: 16, field: "revoked_devices") }
    }
    if let revocations {
      guard recovery.enrollmentKey != nil, revocations.count == revokedDevices?.count else {
        throw VaultError.malformedHeader(.lists(.revocationsNotOnePerDevice))
      }
      for revocation in revocations {
        _ = try [UInt8](base64: revocation.writerKey, count: 32, field: "revocations")
        _ = try [UInt8](
          base64: revocation.signature, count: Signing.signatureByteCount, field: "revocations")
      }
    } else if recovery.enrollmentKey != nil, revokedDevices != nil {
      throw VaultError.malformedHeader(.lists(.revocationMissing))
    }
    if let retiredWriters {
      guard retiredWriters.count <= Self.maximumRetiredWriters else {
        throw VaultError.malformedHeader(
          .lists(.tooManyRetiredWriters(maximum: Self.maximumRetiredWriters)))
      }
      for retired in retiredWriters {
        _ = try [UInt8](base64: retired.deviceID, count: 16, field: "retired_writers")
        _ = try [UInt8](base64: retired.writerKey, count: 32, field: "retired_writers")
      }
    }
  }

  /// The stored form: JSON, sorted keys, snake_case.
  ///
  /// - Throws: `VaultError.storage` if it cannot be encoded (plain strings and integers always
  ///   can; an empty header is never written in its place).
  public func encoded() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
      return try [UInt8](encoder.encode(self))
    } catch {
      throw VaultError.storage(.headerNotEncodable)
    }
  }

  /// Keyed BLAKE2b MAC of the stored bytes under the `header` subkey (32 bytes):
  /// `BLAKE2b-256(key: subkey(3, "vaulthdr"), "vault.header.v1" || body)`.
  public static func mac(_ body: [UInt8], masterKey: SymmetricKey) -> [UInt8] {
    GenericHash.keyed(
      key: masterKey.derive(.header).bytes, parts: [DomainLabel.header.bytes, body])
  }

  /// The `chunk_hash` of a header body that `parse` accepts (nil for one it refuses).
  static func chunkHash(of body: [UInt8]) -> ChunkHash? {
    (try? parse(body))?.chunkHash
  }

  /// The header as a sync repository's state file carries it (`vault(5)` SYNC REPOSITORY).
  ///
  /// `body` itself without `rotations`, else without them, encoded again. Rotations name
  /// generations of one device's own state chain, which no other device shares.
  ///
  /// - Throws: what `parse` throws; `VaultError.storage` when it cannot be encoded.
  package static func published(_ body: [UInt8]) throws -> [UInt8] {
    var header = try parse(body)
    guard header.rotations != nil else { return body }
    header.rotations = nil
    return try header.encoded()
  }

  /// BLAKE2b-256 of the stored header bytes (`"vault.header.v1" || body`), as the state summary
  /// and the device's record of the last authenticated header take it.
  public static func digest(_ body: [UInt8]) -> [UInt8] {
    GenericHash.hash(parts: [DomainLabel.header.bytes, body])
  }
}

/// One master-key rotation (`vault(5)`, MASTER-KEY ROTATION): the states from `generation` on
/// are under the newer key, and the one before is sealed under it.
public struct KeyRotation: Encodable, Equatable, Sendable {
  /// The first generation whose state MAC uses the newer key.
  public var generation: Int64
  /// `seal(subkey(9, "vaultrot") of the newer key, "vault.rotation.v2" || vault id ||
  /// u64be(generation), previous master key)`, base64 (72 bytes).
  public var previousKey: String

  enum CodingKeys: String, CodingKey {
    case generation
    case previousKey = "previous_key"
  }

  static func associatedData(vaultID: VaultID, generation: Int64) -> [UInt8] {
    DomainLabel.rotation.bytes + vaultID.bytes + RecordBox.u64(UInt64(generation))
  }

  /// `rotations` followed by the rotation from `old` to `new` whose first state follows
  /// generation `newest`: `old` sealed under `new`'s rotation subkey (XChaCha20-Poly1305), and
  /// the rotations no kept state needs, or beyond `Header.maximumRotations`, dropped.
  package static func following(
    _ rotations: [KeyRotation]?, from old: SymmetricKey, to new: SymmetricKey, vaultID: VaultID,
    after newest: Int64
  ) -> [KeyRotation] {
    let first = newest + 1
    let previous = old.bytes.withBytes {
      AEAD.seal(
        $0, key: new.derive(.rotation),
        associatedData: associatedData(vaultID: vaultID, generation: first))
    }
    let oldest = first - StateSnapshot.history + 1
    return (rotations ?? []).filter { $0.generation > oldest }.suffix(
      Header.maximumRotations - 1) + [KeyRotation(generation: first, previousKey: previous.base64)]
  }
}

/// A writer key a master-key rotation replaced (`vault(5)`, MASTER-KEY ROTATION).
public struct RetiredWriter: Encodable, Equatable, Sendable {
  /// The value of each stored property, in order.
  package init(deviceID: String, writerKey: String) {
    self.deviceID = deviceID
    self.writerKey = writerKey
  }

  /// The writer's device id (16 bytes, base64).
  public var deviceID: String
  /// Its former Ed25519 public key (32 bytes, base64).
  public var writerKey: String

  enum CodingKeys: String, CodingKey {
    case deviceID = "device_id"
    case writerKey = "writer_key"
  }
}

/// The first checks of every header format: a bounded JSON object with an integer format.
enum HeaderJSON {
  /// The object and its format version.
  ///
  /// - Throws: `VaultError.malformedHeader` for a body over 64 KiB, not a JSON object, or without
  ///   a format.
  static func object(_ body: [UInt8]) throws -> (object: JSONFields, format: Int) {
    guard body.count <= 64 * 1024 else {
      throw VaultError.malformedHeader(.body(.tooLarge))
    }
    let object: JSONFields
    do {
      object = try JSONFields(GuardedJSON(parsing: SecureBytes(copying: body)).root)
    } catch {
      throw VaultError.malformedHeader(.body(.notAJSONObject))
    }
    guard let format = try? object.integer("format") else {
      throw VaultError.malformedHeader(.body(.noFormatVersion))
    }
    return (object, format)
  }
}

extension Header {
  /// Decodes the members of a header object (their bounds are `validate`'s).
  ///
  /// - Throws: `JSONFields.Mismatch` or `VaultError` for a member missing or of another type.
  init(_ fields: JSONFields) throws {
    guard let policy = Policy(rawValue: try fields.string("policy")) else {
      throw JSONFields.Mismatch()
    }
    var chunkHash: ChunkHash?
    if let rule = try fields.optionalString("chunk_hash") {
      guard let known = ChunkHash(rawValue: rule) else { throw JSONFields.Mismatch() }
      chunkHash = known
    }
    self.init(
      format: try fields.integer("format"),
      vaultID: try VaultID(
        [UInt8](base64: try fields.string("vault_id"), count: 16, field: "vault_id")),
      kdf: try KDFParameters(fields.object("kdf")), policy: policy,
      devices: try fields.array("devices").map { try DeviceRecord(JSONFields($0)) },
      recovery: try RecoverySlot(fields.object("recovery")),
      journalPublicKey: try fields.string("journal_public_key"),
      journalSecretKey: try fields.string("journal_secret_key"),
      formatOneWriter: try fields.optionalString("format_one_writer"),
      retiredWriters: try fields.optionalArray("retired_writers")?.map {
        let retired = try JSONFields($0)
        return RetiredWriter(
          deviceID: try retired.string("device_id"), writerKey: try retired.string("writer_key"))
      },
      rotations: try fields.optionalArray("rotations")?.map {
        let rotation = try JSONFields($0)
        return KeyRotation(
          generation: Int64(try rotation.integer("generation")),
          previousKey: try rotation.string("previous_key"))
      },
      handoffs: try fields.optionalArray("handoffs")?.map {
        let link = try JSONFields($0)
        return KeyHandoff(
          deviceID: try link.string("device_id"), previous: try link.string("previous"),
          next: try link.string("next"), writerKey: try link.string("writer_key"),
          signature: try link.string("signature"),
          enrollmentKey: try link.string("enrollment_key"),
          authorization: try link.optionalString("authorization"))
      },
      revokedDevices: try fields.optionalArray("revoked_devices")?.map {
        guard let id = $0.text() else { throw JSONFields.Mismatch() }
        return id
      },
      revocations: try fields.optionalArray("revocations")?.map {
        let revocation = try JSONFields($0)
        return SignedRevocation(
          writerKey: try revocation.string("writer_key"),
          signature: try revocation.string("signature"))
      },
      chunkHash: chunkHash)
  }
}
