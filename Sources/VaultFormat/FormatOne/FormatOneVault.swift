import FoundationEssentials
import Glibc
import VaultCrypto

/// A format-1 vault file (release 0.1.0), opened only to be unlocked and migrated to format 2.
///
/// See FORMAT 1 in `vault(5)`. Nothing here writes the file but the limiter's count in the
/// device state; `FormatOneMigration` rewrites it.
public final class FormatOneVault {
  /// `PRAGMA user_version` of format 1.
  public static let schemaVersion: Int64 = 1

  /// Path of the database file.
  public let path: String
  /// The environment it was opened in.
  public let environment: VaultEnvironment
  package let db: SQLiteDatabase
  /// The parsed header (authenticated once a keyslot opened).
  public let header: FormatOneHeader
  let headerBody: [UInt8]
  let headerMAC: [UInt8]

  /// The vault's id.
  public var vaultID: VaultID { header.vaultID }
  /// The device-side store.
  public var device: DeviceStore { DeviceStore(environment: environment) }
  /// The PIN attempt limiter (the same record as after migration).
  public var limiter: PINLimiter {
    PINLimiter(store: device, vaultID: vaultID, clock: environment.clock)
  }

  /// Opens a format-1 file, refusing a copy of a vault this device has already seen in format 2.
  ///
  /// - Throws: `VaultError.integrity` for a changed schema or a format-1 copy of a migrated vault;
  ///   `.malformedHeader`, `.unsupportedVersion`.
  init(path: String, environment: VaultEnvironment, db: SQLiteDatabase) throws {
    self.path = path
    self.environment = environment
    self.db = db
    try Schema.check(db, version: Self.schemaVersion)
    (headerBody, headerMAC) = try Vault.readHeaderRow(db)
    header = try FormatOneHeader.parse(headerBody)
    if try DeviceStore(environment: environment).peek()?.states[header.vaultID.hex] != nil {
      throw VaultError.integrity(.formatOne(.copyOfMigratedVault))
    }
    try db.execute("PRAGMA synchronous = FULL; PRAGMA secure_delete = ON")
  }

  /// True when the PIN slot is bound to `deviceSecret`.
  public func isBound(to deviceSecret: DeviceSecret) -> Bool {
    let tag = FormatOneHeader.deviceTag(deviceSecret: deviceSecret, vaultID: vaultID)
    return constantTimeEqual(Array(tag.utf8), Array(header.deviceTag.utf8))
  }

  /// The biometric state its header records (unauthenticated: for `vault status` only).
  public func biometryStatus(_ device: DeviceState) -> BiometryStatus {
    guard header.policy.requiresBiometry else { return .off }
    guard let record = header.biometry else { return .notActivated }
    switch record.state {
    case .active: return .active(since: record.changedAt)
    case .disabled: return .disabled(since: record.changedAt, reason: record.reason ?? "unknown")
    }
  }

  /// The checks that need no PIN: the PIN slot is this device's, its KDF parameters and
  /// keyslots are as recorded, and no PIN delay runs.
  ///
  /// - Throws: `VaultError.otherDevice`, `.integrity`, `.pinDelay`.
  package func checkBeforePIN(_ state: DeviceState) throws -> DeviceSecret {
    let secret = state.deviceSecret
    let tag = FormatOneHeader.deviceTag(deviceSecret: secret, vaultID: vaultID)
    guard constantTimeEqual(Array(tag.utf8), Array(header.deviceTag.utf8)) else {
      throw VaultError.otherDevice
    }
    let slotTag = FormatOneHeader.slotTag(
      deviceSecret: secret, vaultID: vaultID, kdf: header.kdf, keyslots: header.keyslots)
    guard constantTimeEqual(Array(slotTag.utf8), Array(header.slotTag.utf8)) else {
      throw VaultError.integrity(.keys(.keyslotsEdited))
    }
    let wait = limiter.currentDelay(state)
    if wait > 0 { throw VaultError.pinDelay(seconds: wait) }
    return secret
  }

  /// What a format-1 PIN unlock gives: the master key and the PIN keyslot's salt and KEK, which
  /// the migrated device record keeps.
  package struct PINUnlock {
    package let masterKey: SymmetricKey
    package let salt: Salt
    package let kek: SymmetricKey
  }

  /// Checks the PIN, counted as a format-2 unlock counts it.
  ///
  /// - Throws: the errors of `checkBeforePIN`, `.wrongPIN`, `.wrongPINDelayed`, `.integrity` when
  ///   the header was edited.
  package func unlock(pin: PIN) throws -> PINUnlock {
    let secret = try checkBeforePIN(device.read())
    guard let slot = header.keyslot(.pin) else {
      throw VaultError.malformedHeader(.keyslots(.noPINSlot))
    }
    let salt = try slot.saltValue()
    var seconds = 0.0
    let result = try Vault.checkPIN(limiter: limiter) { () -> Vault.PINTrial<PINUnlock> in
      let kek: SymmetricKey
      (kek, seconds) = try Vault.timed {
        try Keyslot.kek(
          type: .pin, secret: pin.bytes, salt: salt, parameters: header.kdf, vaultID: vaultID,
          deviceSecret: secret)
      }
      do {
        return .opened(
          PINUnlock(masterKey: try slot.open(kek: kek, vaultID: vaultID), salt: salt, kek: kek))
      } catch is Keyslot.WrongKey {
        return .wrong(kek: kek)
      }
    }
    do {
      try verifyHeader(masterKey: result.masterKey)
    } catch {
      try limiter.succeeded()
      throw error
    }
    let short = !pin.isLongEnoughToSet
    try limiter.succeeded {
      $0.guessSeconds[vaultID.hex] = seconds
      if short { $0.shortPINs.insert(vaultID.hex) } else { $0.shortPINs.remove(vaultID.hex) }
    }
    return result
  }

  /// Opens the recovery keyslot.
  ///
  /// - Throws: `VaultError.wrongRecoveryCode`, `.integrity` when the header was edited.
  package func unlock(recoveryCode: SecureBytes) throws -> SymmetricKey {
    guard let slot = header.keyslot(.recovery) else {
      throw VaultError.malformedHeader(.keyslots(.noRecoverySlot))
    }
    let kek = try Keyslot.kek(
      type: .recovery, secret: recoveryCode, salt: try slot.saltValue(), parameters: header.kdf,
      vaultID: vaultID, deviceSecret: nil)
    let masterKey: SymmetricKey
    do {
      masterKey = try slot.open(kek: kek, vaultID: vaultID)
    } catch is Keyslot.WrongKey {
      throw VaultError.wrongRecoveryCode
    }
    try verifyHeader(masterKey: masterKey)
    return masterKey
  }

  func verifyHeader(masterKey: SymmetricKey) throws {
    guard constantTimeEqual(FormatOneHeader.mac(headerBody, masterKey: masterKey), headerMAC)
    else {
      throw VaultError.integrity(.headerFailedAuthentication)
    }
  }

  /// One format-1 entry, opened.
  package struct Entry {
    package let name: String
    package let created: String
    package let updated: String
    package let guarded: Bool
    package let content: SecureBytes
  }

  /// One format-1 journal entry, opened.
  package struct JournalItem {
    package let id: [UInt8]
    package let stamp: JournalStamp
    package let text: SecureBytes
  }

  /// The metadata of a format-1 entry, as sealed.
  private struct Metadata: Codable {
    var name: String
    var created: String
    var updated: String
    var guarded: Bool
    var length: Int
    var chunks: Int
    var revision: String
  }

  /// Every entry and journal entry, opened and verified with the key (inside the migration's
  /// transaction).
  ///
  /// - Throws: `VaultError.integrity` at the first record that does not verify, naming it.
  package func readAll(masterKey: SymmetricKey) throws -> (entries: [Entry], journal: [JournalItem])
  {
    let key = masterKey.derive(.entries)
    var entries: [Entry] = []
    var journal: [JournalItem] = []
    let journalSecret = try AEAD.open(
      [UInt8](base64: header.journalSecretKey, field: "journal_secret_key"),
      key: masterKey.derive(.journal),
      associatedData: DomainLabel.journalKey.bytes + vaultID.bytes, what: "the journal key")
    let journalPublic = try [UInt8](
      base64: header.journalPublicKey, count: 32, field: "journal_public_key")
    for row in try db.query("SELECT entry_id, kind, meta FROM entries ORDER BY rowid") {
      guard let id = row[0].blob, let kind = row[1].integer, let box = row[2].blob else {
        throw VaultError.integrity(.formatOne(.malformedRow))
      }
      switch kind {
      case 0:
        let plain = try AEAD.open(
          box, key: key, associatedData: DomainLabel.entryMeta.bytes + vaultID.bytes + id,
          what: "the metadata of entry \(id.hex.prefix(8))")
        guard
          let meta = try? plain.withBytes({
            try JSONDecoder().decode(Metadata.self, from: Data($0))
          })
        else { throw VaultError.integrity(.record(.malformedEntryMetadata)) }
        entries.append(
          Entry(
            name: meta.name, created: meta.created, updated: meta.updated, guarded: meta.guarded,
            content: try content(id: id, meta: meta, key: key)))
      case 1:
        let plain = try SealedBox.open(
          box, publicKey: journalPublic, secretKey: journalSecret, what: "journal entry")
        let (stamp, text) = try JournalRecord.decode(plain, vaultID: vaultID, entryID: id)
        journal.append(JournalItem(id: id, stamp: stamp, text: text))
      default:
        throw VaultError.integrity(.formatOne(.unknownRowKind))
      }
    }
    return (entries, journal)
  }

  private func content(id: [UInt8], meta: Metadata, key: SymmetricKey) throws -> SecureBytes {
    let rows = try db.query(
      "SELECT idx, box FROM chunks WHERE entry_id = ? ORDER BY idx", [.blob(id)])
    guard rows.count == meta.chunks else {
      throw VaultError.integrity(.content(name: meta.name, .missingOrExtraChunks))
    }
    let content = SecureBytes(count: meta.length)
    var offset = 0
    for (index, chunk) in rows.enumerated() {
      guard chunk[0].integer == Int64(index), let box = chunk[1].blob else {
        throw VaultError.integrity(.formatOne(.misplacedChunks(name: meta.name)))
      }
      let ad =
        DomainLabel.entryChunk.bytes + vaultID.bytes + id + Array(meta.revision.utf8)
        + Bytes.u32(index) + Bytes.u32(meta.chunks)
      let plain = try AEAD.open(
        box, key: key, associatedData: ad, what: "the content of '\(meta.name)'")
      guard offset + plain.count <= meta.length else {
        throw VaultError.integrity(.formatOne(.longerThanRecorded(name: meta.name)))
      }
      content.write(plain, at: offset)
      offset += plain.count
    }
    guard offset == meta.length else {
      throw VaultError.integrity(.formatOne(.shorterThanRecorded(name: meta.name)))
    }
    return content
  }
}
