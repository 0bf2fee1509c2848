import Foundation

/// Per-vault PIN attempt record in the device-side store.
public struct PINAttempts: Codable, Equatable, Sendable {
  /// Consecutive wrong PINs (a check in progress counts until it succeeds).
  public var failures: Int = 0
  /// Keyed hash of the last wrong PIN's Argon2id output, base64, to count a repeat once.
  public var lastWrongTag: String?
  /// Wall-clock time of the last PIN check that counted, seconds since the epoch.
  public var lastAttemptAt: Double?
  /// `lastAttemptAt` before the check in progress, restored when that check is a repeat.
  public var previousAttemptAt: Double?

  /// An empty record.
  public init() {}
}

/// Everything kept on the device rather than in the vault file: the simulated secure element.
///
/// One JSON document at `$XDG_STATE_HOME/vault/device.json` (0600), shared by every vault of the
/// user and by `biosim`.
public struct DeviceState: Codable, Equatable, Sendable {
  /// Schema version of this document (1).
  public var schema: Int = 1
  /// 32 random bytes, base64: entangled with every PIN-derived KEK and keying the domain state.
  public var deviceSecret: String
  /// Consecutive wrong PINs per vault id (hex).
  public var pinAttempts: [String: PINAttempts] = [:]
  /// The simulated biometric sensor.
  public var sensor: SensorState = SensorState()
  /// Boot-clock time of the last guarded read per vault id (hex), to refuse duplicates.
  public var lastGuardedRead: [String: Double] = [:]
  /// The journal public key (base64) of each vault id (hex), recorded when the header was last
  /// authenticated here; a journal entry is never sealed to a different key.
  public var journalKeys: [String: String] = [:]

  /// A fresh device with a new random secret.
  public static func fresh() -> DeviceState {
    let secret = SecureBytes.random(count: 32)
    return DeviceState(deviceSecret: Data(secret.unprotectedBytes).base64EncodedString())
  }

  init(deviceSecret: String) { self.deviceSecret = deviceSecret }

  enum CodingKeys: String, CodingKey {
    case schema, deviceSecret, pinAttempts, sensor, lastGuardedRead, journalKeys
  }

  /// Decodes a stored document; maps added after schema 1 began may be absent.
  public init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    schema = try c.decode(Int.self, forKey: .schema)
    deviceSecret = try c.decode(String.self, forKey: .deviceSecret)
    pinAttempts = try c.decode([String: PINAttempts].self, forKey: .pinAttempts)
    sensor = try c.decode(SensorState.self, forKey: .sensor)
    lastGuardedRead = try c.decodeIfPresent([String: Double].self, forKey: .lastGuardedRead) ?? [:]
    journalKeys = try c.decodeIfPresent([String: String].self, forKey: .journalKeys) ?? [:]
  }

  /// The device secret in guarded memory.
  ///
  /// - Throws: `VaultError.integrity` when the stored value is not 32 bytes of base64.
  public func secret() throws -> SecureBytes {
    guard var raw = Data(base64Encoded: deviceSecret).map({ [UInt8]($0) }), raw.count == 32 else {
      throw VaultError.integrity("the device secret in the device state is malformed")
    }
    defer { wipe(&raw) }
    return SecureBytes(copying: raw)
  }
}

/// Reads and updates the device-side store under an exclusive `flock`, with atomic writes.
public struct DeviceStore: Sendable {
  /// The folder (0700) holding `device.json` and `device.lock`.
  public let directory: String

  /// A store in `environment.stateDirectory`.
  public init(environment: VaultEnvironment) {
    self.directory = environment.stateDirectory
  }

  /// Path of the JSON document.
  public var path: String { directory + "/device.json" }

  /// Runs `body` on the current state under the lock and writes the result back atomically.
  ///
  /// A missing store is created with a fresh device secret.
  ///
  /// - Throws: `VaultError.integrity` when the document is corrupt, `VaultError.storage` on I/O
  ///   failure, or whatever `body` throws (then nothing is written).
  public func update<R>(_ body: (inout DeviceState) throws -> R) throws -> R {
    try PrivateFiles.ensurePrivateDirectory(directory)
    return try PrivateFiles.withExclusiveLock(directory + "/device.lock") {
      var state = try load() ?? DeviceState.fresh()
      let before = state
      let result = try body(&state)
      if state != before || !FileManager.default.fileExists(atPath: path) {
        try save(state)
      }
      return result
    }
  }

  /// Replaces the state under the lock with `build` of the current one, or of nil when it is
  /// missing or corrupt: the way out of a corrupt store (`biosim reset`).
  ///
  /// - Throws: `VaultError.storage` on I/O failure.
  public func replace(_ build: (DeviceState?) -> DeviceState) throws {
    try PrivateFiles.ensurePrivateDirectory(directory)
    try PrivateFiles.withExclusiveLock(directory + "/device.lock") {
      try save(build(try? load()))
    }
  }

  /// The current state, or nil when there is none yet; creates nothing (for read-only views).
  ///
  /// - Throws: `VaultError.integrity` when the document is corrupt.
  public func peek() throws -> DeviceState? {
    try load()
  }

  /// The current state (created when missing).
  public func read() throws -> DeviceState {
    try update { $0 }
  }

  private func load() throws -> DeviceState? {
    guard let raw = try PrivateFiles.read(path) else { return nil }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    guard let state = try? decoder.decode(DeviceState.self, from: Data(raw)), state.schema == 1
    else {
      throw VaultError.integrity("the device state \(path) is corrupt")
    }
    return state
  }

  private func save(_ state: DeviceState) throws {
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(state)
    try PrivateFiles.atomicWrite([UInt8](data), to: path)
  }
}
