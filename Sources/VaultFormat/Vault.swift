import CSQLite
import FoundationEssentials
import Glibc
import Synchronization
import VaultCrypto

/// A format-2 vault file: one SQLite database holding the authenticated header, the records and
/// the state that authenticates them as a whole.
///
/// Opening reads and parses the header without any key. Unlocking with the PIN or the recovery
/// code yields the master key and verifies the header MAC; `verifyState` then verifies the state.
/// See `vault(5)` for the layout.
public final class Vault {
  /// `PRAGMA application_id` of a vault file: ASCII "VAUL".
  public static let applicationID: Int64 = 0x5641_554C
  /// `PRAGMA page_size` of a new vault (16 KiB): a streamed content's 64 KiB chunks take a
  /// quarter of the page writes of SQLite's default 4096, while a small change still writes
  /// few bytes.
  public static let pageSize = 16384
  /// `PRAGMA user_version`: the schema version of format 2.
  public static let schemaVersion: Int64 = 2

  /// Path of the database file.
  public let path: String
  /// The environment (paths, clock) the vault was opened in.
  public let environment: VaultEnvironment
  package let db: SQLiteDatabase
  /// The parsed header as read from the file (not yet authenticated until an unlock).
  public package(set) var header: Header
  package var headerBody: [UInt8]
  package var headerMAC: [UInt8]
  /// The newest state this process verified or wrote; nil before `verifyState`.
  package var verifiedState: StateLink?
  /// A recovery slot migrated from format 1 with the verifier and tag of the code that just
  /// opened it, written with the next PIN.
  package var completedRecovery: RecoverySlot?
  /// The enrollment key of the recovery code that opened the vault in this process (`vault(5)`
  /// ENROLLMENT), for the record the next PIN makes; nil after any other unlock.
  package var enrollmentSigner: SigningKeyPair?
  /// How many writes (`write(masterKey:_:)`, a journal entry's pending row) this process
  /// committed, to any vault: a command that sees the count grow while it runs changed
  /// something to sync (`vault config sync.auto`).
  public static var committedWrites: Int { writeCount.load(ordering: .relaxed) }
  private static let writeCount = Atomic<Int>(0)

  /// Counts one committed write (`committedWrites`).
  package static func countCommittedWrite() { writeCount.add(1, ordering: .relaxed) }
  /// This device's X25519 secret key (guarded memory), once a PIN unlock in this process opened it.
  ///
  /// What taking a master key rotated on another device needs (`vault(5)` Taking a rotation).
  /// Nil after an unlock by a session, the agent or the recovery code.
  package var deviceSecretKey: SecureBytes?

  /// The vault's id.
  public var vaultID: VaultID { header.vaultID }

  /// The device-side store shared with `biosim`.
  public var device: DeviceStore { DeviceStore(environment: environment) }

  /// The PIN attempt limiter for this vault.
  public var limiter: PINLimiter {
    PINLimiter(store: device, vaultID: vaultID, clock: environment.clock)
  }

  /// This device's secret, read once (nil when the device state cannot be read).
  private lazy var deviceSecret: DeviceSecret? = try? device.read().deviceSecret

  /// This device's record in the header, if it has one.
  public var localDevice: DeviceRecord? { deviceSecret.flatMap(header.device(for:)) }

  /// The policy this device unlocks under.
  ///
  /// Its own record's `policy`, else the header's (`vault(5)` DEVICES). No other device and no
  /// remote changes it.
  public var policy: Policy { localDevice?.policy ?? header.policy }

  /// This device's biometric activation record, as the header holds it.
  public var biometry: BiometryRecord? { localDevice?.biometry }

  init(path: String, environment: VaultEnvironment, db: SQLiteDatabase) throws {
    self.path = path
    self.environment = environment
    self.db = db
    try Schema.check(db, version: Self.schemaVersion)
    (headerBody, headerMAC) = try Self.readHeaderRow(db)
    header = try Header.parse(headerBody)
    try db.execute("PRAGMA synchronous = FULL; PRAGMA secure_delete = ON")
  }

  package static func readHeaderRow(_ db: SQLiteDatabase) throws -> (body: [UInt8], mac: [UInt8]) {
    guard let row = try db.query("SELECT body, mac FROM header WHERE id = 1").first,
      let body = row[0].blob, let mac = row[1].blob
    else { throw VaultError.malformedHeader(.body(.missing)) }
    return (body, mac)
  }

  /// What `openAny` found: a vault of this format, or one of format 1 to migrate.
  public enum Opened {
    /// A format-2 vault.
    case current(Vault)
    /// A format-1 vault (release 0.1.0), migrated at its next unlock.
    case formatOne(FormatOneVault)
  }

  /// Opens an existing vault of format 2 or 1 and parses its header.
  ///
  /// - Throws: `VaultError.noVault` when the file is missing, `.unsafePermissions` for a file or
  ///   folder others can reach, `.integrity` when it is not a vault, its schema was changed, or
  ///   it is a format-1 copy of a vault this device has seen in format 2; `.unsupportedVersion`
  ///   or `.malformedHeader` for a header this build cannot read.
  public static func openAny(path: String, environment: VaultEnvironment) throws -> Opened {
    guard FileManager.default.fileExists(atPath: path) else { throw VaultError.noVault(path) }
    try FileSafety.checkPrivateFile(path)
    try FileSafety.checkVaultFolder(PrivateFiles.parentFolder(of: path))
    try checkFileHeader(path)
    let db = try SQLiteDatabase(
      path: path, create: false, lockWaitLimit: environment.lockWaitLimit)
    let appID = try db.query("PRAGMA application_id").first?.first?.integer ?? 0
    guard appID == applicationID else {
      throw VaultError.integrity(.notAVaultFile(path: path))
    }
    let version = try db.query("PRAGMA user_version").first?.first?.integer ?? 0
    switch version {
    case schemaVersion: return .current(try Vault(path: path, environment: environment, db: db))
    case FormatOneVault.schemaVersion:
      return .formatOne(try FormatOneVault(path: path, environment: environment, db: db))
    default: throw VaultError.unsupportedVersion(Int(version))
    }
  }

  /// Opens an existing format-2 vault; a format-1 vault must first be unlocked (which migrates
  /// it) through `VaultAccess`.
  ///
  /// - Throws: as `openAny`, and `VaultError.locked` for a format-1 vault.
  public static func open(path: String, environment: VaultEnvironment) throws -> Vault {
    switch try openAny(path: path, environment: environment) {
    case .current(let vault): return vault
    case .formatOne: throw VaultError.formatOneNeedsUnlock
    }
  }

  /// Checks the SQLite file header is as the format writes it.
  ///
  /// The magic string, a rollback journal (write and read versions 1, never WAL) and schema
  /// format 4. SQLite accepts some other values silently; they are damage here.
  ///
  /// - Throws: `VaultError.integrity` naming the byte; `.storage` when the file cannot be read.
  static func checkFileHeader(_ path: String) throws {
    let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw VaultError.storage(.file(.read, path: path))
    }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: 100)
    let read = pread(fd, &bytes, 100, 0)
    guard read == 100, bytes[0..<16].elementsEqual(Array("SQLite format 3\0".utf8)) else {
      throw VaultError.integrity(.notAVaultFile(path: path))
    }
    for (offset, expected) in [(18, 1), (19, 1), (44, 0), (45, 0), (46, 0), (47, 4)]
    where bytes[offset] != UInt8(expected) {
      throw VaultError.integrity(
        .sqliteHeader(byte: offset, found: bytes[offset], expected: UInt8(expected)))
    }
  }

  /// Writes a consistent copy of the vault file to a new file at `path` (0600), with SQLite's
  /// online backup API.
  ///
  /// The copy is as encrypted as the vault; no key is needed.
  ///
  /// - Throws: `VaultError.vaultExists` when `path` exists, `.storage` on failure.
  public func backup(to path: String) throws {
    if FileManager.default.fileExists(atPath: path) { throw VaultError.vaultExists(path) }
    try Self.createExclusively(path) { temporary in try db.backup(to: temporary) }
  }

  /// True when a device record of the header is `deviceSecret`'s.
  public func isBound(to deviceSecret: DeviceSecret) -> Bool {
    header.device(for: deviceSecret) != nil
  }

  /// Records in `state` what this device has authenticated of the header: its journal public
  /// key (so that a journal entry written later without unlocking is never sealed to a key
  /// swapped into the file) and the digest of its bytes (so that the refusals made before any
  /// PIN only trust a header this device has authenticated).
  package func recordAuthenticatedHeader(in state: inout DeviceState) {
    state.journalKeys[vaultID.hex] = header.journalPublicKey
    state.headerDigests[vaultID.hex] = Header.digest(headerBody).base64
  }

  /// True when the header as read is byte for byte one this device authenticated last: only
  /// then are its unauthenticated fields trusted to refuse a command before the PIN.
  public func headerIsAuthenticatedHere(_ state: DeviceState) -> Bool {
    guard let recorded = state.headerDigests[vaultID.hex] else { return false }
    return constantTimeEqual(Array(recorded.utf8), Array(Header.digest(headerBody).base64.utf8))
  }

  /// True when `masterKey` authenticates the newest state's link (BLAKE2b MAC under its state
  /// subkey, vault(5) STATE CHAIN), which never covers the header's MAC: the key is this
  /// vault's current one, so a header it does not authenticate was damaged, not rotated.
  ///
  /// False when the states table cannot be read or its newest link is malformed.
  package func isCurrentKey(_ masterKey: SymmetricKey) -> Bool {
    stateVerifies(masterKey: masterKey, vaultID: vaultID)
  }

  /// True when the newest state link of the file verifies under `masterKey` as the state of the
  /// vault `vaultID` (which need not be the header's): a held key's check that the file is still
  /// the vault it was unlocked for, whatever its header now says.
  package func stateVerifies(masterKey: SymmetricKey, vaultID: VaultID) -> Bool {
    guard
      let row = try? db.query(
        "SELECT generation, previous, summary, mac FROM states ORDER BY generation DESC LIMIT 1"
      ).first, let link = StateSnapshot.link(row)
    else { return false }
    return link.verifies(key: masterKey.derive(.state), vaultID: vaultID)
  }

  /// True when the header stored in the file is still the one this `Vault` read (or last
  /// wrote): no other command changed it meanwhile.
  ///
  /// - Throws: `VaultError.storage` when it cannot be read.
  public func headerIsCurrent() throws -> Bool {
    guard let row = try? Self.readHeaderRow(db) else { return false }
    return row.body == headerBody && row.mac == headerMAC
  }

  /// Reads the header again from the file, after another command changed it.
  ///
  /// - Throws: as `open`: `.malformedHeader`, `.unsupportedVersion`, `.storage`.
  package func reloadHeader() throws {
    let row = try Self.readHeaderRow(db)
    header = try Header.parse(row.body)
    headerBody = row.body
    headerMAC = row.mac
  }

  /// Verifies the header MAC in constant time.
  ///
  /// - Throws: `VaultError.integrity` when it does not match.
  public func verifyHeader(masterKey: SymmetricKey) throws {
    guard constantTimeEqual(Header.mac(headerBody, masterKey: masterKey), headerMAC) else {
      throw VaultError.integrity(.headerFailedAuthentication)
    }
  }

  /// Replaces the header, authenticated under `masterKey`, in one durable write that makes a new
  /// state, only if the stored header is still the one this `Vault` read: a command never writes
  /// back a stale copy over another's change (which could bring an old PIN back).
  ///
  /// - Throws: `VaultError.vaultChanged` when another command changed the header meanwhile;
  ///   the errors of `write`. The old header then stays in place.
  public func writeHeader(_ newHeader: Header, masterKey: SymmetricKey) throws {
    var newHeader = newHeader
    // The write changes a header without it first (`StateWrite.migrateChunkHash`).
    newHeader.chunkHash = .tag
    let body = try newHeader.encoded()
    let mac = Header.mac(body, masterKey: masterKey)
    try write(masterKey: masterKey) { change in
      try change.replaceHeader(expecting: (headerBody, headerMAC), with: (body, mac))
    }
    header = newHeader
    headerBody = body
    headerMAC = mac
    try device.update { recordAuthenticatedHeader(in: &$0) }
  }
}
