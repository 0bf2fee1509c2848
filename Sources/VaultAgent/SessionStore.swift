import FoundationEssentials
import Glibc
import VaultCrypto
import VaultFormat

/// Unlock sessions: a 256-bit token held by the shell, a file holding the master key wrapped under
/// a key derived from that token.
///
/// Files live in `<session dir>/<vault id hex>/<session id hex>` (folders 0700, files 0600), each
/// one `SessionRecord` of `recordByteCount` bytes whose box authenticates every field; the
/// session id is a keyed hash of the token, so the folder does not reveal tokens. Age is measured on
/// the boot clock (`CLOCK_BOOTTIME`), so setting the wall clock back never extends a session, and
/// the boot id ends every session at reboot. Revoking removes the vault's whole folder.
public struct SessionStore: Sendable {
  /// Default idle timeout: 15 minutes.
  public static let defaultIdle: Double = 15 * 60
  /// Hard limit from issue: 8 hours.
  public static let hardLimit: Double = 8 * 3600
  /// A use renews the idle timer when the last renewal is at least this old (seconds), or a
  /// quarter of the idle timeout when that is shorter (`renewalInterval(idle:)`): reads stay
  /// free of writes, and a session may end up to this much before its full idle timeout.
  public static let renewalInterval: Double = 60

  /// How old the last renewal of a session with an idle timeout of `idle` seconds must be for a
  /// use to renew it (milliseconds): `renewalInterval`, or a quarter of `idle` when that is
  /// shorter, so a session used more often than its timeout never ends while it is used.
  static func renewalMilliseconds(idle: UInt32) -> UInt64 {
    min(UInt64(renewalInterval * 1000), UInt64(idle) * 1000 / 4)
  }

  /// Size in bytes of every session file (`vault(5)`, SESSIONS).
  public static let recordByteCount = SessionRecord.byteCount

  let environment: VaultEnvironment
  /// The folder of the session files: `environment.sessionDirectory`, or the other folder a
  /// session may have been issued in (`revokeAll(vaultID:vaultPath:)`).
  let directory: String

  /// Sessions in `environment.sessionDirectory`.
  public init(environment: VaultEnvironment) {
    self.init(environment: environment, directory: environment.sessionDirectory)
  }

  private init(environment: VaultEnvironment, directory: String) {
    self.environment = environment
    self.directory = directory
  }

  /// Every folder a session of this user may be in: this environment's, the usual runtime folder
  /// `/run/user/UID/vault`, and the fallback under the state folder (used by a shell without
  /// `XDG_RUNTIME_DIR`).
  var everyDirectory: [String] {
    var all = [directory]
    for other in ["/run/user/\(getuid())/vault", environment.stateDirectory + "/sessions"]
    where !all.contains(other) {
      all.append(other)
    }
    return all
  }

  private var clock: Clock { environment.clock }

  func folder(_ vaultID: VaultID) -> String {
    directory + "/" + vaultID.hex
  }

  static func tokenKey(_ token: SecureBytes, vaultID: VaultID) -> SymmetricKey {
    SymmetricKey(
      GenericHash.keyedSecret(
        key: token, parts: [DomainLabel.sessionKey.bytes, vaultID.bytes]))
  }

  /// BLAKE2b-16 keyed with the token: the file's name, in hex.
  static func sessionID(_ token: SecureBytes) -> [UInt8] {
    GenericHash.keyed(key: token, parts: [DomainLabel.sessionID.bytes], outputLength: 16)
  }

  /// BLAKE2b-16 of the boot id's text: the record's `boot`.
  static func bootHash(_ bootID: String) -> [UInt8] {
    GenericHash.hash(parts: [DomainLabel.sessionBoot.bytes, Array(bootID.utf8)], outputLength: 16)
  }

  /// BLAKE2b-16 of an absolute vault path: the record's `path`.
  static func pathHash(_ absolutePath: String) -> [UInt8] {
    GenericHash.hash(
      parts: [DomainLabel.sessionPath.bytes, Array(absolutePath.utf8)], outputLength: 16)
  }

  /// The box's associated data: the label, the session id and every field before the box.
  static func associatedData(sessionID: [UInt8], record: SessionRecord) -> [UInt8] {
    DomainLabel.session.bytes + sessionID + record.prefix
  }

  /// `seconds` of the boot clock as whole milliseconds, within what a record may hold.
  static func milliseconds(_ seconds: Double) -> UInt64 {
    guard seconds.isFinite, seconds > 0 else { return 0 }
    return UInt64(min(seconds * 1000, Double(SessionRecord.maximumTime)))
  }

  /// Seals `masterKey` into `record`, whose other fields are final.
  private static func sealed(
    _ record: SessionRecord, masterKey: SecureBytes, token: SecureBytes, vaultID: VaultID,
    sessionID: [UInt8]
  ) -> SessionRecord {
    var out = record
    out.box = masterKey.withBytes {
      AEAD.seal(
        $0, key: tokenKey(token, vaultID: vaultID),
        associatedData: associatedData(sessionID: sessionID, record: record))
    }
    return out
  }

  /// Issues a session for `masterKey`, bound to the vault file at `vaultPath`.
  ///
  /// - Parameter idle: idle timeout in seconds (renewed on use), from 1 to the hard limit
  ///   (clamped to it, whole seconds).
  /// - Returns: the token as 64 lower-case hex digits.
  /// - Throws: `VaultError.storage` when the session file cannot be written.
  public func issue(
    vaultID: VaultID, masterKey: SymmetricKey, idle: Double, vaultPath: String
  ) throws -> String {
    let token = SecureBytes.random(count: 32)
    let id = Self.sessionID(token)
    let now = Self.milliseconds(clock.bootNow)
    let idleSeconds = idle.isFinite ? UInt32(max(1, min(idle, Self.hardLimit))) : 1
    let record = Self.sealed(
      SessionRecord(
        vaultID: vaultID.bytes, boot: Self.bootHash(clock.bootID),
        path: Self.pathHash(Self.absolute(vaultPath)), created: now, lastUsed: now,
        idle: idleSeconds, hard: UInt32(Self.hardLimit), box: []),
      masterKey: masterKey.bytes, token: token, vaultID: vaultID, sessionID: id)
    try PrivateFiles.ensurePrivateDirectory(directory)
    try PrivateFiles.ensurePrivateDirectory(folder(vaultID))
    try PrivateFiles.atomicWrite(record.bytes, to: folder(vaultID) + "/" + id.hex)
    clearRevocation(vaultID)
    return token.unprotectedBytes.hex
  }

  /// Seconds left before a session ends: the earlier of idle expiry and the hard limit.
  public struct Expiry: Equatable, Sendable {
    /// Seconds until the idle timeout.
    public var idle: Int
    /// Seconds until the hard limit.
    public var hard: Int

    /// Seconds left on each timer.
    public init(idle: Int, hard: Int) {
      self.idle = idle
      self.hard = hard
    }
  }

  /// Opens the session named by `token`, renews its idle timer and returns the master key.
  ///
  /// The record's bounds are checked first, then its vault id, then its box (whose associated
  /// data covers every field), and only then its timers against the clock.
  ///
  /// - Parameter vaultPath: the vault file, to tell a vault id changed in its header from an
  ///   unknown token; nil skips that check.
  /// - Throws: `VaultError.locked` when the token is malformed, unknown, revoked, from before a
  ///   reboot, or expired (the file is then removed), or when its file is a JSON session of
  ///   release 0.1 or 0.2 (removed, never parsed); `.integrity` when the file is malformed (size,
  ///   magic, version, a field out of bounds), holds another vault's id, or its box does not open
  ///   (a field was edited), or when the header's vault id changed since the session was issued;
  ///   `.unsafePermissions` for a session folder or file others could use.
  public func open(
    token text: String, vaultID: VaultID, vaultPath: String? = nil, renew: Bool = true
  ) throws
    -> (masterKey: SymmetricKey, expiry: Expiry)
  {
    guard let token = Self.parseToken(text) else {
      throw VaultError.locked(.malformedSessionToken)
    }
    let id = Self.sessionID(token)
    let path = folder(vaultID) + "/" + id.hex
    // A session folder others can use or replace is refused, never read.
    var info = stat()
    if lstat(folder(vaultID), &info) == 0 {
      try FileSafety.checkPrivateFolder(directory)
      try FileSafety.checkPrivateFolder(folder(vaultID))
      if lstat(path, &info) == 0 { try FileSafety.checkPrivateFile(path) }
    }
    guard let raw = try PrivateFiles.read(path) else {
      if let vaultPath, !filesIssued(for: vaultPath, id: id.hex).isEmpty {
        throw VaultError.integrity(.session(.vaultIDChanged))
      }
      if let reason = revocation(of: vaultID) {
        throw VaultError.locked(.sessionsRevoked(reason, noTerminal: false))
      }
      throw VaultError.locked(.sessionUnknown)
    }
    // The file of this token exists: anything unreadable or out of bounds in it is damage.
    let record: SessionRecord
    switch SessionRecord.parse(raw) {
    case .olderRelease:
      unlink(path)
      throw Self.olderRelease
    case .malformed:
      throw VaultError.integrity(.session(.malformed(path: path)))
    case .record(let parsed):
      record = parsed
    }
    guard constantTimeEqual(record.vaultID, vaultID.bytes) else {
      throw VaultError.integrity(.session(.anotherVaultsID(path: path)))
    }
    guard
      let key = try? AEAD.open(
        record.box, key: Self.tokenKey(token, vaultID: vaultID),
        associatedData: Self.associatedData(sessionID: id, record: record), what: "session"),
      key.count == SymmetricKey.byteCount
    else {
      throw VaultError.integrity(.session(.failedAuthentication(path: path)))
    }
    // Every field is authenticated and within bounds: the arithmetic below cannot overflow.
    let now = Self.milliseconds(clock.bootNow)
    let expired =
      !constantTimeEqual(record.boot, Self.bootHash(clock.bootID)) || now < record.lastUsed
      || now - record.lastUsed > UInt64(record.idle) * 1000
      || now - record.created > UInt64(record.hard) * 1000
    if expired {
      unlink(path)
      throw VaultError.locked(.sessionExpired)
    }
    // Renewed lazily (at most once per `renewalMilliseconds`) and never at the cost of the read:
    // a full disk or a file-size limit must not turn a read into a failure.
    var current = record
    if renew && now - record.lastUsed >= Self.renewalMilliseconds(idle: record.idle) {
      var renewed = record
      renewed.lastUsed = now
      renewed = Self.sealed(renewed, masterKey: key, token: token, vaultID: vaultID, sessionID: id)
      if (try? PrivateFiles.atomicWrite(renewed.bytes, to: path)) != nil { current = renewed }
    }
    let idleLeft = Int64(current.idle) * 1000 - Int64(now - current.lastUsed)
    let hardLeft = Int64(current.hard) * 1000 - Int64(now - current.created)
    return (SymmetricKey(key), Expiry(idle: Int(idleLeft / 1000), hard: Int(hardLeft / 1000)))
  }

  /// The refusal of a session file written by release 0.1 or 0.2 (a JSON object).
  static let olderRelease = VaultError.locked(.sessionFromOlderRelease)

  /// Parses the bytes of a session file as `open` does, without opening anything: for fuzzing and
  /// diagnostics.
  ///
  /// - Throws: `VaultError.locked` for a JSON session of release 0.1 or 0.2 (not parsed);
  ///   `VaultError.integrity` when they are not a well-formed record of `recordByteCount` bytes.
  public static func checkRecord(_ bytes: [UInt8]) throws {
    switch SessionRecord.parse(bytes) {
    case .olderRelease: throw olderRelease
    case .malformed: throw VaultError.integrity(.session(.malformed(path: nil)))
    case .record: return
    }
  }

  /// The absolute form of `path` (its folder resolved), as sessions record it.
  public static func absolute(_ path: String) -> String {
    let folder = PrivateFiles.parentFolder(of: path)
    let name = String(path.split(separator: "/").last ?? Substring(path))
    guard let resolved = realpath(folder, nil) else { return path }
    defer { free(resolved) }
    let base = String(cString: resolved)
    return (base == "/" ? "" : base) + "/" + name
  }

  /// The session files, one per vault-id folder, that were issued for the vault file at
  /// `vaultPath`.
  ///
  /// Their `path` is the hash of its absolute form; with `id` (hex), only that session's file is
  /// looked at. What `vault lock` revokes, and what a vault id changed in the header leaves
  /// behind. Files that are not well-formed records are passed over.
  func filesIssued(for vaultPath: String, id: String? = nil) -> [(folder: String, file: String)] {
    let target = Self.pathHash(Self.absolute(vaultPath))
    let root = directory
    let manager = FileManager.default
    var found: [(folder: String, file: String)] = []
    for folder in (try? manager.contentsOfDirectory(atPath: root)) ?? []
    where folder.count == 2 * VaultID.byteCount {
      let files =
        id.map { [$0] } ?? (try? manager.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
      let issued = files.first { file in
        guard let raw = try? PrivateFiles.read(root + "/" + folder + "/" + file),
          case .record(let record) = SessionRecord.parse(raw)
        else { return false }
        return constantTimeEqual(record.path, target)
      }
      if let issued { found.append((folder, issued)) }
    }
    return found
  }

  /// Why every session of a vault was revoked (`SessionRevocation`, in the format module with
  /// the lock reasons that carry it).
  public typealias Revocation = SessionRevocation

  /// Removes every session of the vault in every session folder of this user, winning against
  /// any concurrent renewal, has the unlock agent let the vault go (`AgentClient.forget`), and
  /// records `reason` (nil: nothing to say, as for an activation, which follows a disable that
  /// said it already, or a new vault's first one).
  ///
  /// - Throws: `VaultError.storage` when the folder cannot be moved out of the way.
  public func revokeAll(vaultID: VaultID, reason: Revocation?) throws {
    AgentClient(environment: environment).forget(vaultID: vaultID, vaultPath: nil)
    for directory in everyDirectory {
      try SessionStore(environment: environment, directory: directory).revokeFolder(
        vaultID: vaultID)
    }
    if let reason { record(reason, vaultID: vaultID) }
  }

  private func markerPath(_ vaultID: VaultID) -> String {
    directory + "/" + vaultID.hex + ".revoked"
  }

  /// Best effort: a marker that cannot be written only makes a later message less precise.
  private func record(_ reason: Revocation, vaultID: VaultID) {
    guard (try? PrivateFiles.ensurePrivateDirectory(directory)) != nil else { return }
    try? PrivateFiles.atomicWrite([reason.rawValue], to: markerPath(vaultID))
  }

  /// Forgets the last revocation's reason (a new unlock), in every session folder.
  public func clearRevocation(_ vaultID: VaultID) {
    for directory in everyDirectory { unlink(directory + "/" + vaultID.hex + ".revoked") }
  }

  /// Why every session of the vault was last revoked, when no unlock came since.
  public func revocation(of vaultID: VaultID) -> Revocation? {
    guard (try? FileSafety.checkPrivateFolder(directory)) != nil,
      let bytes = try? PrivateFiles.read(markerPath(vaultID)), bytes.count == 1
    else { return nil }
    return Revocation(rawValue: bytes[0])
  }

  private func revokeFolder(vaultID: VaultID) throws {
    let path = folder(vaultID)
    // The folder is first renamed out of the way, in one step: a renewal racing this can no
    // longer put a session file back (it writes by path into a folder that is gone), so the
    // revocation always wins. The renamed folder is then removed.
    let doomed = path + ".revoked-" + SecureBytes.random(count: 8).unprotectedBytes.hex
    guard rename(path, doomed) == 0 else {
      if errno == ENOENT { return }
      throw VaultError.storage(.sessionsNotRevoked(folder: path, errno: errno))
    }
    PrivateFiles.syncDirectory(directory)
    try? FileManager.default.removeItem(atPath: doomed)
  }

  /// Removes every session of the vault id and every session issued for the vault file at
  /// `vaultPath` under any other id, in every session folder of this user (`everyDirectory`),
  /// and has the agent let go of both: what `vault lock` does, since without the key the
  /// header's vault id is not authenticated.
  ///
  /// - Throws: as `revokeAll(vaultID:reason:)`.
  public func revokeAll(vaultID: VaultID, vaultPath: String, reason: Revocation) throws {
    AgentClient(environment: environment).forget(vaultID: vaultID, vaultPath: vaultPath)
    for directory in everyDirectory {
      let store = SessionStore(environment: environment, directory: directory)
      try store.revokeFolder(vaultID: vaultID)
      for (folder, _) in store.filesIssued(for: vaultPath) {
        try store.revokeFolder(vaultID: VaultID(hexDigits: folder))
      }
    }
    record(reason, vaultID: vaultID)
  }

  /// Ends one session (its file is removed); unknown tokens are ignored.
  public func revoke(token: String, vaultID: VaultID) {
    if let path = path(token: token, vaultID: vaultID) { unlink(path) }
  }

  /// The session file path for a token (for tests and diagnostics).
  public func path(token text: String, vaultID: VaultID) -> String? {
    Self.parseToken(text).map { folder(vaultID) + "/" + Self.sessionID($0).hex }
  }

  static func parseToken(_ text: String) -> SecureBytes? {
    let digits = Array(text.utf8)
    guard digits.count == 64 else { return nil }
    let out = SecureBytes(count: 32)
    for index in 0..<32 {
      guard let high = hexValue(digits[2 * index]), let low = hexValue(digits[2 * index + 1])
      else { return nil }
      out[index] = high << 4 | low
    }
    return out
  }

  private static func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
