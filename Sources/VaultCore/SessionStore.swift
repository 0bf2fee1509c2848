import Foundation

/// Unlock sessions: a 256-bit token held by the shell, a file holding the master key wrapped under
/// a key derived from that token.
///
/// Files live in `<session dir>/<vault id hex>/<session id>` (folders 0700, files 0600); the
/// session id is a keyed hash of the token, so the folder does not reveal tokens. Age is measured on
/// the boot clock (`CLOCK_BOOTTIME`), so setting the wall clock back never extends a session, and
/// the boot id ends every session at reboot. Revoking removes the vault's whole folder.
public struct SessionStore: Sendable {
  /// Default idle timeout: 15 minutes.
  public static let defaultIdle: Double = 15 * 60
  /// Hard limit from issue: 8 hours.
  public static let hardLimit: Double = 8 * 3600
  /// A use renews the idle timer when the last renewal is at least this old (seconds): reads
  /// stay free of writes, and a session may end up to this much before its full idle timeout.
  public static let renewalInterval: Double = 30

  struct Record: Codable {
    var vaultId: String
    var bootId: String
    var created: Double
    var lastUsed: Double
    var idle: Double
    var hard: Double
    var wrapped: String
    /// The vault file's absolute path when the session was issued (absent in sessions of
    /// release 0.1.0): tells a damaged vault id from a token of another vault.
    var vaultPath: String?

    /// True when the timers are within what `issue` writes.
    ///
    /// Boot-clock times from 0 to about 300 years, an idle timeout of at least a second, and
    /// neither it nor the hard limit beyond 8 hours. Checked before any arithmetic, so a damaged
    /// file is reported, never a trap.
    var isWellFormed: Bool {
      let times = 0...1e10
      let limits = 1...SessionStore.hardLimit
      return times.contains(created) && times.contains(lastUsed) && created <= lastUsed
        && limits.contains(idle) && limits.contains(hard)
    }
  }

  let environment: VaultEnvironment

  /// Sessions in `environment.sessionDirectory`.
  public init(environment: VaultEnvironment) {
    self.environment = environment
  }

  private var clock: Clock { environment.clock }

  func folder(_ vaultID: VaultID) -> String {
    environment.sessionDirectory + "/" + vaultID.hex
  }

  private static func tokenKey(_ token: SecureBytes, vaultID: VaultID) -> SymmetricKey {
    SymmetricKey(
      GenericHash.keyedSecret(
        key: token, parts: [DomainLabel.sessionKey.bytes, vaultID.bytes]))
  }

  private static func sessionID(_ token: SecureBytes) -> String {
    GenericHash.keyed(key: token, parts: [DomainLabel.sessionID.bytes], outputLength: 16).hex
  }

  private static func associatedData(_ vaultID: VaultID, _ id: String) -> [UInt8] {
    DomainLabel.session.bytes + vaultID.bytes + Array(id.utf8)
  }

  /// Issues a session for `masterKey`.
  ///
  /// - Parameter idle: idle timeout in seconds (renewed on every use), at most the hard limit.
  /// - Returns: the token as 64 lower-case hex digits.
  /// - Throws: `VaultError.storage` when the session file cannot be written.
  public func issue(
    vaultID: VaultID, masterKey: SymmetricKey, idle: Double, vaultPath: String? = nil
  ) throws -> String {
    let token = SecureBytes.random(count: 32)
    let id = Self.sessionID(token)
    let box = masterKey.bytes.withBytes {
      AEAD.seal(
        $0, key: Self.tokenKey(token, vaultID: vaultID),
        associatedData: Self.associatedData(vaultID, id))
    }
    let now = clock.bootNow
    let record = Record(
      vaultId: vaultID.hex, bootId: clock.bootID, created: now, lastUsed: now,
      idle: min(idle, Self.hardLimit), hard: Self.hardLimit, wrapped: box.base64,
      vaultPath: vaultPath.map(Self.absolute))
    try PrivateFiles.ensurePrivateDirectory(environment.sessionDirectory)
    try PrivateFiles.ensurePrivateDirectory(folder(vaultID))
    try write(record, to: folder(vaultID) + "/" + id)
    return token.unprotectedBytes.hex
  }

  /// Seconds left before a session ends: the earlier of idle expiry and the hard limit.
  public struct Expiry: Equatable, Sendable {
    /// Seconds until the idle timeout.
    public var idle: Int
    /// Seconds until the hard limit.
    public var hard: Int
  }

  /// Opens the session named by `token`, renews its idle timer and returns the master key.
  ///
  /// - Throws: `VaultError.locked` when the token is malformed, unknown, revoked, from another
  ///   vault, from before a reboot, or expired (the file is then removed).
  public func open(
    token text: String, vaultID: VaultID, vaultPath: String? = nil, renew: Bool = true
  ) throws
    -> (masterKey: SymmetricKey, expiry: Expiry)
  {
    guard let token = Self.parseToken(text) else {
      throw VaultError.locked("the session token is malformed")
    }
    let id = Self.sessionID(token)
    let path = folder(vaultID) + "/" + id
    // A session folder others can use or replace is refused, never read.
    var info = stat()
    if lstat(folder(vaultID), &info) == 0 {
      try FileSafety.checkPrivateFolder(environment.sessionDirectory)
      try FileSafety.checkPrivateFolder(folder(vaultID))
      if lstat(path, &info) == 0 { try FileSafety.checkPrivateFile(path) }
    }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    guard let raw = try PrivateFiles.read(path) else {
      if let vaultPath, !filesIssued(for: vaultPath, id: id).isEmpty {
        throw VaultError.integrity(
          "the vault id in the header changed since this session was issued (the file was"
            + " edited or damaged)")
      }
      throw VaultError.locked("the session is unknown or was revoked")
    }
    // The file of this token exists: anything unreadable or out of bounds in it is damage.
    guard var record = try? decoder.decode(Record.self, from: Data(raw)), record.isWellFormed
    else { throw VaultError.integrity("the session file \(path) is malformed") }
    guard record.vaultId == vaultID.hex else {
      throw VaultError.locked("the session is unknown or was revoked")
    }
    let now = clock.bootNow
    let expired =
      record.bootId != clock.bootID || now < record.lastUsed
      || now - record.lastUsed > record.idle || now - record.created > record.hard
    if expired {
      unlink(path)
      throw VaultError.locked("the session has expired")
    }
    guard let box = try? [UInt8](base64: record.wrapped, field: "session"),
      let key = try? AEAD.open(
        box, key: Self.tokenKey(token, vaultID: vaultID),
        associatedData: Self.associatedData(vaultID, id), what: "session"),
      key.count == SymmetricKey.byteCount
    else { throw VaultError.locked("the session does not match this vault") }
    // Renewed lazily (at most once per `renewalInterval`) and never at the cost of the read: a
    // full disk or a file-size limit must not turn a read into a failure.
    if renew && now - record.lastUsed >= Self.renewalInterval {
      var renewed = record
      renewed.lastUsed = now
      if (try? write(renewed, to: path)) != nil { record = renewed }
    }
    let expiry = Expiry(
      idle: Int(record.idle - (now - record.lastUsed)),
      hard: Int(record.hard - (now - record.created)))
    return (SymmetricKey(key), expiry)
  }

  /// Parses the bytes of a session file as `open` does, without opening anything: for fuzzing and
  /// diagnostics.
  ///
  /// - Throws: `VaultError.integrity` when they are not a well-formed session record.
  public static func checkRecord(_ bytes: [UInt8]) throws {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    guard let record = try? decoder.decode(Record.self, from: Data(bytes)), record.isWellFormed
    else { throw VaultError.integrity("the session file is malformed") }
  }

  /// The absolute form of `path` (its folder resolved), as sessions record it.
  static func absolute(_ path: String) -> String {
    let folder = PrivateFiles.parentFolder(of: path)
    let name = String(path.split(separator: "/").last ?? Substring(path))
    guard let resolved = realpath(folder, nil) else { return path }
    defer { free(resolved) }
    let base = String(cString: resolved)
    return (base == "/" ? "" : base) + "/" + name
  }

  /// The session files, one per vault-id folder, that were issued for the vault file at
  /// `vaultPath`, limited to session `id` when given: what `vault lock` revokes, and what a
  /// vault id changed in the header leaves behind.
  func filesIssued(for vaultPath: String, id: String? = nil) -> [(folder: String, file: String)] {
    let target = Self.absolute(vaultPath)
    let root = environment.sessionDirectory
    let manager = FileManager.default
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    var found: [(folder: String, file: String)] = []
    for folder in (try? manager.contentsOfDirectory(atPath: root)) ?? []
    where folder.count == 2 * VaultID.byteCount {
      let files =
        id.map { [$0] } ?? (try? manager.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
      let issued = files.first { file in
        guard let raw = try? PrivateFiles.read(root + "/" + folder + "/" + file),
          let record = try? decoder.decode(Record.self, from: Data(raw))
        else { return false }
        return record.vaultPath == target
      }
      if let issued { found.append((folder, issued)) }
    }
    return found
  }

  /// Removes every session of the vault, winning against any concurrent renewal.
  ///
  /// - Throws: `VaultError.storage` when the folder cannot be moved out of the way.
  public func revokeAll(vaultID: VaultID) throws {
    let path = folder(vaultID)
    // The folder is first renamed out of the way, in one step: a renewal racing this can no
    // longer put a session file back (it writes by path into a folder that is gone), so the
    // revocation always wins. The renamed folder is then removed.
    let doomed = path + ".revoked-" + SecureBytes.random(count: 8).unprotectedBytes.hex
    guard rename(path, doomed) == 0 else {
      if errno == ENOENT { return }
      throw VaultError.storage(
        "cannot revoke the sessions in \(path): \(String(cString: strerror(errno)))")
    }
    PrivateFiles.syncDirectory(environment.sessionDirectory)
    try? FileManager.default.removeItem(atPath: doomed)
  }

  /// Removes every session of the vault id and every session issued for the vault file at
  /// `vaultPath` under any other id: what `vault lock` does, since without the key the header's
  /// vault id is not authenticated.
  ///
  /// - Throws: as `revokeAll(vaultID:)`.
  public func revokeAll(vaultID: VaultID, vaultPath: String) throws {
    try revokeAll(vaultID: vaultID)
    for (folder, _) in filesIssued(for: vaultPath) {
      try revokeAll(vaultID: VaultID(hexDigits: folder))
    }
  }

  /// Ends one session (its file is removed); unknown tokens are ignored.
  public func revoke(token: String, vaultID: VaultID) {
    if let path = path(token: token, vaultID: vaultID) { unlink(path) }
  }

  /// The session file path for a token (for tests and diagnostics).
  public func path(token text: String, vaultID: VaultID) -> String? {
    Self.parseToken(text).map { folder(vaultID) + "/" + Self.sessionID($0) }
  }

  static func parseToken(_ text: String) -> SecureBytes? {
    let digits = Array(text.utf8)
    guard digits.count == 64 else { return nil }
    let out = SecureBytes(count: 32)
    for index in 0..<32 {
      guard let high = hexValue(digits[2 * index]), let low = hexValue(digits[2 * index + 1])
      else { return nil }
      out.pointer.storeBytes(of: high << 4 | low, toByteOffset: index, as: UInt8.self)
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

  private func write(_ record: Record, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(record)
    } catch {
      throw VaultError.storage("a session record cannot be encoded")
    }
    try PrivateFiles.atomicWrite([UInt8](data), to: path)
  }
}
