import CSQLite
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A vault file: one SQLite database holding the authenticated header and encrypted records.
///
/// Opening reads and parses the header without any key. Unlocking with the PIN or the recovery
/// code yields the master key and verifies the header MAC. See `vault(5)` for the layout.
public final class Vault {
  /// `PRAGMA application_id` of a vault file: ASCII "VAUL".
  public static let applicationID: Int64 = 0x5641_554C
  /// `PRAGMA user_version`: the schema version.
  public static let schemaVersion: Int64 = 1

  /// Path of the database file.
  public let path: String
  /// The environment (paths, clock) the vault was opened in.
  public let environment: VaultEnvironment
  let db: SQLiteDatabase
  /// The parsed header as read from the file (not yet authenticated until an unlock).
  public private(set) var header: Header
  private var headerBody: [UInt8]
  private var headerMAC: [UInt8]

  /// The vault's id.
  public var vaultID: VaultID { header.vaultID }

  /// The device-side store shared with `biosim`.
  public var device: DeviceStore { DeviceStore(environment: environment) }

  /// The PIN attempt limiter for this vault.
  public var limiter: PINLimiter {
    PINLimiter(store: device, vaultID: vaultID, clock: environment.clock)
  }

  private init(path: String, environment: VaultEnvironment, db: SQLiteDatabase) throws {
    self.path = path
    self.environment = environment
    self.db = db
    let appID = try db.query("PRAGMA application_id").first?.first?.integer ?? 0
    let version = try db.query("PRAGMA user_version").first?.first?.integer ?? 0
    guard appID == Self.applicationID else {
      throw VaultError.integrity("\(path) is not a vault file")
    }
    guard version == Self.schemaVersion else { throw VaultError.unsupportedVersion(Int(version)) }
    // Exactly format 1's tables and their indexes: a damaged definition, or an added trigger or
    // view (which could make a write do nothing), is refused before anything is read.
    guard try Schema.objects(of: db) == Schema.expectedObjects() else {
      throw VaultError.integrity(
        "the vault's schema is not format 1's (a table, index or trigger was added, removed or"
          + " changed)")
    }
    guard let row = try db.query("SELECT body, mac FROM header WHERE id = 1").first,
      let body = row[0].blob, let mac = row[1].blob
    else { throw VaultError.malformedHeader("the vault has no header") }
    self.headerBody = body
    self.headerMAC = mac
    self.header = try Header.parse(body)
    try db.execute("PRAGMA synchronous = FULL; PRAGMA secure_delete = ON; PRAGMA foreign_keys = ON")
  }

  /// Opens an existing vault and parses its header.
  ///
  /// - Throws: `VaultError.noVault` when the file is missing, `.integrity` when it is not a vault,
  ///   `.unsupportedVersion` or `.malformedHeader` for a header this build cannot read.
  public static func open(path: String, environment: VaultEnvironment) throws -> Vault {
    guard FileManager.default.fileExists(atPath: path) else { throw VaultError.noVault(path) }
    try FileSafety.checkPrivateFile(path)
    try FileSafety.checkVaultFolder(PrivateFiles.parentFolder(of: path))
    try checkFileHeader(path)
    let db = try SQLiteDatabase(path: path, create: false)
    return try Vault(path: path, environment: environment, db: db)
  }

  /// Checks the SQLite file header is as format 1 writes it.
  ///
  /// The magic string, a rollback journal (write and read versions 1, never WAL) and schema
  /// format 4. SQLite accepts some other values silently; they are damage here.
  ///
  /// - Throws: `VaultError.integrity` naming the byte; `.storage` when the file cannot be read.
  static func checkFileHeader(_ path: String) throws {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw VaultError.storage("cannot read \(path): \(PrivateFiles.errnoText())")
    }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 100)
    let read = pread(fd, &bytes, 100, 0)
    guard read == 100, bytes[0..<16].elementsEqual(Array("SQLite format 3\0".utf8)) else {
      throw VaultError.integrity("\(path) is not a vault file")
    }
    for (offset, expected) in [(18, 1), (19, 1), (44, 0), (45, 0), (46, 0), (47, 4)]
    where bytes[offset] != UInt8(expected) {
      throw VaultError.integrity(
        "the vault file's SQLite header is damaged (byte \(offset) is \(bytes[offset]), not"
          + " \(expected))")
    }
  }

  /// What `create` hands back: the open vault, its master key and the one-time recovery code.
  public struct Created {
    /// The new vault.
    public let vault: Vault
    /// Its master key, for activating biometry in the same command.
    public let masterKey: SymmetricKey
    /// The recovery code in canonical form; show it once with `RecoveryCode.display`.
    public let recoveryCode: SecureBytes
    /// Seconds of one core that one PIN guess costs on this machine (the PIN keyslot's
    /// Argon2id, measured as it ran).
    public let guessSeconds: Double
  }

  /// Refuses a PIN too short to be set.
  ///
  /// - Throws: `VaultError.invalidInput`.
  static func requireNewPIN(_ pin: PIN) throws {
    guard pin.isLongEnoughToSet else {
      throw VaultError.invalidInput(
        "a new PIN needs at least \(PIN.minimumNewLength) characters (a PIN set before still"
          + " unlocks)")
    }
  }

  /// Runs `body`, returning its result and the seconds of CPU time this process spent in it
  /// (`CLOCK_PROCESS_CPUTIME_ID`: what a guess costs one core, whatever else the machine does).
  static func timed<R>(_ body: () throws -> R) rethrows -> (R, Double) {
    func now() -> Double {
      var spec = timespec()
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
      return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
    let start = now()
    let result = try body()
    return (result, now() - start)
  }

  /// Creates a new vault at `path` with a PIN keyslot and a recovery keyslot.
  ///
  /// The file is built under a temporary name and linked into place only when complete, so a
  /// failure leaves nothing behind and an existing vault is never overwritten.
  ///
  /// - Throws: `VaultError.vaultExists`, `.storage` on I/O failure.
  public static func create(
    path: String, pin: PIN, kdf: KDFParameters, policy: Policy, environment: VaultEnvironment
  ) throws -> Created {
    if FileManager.default.fileExists(atPath: path) { throw VaultError.vaultExists(path) }
    try requireNewPIN(pin)
    let folder = PrivateFiles.parentFolder(of: path)
    try PrivateFiles.ensureDirectory(folder)
    try FileSafety.checkVaultFolder(folder)
    let deviceSecret = try DeviceStore(environment: environment).read().deviceSecret

    let vaultID = VaultID.random()
    let masterKey = SymmetricKey.random()
    let pinSalt = Salt.random()
    let (pinKEK, guessSeconds) = try timed {
      try Keyslot.kek(
        type: .pin, secret: pin.bytes, salt: pinSalt, parameters: kdf, vaultID: vaultID,
        deviceSecret: deviceSecret)
    }
    let code = RecoveryCode.generate()
    let recoverySalt = Salt.random()
    let recoveryKEK = try Keyslot.kek(
      type: .recovery, secret: code, salt: recoverySalt, parameters: kdf, vaultID: vaultID,
      deviceSecret: nil)
    let journal = SealedBox.keyPair()
    let journalBox = journal.secretKey.withBytes {
      AEAD.seal(
        $0, key: masterKey.derive(.journal),
        associatedData: DomainLabel.journalKey.bytes + vaultID.bytes)
    }
    let keyslots = [
      Keyslot.make(
        type: .pin, salt: pinSalt, kek: pinKEK, masterKey: masterKey, vaultID: vaultID),
      Keyslot.make(
        type: .recovery, salt: recoverySalt, kek: recoveryKEK, masterKey: masterKey,
        vaultID: vaultID),
    ]
    let header = Header(
      format: Header.currentFormat, vaultID: vaultID, kdf: kdf, policy: policy,
      keyslots: keyslots, journalPublicKey: journal.publicKey.base64,
      journalSecretKey: journalBox.base64, biometry: nil,
      deviceTag: Header.deviceTag(deviceSecret: deviceSecret, vaultID: vaultID),
      slotTag: Header.slotTag(
        deviceSecret: deviceSecret, vaultID: vaultID, kdf: kdf, keyslots: keyslots))
    let body = try header.encoded()

    try Self.createExclusively(path) { temporary in
      let db = try SQLiteDatabase(path: temporary, create: true)
      try db.execute(
        """
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(schemaVersion);
        PRAGMA synchronous = FULL;
        PRAGMA secure_delete = ON;
        """)
      try db.transaction {
        try db.execute(Schema.v1)
        try db.query(
          "INSERT INTO header (id, body, mac) VALUES (1, ?, ?)",
          [.blob(body), .blob(Header.mac(body, masterKey: masterKey))])
      }
    }
    let vault = try open(path: path, environment: environment)
    try vault.device.update {
      vault.recordAuthenticatedHeader(in: &$0)
      $0.guessSeconds[vaultID.hex] = guessSeconds
      $0.shortPINs.remove(vaultID.hex)
    }
    return Created(
      vault: vault, masterKey: masterKey, recoveryCode: code, guessSeconds: guessSeconds)
  }

  /// Builds a file under a temporary name beside `path` with `build`, and links it into place
  /// only when complete: a failure leaves nothing, and an existing file is never overwritten.
  ///
  /// The temporary name is unpredictable and created with `O_CREAT | O_EXCL | O_NOFOLLOW`, mode
  /// 0600, owned by this user; after `build` it must still be that same file (device and inode),
  /// so no file another user planted or swapped in a shared folder is ever used or published.
  ///
  /// - Throws: `VaultError.vaultExists` when `path` exists, `.storage` on failure.
  static func createExclusively(_ path: String, build: (String) throws -> Void) throws {
    let folder = PrivateFiles.parentFolder(of: path)
    let name = String(path.split(separator: "/").last ?? "vault")
    let temporary =
      (folder == "." ? "" : (folder == "/" ? "/" : folder + "/")) + "." + name + ".creating-"
      + SecureBytes.random(count: 12).unprotectedBytes.hex
    let fd = Glibc.open(temporary, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw VaultError.storage("cannot create \(path): \(PrivateFiles.errnoText())")
    }
    defer { close(fd) }
    var created = stat()
    guard fstat(fd, &created) == 0, created.st_uid == geteuid(), fchmod(fd, 0o600) == 0 else {
      unlink(temporary)
      throw VaultError.storage("cannot create a private file beside \(path)")
    }
    do {
      try build(temporary)
    } catch VaultError.storage(let message) {
      unlink(temporary)
      throw VaultError.storage(message.replacingOccurrences(of: temporary, with: path))
    } catch {
      unlink(temporary)
      throw error
    }
    var built = stat()
    guard lstat(temporary, &built) == 0, built.st_mode & S_IFMT == S_IFREG,
      built.st_dev == created.st_dev, built.st_ino == created.st_ino, built.st_uid == geteuid()
    else {
      throw VaultError.storage("the file being built beside \(path) was replaced; nothing was made")
    }
    guard link(temporary, path) == 0 else {
      let reason = errno == EEXIST ? nil : PrivateFiles.errnoText()
      unlink(temporary)
      if let reason { throw VaultError.storage("cannot create \(path): \(reason)") }
      throw VaultError.vaultExists(path)
    }
    unlink(temporary)
    PrivateFiles.syncDirectory(folder)
  }

  /// Writes a consistent copy of the vault file to a new file at `path` (0600), with SQLite's online backup API.
  ///
  /// The copy is as encrypted as the vault; no key is needed.
  ///
  /// - Throws: `VaultError.vaultExists` when `path` exists, `.storage` on failure.
  public func backup(to path: String) throws {
    if FileManager.default.fileExists(atPath: path) { throw VaultError.vaultExists(path) }
    try Self.createExclusively(path) { temporary in try db.backup(to: temporary) }
  }

  /// The checks of a PIN unlock that need no PIN: the slot belongs to this device, its KDF
  /// parameters and keyslots are as this device recorded them, and no PIN delay runs.
  ///
  /// - Returns: the device secret, for the unlock that follows.
  /// - Throws: `VaultError.otherDevice`, `.integrity` (an edited KDF or keyslot), `.pinDelay`.
  public func checkBeforePIN(_ device: DeviceState) throws -> DeviceSecret {
    let deviceSecret = device.deviceSecret
    guard isBound(to: deviceSecret) else { throw VaultError.otherDevice }
    let slotTag = Header.slotTag(
      deviceSecret: deviceSecret, vaultID: vaultID, kdf: header.kdf, keyslots: header.keyslots)
    guard constantTimeEqual(Array(slotTag.utf8), Array(header.slotTag.utf8)) else {
      throw VaultError.integrity(
        "the vault header's KDF parameters or keyslots were edited (they do not match this"
          + " device's record)")
    }
    let wait = limiter.currentDelay(device)
    if wait > 0 { throw VaultError.pinDelay(seconds: wait) }
    return deviceSecret
  }

  /// Checks the PIN against the PIN keyslot, counting the attempt before the KDF runs.
  ///
  /// The count is in the device-side store. This is the PIN check alone: commands go through
  /// `VaultAccess`, which adds the biometric rules.
  ///
  /// - Returns: the master key, after the header MAC has been verified with it.
  /// - Throws: the errors of `checkBeforePIN` (none of them counts as an attempt),
  ///   `VaultError.wrongPIN` or `.wrongPINDelayed` when the slot does not open, `.integrity` when
  ///   the header was edited.
  public func unlock(pin: PIN) throws -> SymmetricKey {
    let deviceSecret = try checkBeforePIN(device.read())
    let limiter = self.limiter
    try limiter.begin()
    guard let slot = header.keyslot(.pin) else { throw VaultError.malformedHeader("no PIN slot") }
    let salt = try slot.saltValue()
    let (kek, seconds) = try Self.timed {
      try Keyslot.kek(
        type: .pin, secret: pin.bytes, salt: salt, parameters: header.kdf, vaultID: vaultID,
        deviceSecret: deviceSecret)
    }
    let masterKey: SymmetricKey
    do {
      masterKey = try slot.open(kek: kek, vaultID: vaultID)
    } catch is Keyslot.WrongKey {
      let tag = GenericHash.keyed(key: kek.bytes, parts: [DomainLabel.pinRepeat.bytes])
      throw try limiter.failed(tag: tag)
    }
    do {
      try verifyHeader(masterKey: masterKey)
    } catch {
      // The PIN was right: it is never counted as wrong because the header was edited.
      try limiter.succeeded()
      throw error
    }
    // One transaction: the count goes back to zero and the authenticated header is recorded.
    let short = !pin.isLongEnoughToSet
    try limiter.succeeded {
      recordAuthenticatedHeader(in: &$0)
      $0.guessSeconds[vaultID.hex] = seconds
      if short { $0.shortPINs.insert(vaultID.hex) } else { $0.shortPINs.remove(vaultID.hex) }
    }
    return masterKey
  }

  /// Opens the recovery keyslot with a canonical recovery code.
  ///
  /// - Throws: `VaultError.wrongRecoveryCode`, or `.integrity` when the header was edited.
  public func unlock(recoveryCode: SecureBytes) throws -> SymmetricKey {
    guard let slot = header.keyslot(.recovery) else {
      throw VaultError.malformedHeader("no recovery slot")
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
    try device.update { recordAuthenticatedHeader(in: &$0) }
    return masterKey
  }

  /// True when the PIN keyslot is bound to `deviceSecret` (the header's device tag matches).
  public func isBound(to deviceSecret: DeviceSecret) -> Bool {
    let tag = Header.deviceTag(deviceSecret: deviceSecret, vaultID: vaultID)
    return constantTimeEqual(Array(tag.utf8), Array(header.deviceTag.utf8))
  }

  /// Records in `state` what this device has authenticated of the header: its journal public
  /// key (so that a journal entry written later without unlocking is never sealed to a key
  /// swapped into the file) and the digest of its bytes (so that the refusals made before any
  /// PIN only trust a header this device has authenticated).
  func recordAuthenticatedHeader(in state: inout DeviceState) {
    state.journalKeys[vaultID.hex] = header.journalPublicKey
    state.headerDigests[vaultID.hex] = Self.digest(headerBody)
  }

  /// BLAKE2b-256 of the stored header bytes, base64 (`crypto_generichash`, RFC 7693).
  static func digest(_ body: [UInt8]) -> String {
    GenericHash.hash(parts: [DomainLabel.header.bytes, body]).base64
  }

  /// True when the header as read is byte for byte one this device authenticated last: only
  /// then are its unauthenticated fields trusted to refuse a command before the PIN.
  public func headerIsAuthenticatedHere(_ state: DeviceState) -> Bool {
    guard let recorded = state.headerDigests[vaultID.hex] else { return false }
    return constantTimeEqual(Array(recorded.utf8), Array(Self.digest(headerBody).utf8))
  }

  /// True when the header stored in the file is still the one this `Vault` read (or last
  /// wrote): no other command changed it meanwhile.
  ///
  /// - Throws: `VaultError.storage` when it cannot be read.
  public func headerIsCurrent() throws -> Bool {
    guard let row = try db.query("SELECT body, mac FROM header WHERE id = 1").first,
      let body = row[0].blob, let mac = row[1].blob
    else { return false }
    return body == headerBody && mac == headerMAC
  }

  /// Reads the header again from the file, after another command changed it.
  ///
  /// - Throws: as `open`: `.malformedHeader`, `.unsupportedVersion`, `.storage`.
  func reloadHeader() throws {
    guard let row = try db.query("SELECT body, mac FROM header WHERE id = 1").first,
      let body = row[0].blob, let mac = row[1].blob
    else { throw VaultError.malformedHeader("the vault has no header") }
    header = try Header.parse(body)
    headerBody = body
    headerMAC = mac
  }

  /// Verifies the header MAC in constant time.
  ///
  /// - Throws: `VaultError.integrity` when it does not match.
  public func verifyHeader(masterKey: SymmetricKey) throws {
    guard constantTimeEqual(Header.mac(headerBody, masterKey: masterKey), headerMAC) else {
      throw VaultError.integrity("the vault header failed authentication (the file was edited)")
    }
  }

  /// Replaces the header, authenticated under `masterKey`, in one durable transaction, only if
  /// the stored header is still the one this `Vault` read: a command never writes back a stale
  /// copy over another's change (which could bring an old PIN back).
  ///
  /// - Throws: `VaultError.vaultChanged` when another command changed the header meanwhile;
  ///   `.storage` on failure. The old header then stays in place.
  public func writeHeader(_ newHeader: Header, masterKey: SymmetricKey) throws {
    let body = try newHeader.encoded()
    let mac = Header.mac(body, masterKey: masterKey)
    try db.transaction {
      try db.query(
        "UPDATE header SET body = ?, mac = ? WHERE id = 1 AND body = ? AND mac = ?",
        [.blob(body), .blob(mac), .blob(headerBody), .blob(headerMAC)])
      guard db.changes == 1 else {
        throw VaultError.vaultChanged("another command changed its header first")
      }
    }
    header = newHeader
    headerBody = body
    headerMAC = mac
    try device.update { recordAuthenticatedHeader(in: &$0) }
  }

  /// Re-wraps the master key under a new PIN bound to this machine's device secret, with a fresh
  /// salt, and revokes every session of the vault: a rule, not a choice of the caller.
  ///
  /// The old PIN stops working. The recovery slot is unchanged.
  ///
  /// - Returns: the seconds of one core that one guess of the new PIN costs here.
  /// - Throws: `VaultError.invalidInput` for a PIN shorter than `PIN.minimumNewLength`,
  ///   `.vaultChanged`, `.storage` on failure.
  @discardableResult
  public func setPIN(_ pin: PIN, masterKey: SymmetricKey) throws -> Double {
    try Self.requireNewPIN(pin)
    let deviceSecret = try device.read().deviceSecret
    let salt = Salt.random()
    let (kek, seconds) = try Self.timed {
      try Keyslot.kek(
        type: .pin, secret: pin.bytes, salt: salt, parameters: header.kdf, vaultID: vaultID,
        deviceSecret: deviceSecret)
    }
    var updated = header
    updated.deviceTag = Header.deviceTag(deviceSecret: deviceSecret, vaultID: vaultID)
    updated.keyslots = updated.keyslots.map {
      $0.type == .pin
        ? Keyslot.make(type: .pin, salt: salt, kek: kek, masterKey: masterKey, vaultID: vaultID)
        : $0
    }
    updated.slotTag = Header.slotTag(
      deviceSecret: deviceSecret, vaultID: vaultID, kdf: updated.kdf, keyslots: updated.keyslots)
    try writeHeader(updated, masterKey: masterKey)
    try limiter.succeeded {
      $0.guessSeconds[vaultID.hex] = seconds
      $0.shortPINs.remove(vaultID.hex)
    }
    try SessionStore(environment: environment).revokeAll(vaultID: vaultID)
    return seconds
  }
}
