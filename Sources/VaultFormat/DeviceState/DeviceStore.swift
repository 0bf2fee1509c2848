import FoundationEssentials
import Glibc
import VaultCrypto

/// Per-vault PIN attempt record in the device-side store.
public struct PINAttempts: Encodable, Equatable, Sendable {
  /// Consecutive wrong PINs (a check in progress counts until it succeeds).
  public var failures: Int = 0
  /// Keyed hash of the last wrong PIN's Argon2id output, base64 (32 bytes), to count a repeat
  /// once; kept only while live (`hasLiveTag(at:)`), as it is a near miss of the PIN.
  public var lastWrongTag: String?
  /// Wall-clock time (seconds since the epoch) at which `lastWrongTag` stops being live: the end
  /// of the delay its wrong PIN started plus `PINLimiter.repeatWindow`.
  public var lastWrongTagUntil: Double?
  /// Wall-clock time of the last PIN check that counted, seconds since the epoch.
  public var lastAttemptAt: Double?
  /// `lastAttemptAt` before the check in progress, restored when that check is a repeat.
  public var previousAttemptAt: Double?
  /// Start times (wall clock) of the checks begun and not yet resolved; nil when none.
  ///
  /// Each of them is counted in `failures` already.
  public var inFlight: [Double]?
  /// Most checks a record holds in flight.
  public static let maximumInFlight = 64

  /// An empty record.
  public init() {}

  enum CodingKeys: String, CodingKey {
    case failures
    case lastWrongTag = "last_wrong_tag"
    case lastWrongTagUntil = "last_wrong_tag_until"
    case lastAttemptAt = "last_attempt_at"
    case previousAttemptAt = "previous_attempt_at"
    case inFlight = "in_flight"
  }

  /// True when every field is within what the limiter writes: a count up to `Int32.max`, times
  /// from 0 to `maximumTime`, at most `maximumInFlight` attempts in flight, a 32-byte tag.
  var isWellFormed: Bool {
    let times = 0...Self.maximumTime
    return (0...Int(Int32.max)).contains(failures)
      && [lastAttemptAt, previousAttemptAt, lastWrongTagUntil].allSatisfy({
        $0.map(times.contains) ?? true
      })
      && (inFlight?.count ?? 0) <= Self.maximumInFlight
      && (inFlight ?? []).allSatisfy(times.contains)
      && (lastWrongTag.map({ (try? [UInt8](base64: $0, count: 32, field: "tag")) != nil }) ?? true)
  }

  /// The largest time a record holds, seconds since the epoch (10¹¹).
  static let maximumTime = 1e11

  /// True when `lastWrongTag` may be compared at wall-clock time `now` (seconds).
  ///
  /// It must be set, and `now` before `lastWrongTagUntil` by at most
  /// `PINLimiter.repeatTagLifetime` (a clock set back does not keep it alive). A tag without an
  /// end (release 0.2) is never live.
  public func hasLiveTag(at now: Double) -> Bool {
    guard lastWrongTag != nil, let until = lastWrongTagUntil else { return false }
    return now < until && until - now <= PINLimiter.repeatTagLifetime
  }

  /// Removes the tag and its end unless it is live at `now`.
  mutating func dropTagUnlessLive(at now: Double) {
    guard !hasLiveTag(at: now), lastWrongTag != nil || lastWrongTagUntil != nil else { return }
    lastWrongTag = nil
    lastWrongTagUntil = nil
  }
}

/// Biometric unlock found dead on this device before any key was at hand (the enrollment was
/// emptied, by itself or by removing the device passcode): sessions were revoked at once, and
/// the header records it at the next unlock.
public struct PendingDisable: Encodable, Equatable, Sendable {
  /// Why, when the enrollment was emptied.
  public static let emptiedEnrollment = "the enrollment was emptied"
  /// Why, when the device passcode a seal was bound to was removed (which also empties the
  /// enrollment).
  public static let passcodeRemoved =
    "the device passcode was removed (the keychain item bound to it is gone)"
  /// The only reasons recorded without a key.
  static let reasons = [emptiedEnrollment, passcodeRemoved]

  /// Why, as the header will record it.
  public var reason: String
  /// When, ISO 8601 UTC (`YYYY-MM-DDTHH:MM:SSZ`).
  public var at: String

  /// A record.
  public init(reason: String, at: String) {
    self.reason = reason
    self.at = at
  }

  enum CodingKeys: String, CodingKey { case reason, at }

  /// True for a reason this release records, at a UTC time.
  var isWellFormed: Bool { Self.reasons.contains(reason) && Timestamp.isUTC(at) }
}

/// The latest state of a vault this device produced or verified (`vault(5)`, STATE).
public struct RememberedState: Encodable, Equatable, Sendable {
  /// The state's generation, 1 to 2⁶².
  public var generation: Int64
  /// Its MAC, base64 (32 bytes).
  public var mac: String

  /// A record.
  public init(generation: Int64, mac: [UInt8]) {
    self.generation = generation
    self.mac = mac.base64
  }

  /// The MAC's bytes (empty when malformed: then it matches no state).
  public var macBytes: [UInt8] { (try? [UInt8](base64: mac, count: 32, field: "state")) ?? [] }

  enum CodingKeys: String, CodingKey { case generation, mac }

  /// True for a generation from 1 to 2^62 and a 32-byte MAC.
  var isWellFormed: Bool {
    (1...(Int64(1) << 62)).contains(generation)
      && (try? [UInt8](base64: mac, count: 32, field: "state")) != nil
  }
}

/// This device's journal writer for one vault: its Ed25519 key and the last sequence it signed.
public struct WriterRecord: Encodable, Equatable, Sendable {
  /// The device id (base64, 16 bytes) the writer signs as, as in the device record.
  public var deviceID: String
  /// The Ed25519 secret key, base64 (64 bytes: seed and public key).
  public var secretKey: String
  /// The last sequence number signed, 0 before the first.
  public var sequence: UInt64

  /// A record.
  public init(deviceID: String, secretKey: SecureBytes, sequence: UInt64) {
    self.deviceID = deviceID
    self.secretKey = secretKey.unprotectedBytes.base64
    self.sequence = sequence
  }

  enum CodingKeys: String, CodingKey {
    case sequence
    case deviceID = "device_id"
    case secretKey = "secret_key"
  }

  /// The key pair, in guarded memory.
  ///
  /// - Throws: `VaultError.integrity` when the stored key is malformed.
  public func keyPair() throws -> SigningKeyPair {
    var raw = try [UInt8](base64: secretKey, count: Signing.secretKeyByteCount, field: "writer key")
    defer { wipe(&raw) }
    return try SigningKeyPair(secretKey: SecureBytes(copying: raw))
  }

  /// True for a sequence up to 2^62, a 16-byte device id and an Ed25519 secret key.
  var isWellFormed: Bool {
    sequence <= UInt64(1) << 62
      && (try? [UInt8](base64: deviceID, count: 16, field: "writer")) != nil
      && (try? [UInt8](base64: secretKey, count: Signing.secretKeyByteCount, field: "writer"))
        != nil
  }
}

/// Everything kept on the device rather than in the vault file: the simulated secure element.
///
/// One JSON document at `$XDG_STATE_HOME/vault/device.json` (0600), shared by every vault of the
/// user and by `biosim`. The simulated sensor's section belongs to the Biometry module; this type
/// carries it without reading it.
public struct DeviceState: Encodable, Equatable, Sendable {
  /// Schema version of this document (1).
  public var schema: Int = 1
  /// Entangled with every PIN-derived KEK and keying the domain state.
  public var deviceSecret: DeviceSecret
  /// Consecutive wrong PINs per vault id (hex).
  public var pinAttempts: [String: PINAttempts] = [:]
  /// The simulated biometric sensor, as the Biometry module stored it; nil on a new device.
  public var sensor: JSONValue?
  /// Boot-clock time of the last guarded read per vault id (hex), to refuse duplicates.
  public var lastGuardedRead: [String: Double] = [:]
  /// The journal public key (base64) of each vault id (hex), recorded when the header was last
  /// authenticated here; a journal entry is never sealed to a different key.
  public var journalKeys: [String: String] = [:]
  /// Biometric unlock disabled on this device before the header could record it, per vault id.
  public var pendingDisables: [String: PendingDisable] = [:]
  /// BLAKE2b-256 (base64) of the header bytes this device last authenticated, per vault id.
  public var headerDigests: [String: String] = [:]
  /// Seconds of one core one PIN guess cost here when the PIN was last set or checked, per vault
  /// id (for `vault status`).
  public var guessSeconds: [String: Double] = [:]
  /// Vault ids whose PIN, as last typed here, is shorter than `PIN.minimumNewLength`.
  ///
  /// Such a PIN was set before that minimum existed; `vault status` warns. The length itself is
  /// never stored.
  public var shortPINs: Set<String> = []
  /// The latest state of each vault id (hex) produced or verified here.
  public var states: [String: RememberedState] = [:]
  /// This device's journal writer of each vault id (hex).
  public var writers: [String: WriterRecord] = [:]
  /// Failed matches of each vault's own evaluations (vault id, hex), for the vault's lockout
  /// rule (`BiometricStrikes`).
  public var biometricStrikes: [String: BiometricStrikes] = [:]
  /// What each vault id (hex) sealed on this device, so that `vault status` can tell an
  /// enrollment change or a removed passcode without the key (`SealedDomainRecord`).
  public var sealedDomains: [String: SealedDomainRecord] = [:]
  /// This device's settings for each vault id (hex), set with `vault config`.
  public var vaultSettings: [String: VaultDeviceSettings] = [:]

  /// Removes every vault's repeat tag that is not live at wall-clock time `now` (seconds): done
  /// by every `DeviceStore` update before anything else.
  public mutating func dropExpiredPINTags(at now: Double) {
    for key in pinAttempts.keys { pinAttempts[key]?.dropTagUnlessLive(at: now) }
  }

  /// A fresh device with a new random secret.
  public static func fresh() -> DeviceState {
    DeviceState(deviceSecret: .random())
  }

  init(deviceSecret: DeviceSecret) { self.deviceSecret = deviceSecret }

  enum CodingKeys: String, CodingKey {
    case schema, sensor
    case deviceSecret = "device_secret"
    case pinAttempts = "pin_attempts"
    case lastGuardedRead = "last_guarded_read"
    case journalKeys = "journal_keys"
    case pendingDisables = "pending_disables"
    case headerDigests = "header_digests"
    case guessSeconds = "guess_seconds"
    case shortPINs = "short_pins"
    case states, writers
    case biometricStrikes = "biometric_strikes"
    case sealedDomains = "sealed_domains"
    case vaultSettings = "vault_settings"
  }

  /// True when the guarded-read times (0 to 1e10 s) and guess costs (0 to 1e6 s) are in bounds.
  var timesAreWithinBounds: Bool {
    lastGuardedRead.values.allSatisfy((0...1e10).contains)
      && guessSeconds.values.allSatisfy((0...1e6).contains)
  }

  /// Encodes every field; empty optional maps are left out.
  public func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(schema, forKey: .schema)
    try c.encode(deviceSecret, forKey: .deviceSecret)
    try c.encode(pinAttempts, forKey: .pinAttempts)
    try c.encodeIfPresent(sensor, forKey: .sensor)
    try c.encode(lastGuardedRead, forKey: .lastGuardedRead)
    try c.encode(journalKeys, forKey: .journalKeys)
    if !pendingDisables.isEmpty { try c.encode(pendingDisables, forKey: .pendingDisables) }
    if !headerDigests.isEmpty { try c.encode(headerDigests, forKey: .headerDigests) }
    if !guessSeconds.isEmpty { try c.encode(guessSeconds, forKey: .guessSeconds) }
    if !shortPINs.isEmpty { try c.encode(shortPINs.sorted(), forKey: .shortPINs) }
    if !states.isEmpty { try c.encode(states, forKey: .states) }
    if !writers.isEmpty { try c.encode(writers, forKey: .writers) }
    if !biometricStrikes.isEmpty { try c.encode(biometricStrikes, forKey: .biometricStrikes) }
    if !sealedDomains.isEmpty { try c.encode(sealedDomains, forKey: .sealedDomains) }
    let settings = vaultSettings.filter { !$0.value.isEmpty }
    if !settings.isEmpty { try c.encode(settings, forKey: .vaultSettings) }
  }
}

/// Reads and updates the device-side store under an exclusive `flock`, with atomic writes.
public struct DeviceStore: Sendable {
  /// The folder (0700) holding `device.json` and `device.lock`.
  public let directory: String
  /// The clock whose wall time decides which PIN repeat tags have expired.
  let clock: Clock
  /// The test-only crash point (`VaultEnvironment.crashPoint`): `device-before-rename` kills the
  /// process once a new `device.json` is written beside the old one, before its rename.
  let crashPoint: String?

  /// A store in `environment.stateDirectory`, on `environment.clock`.
  public init(environment: VaultEnvironment) {
    self.directory = environment.stateDirectory
    self.clock = environment.clock
    self.crashPoint = environment.crashPoint
  }

  /// Path of the JSON document.
  public var path: String { directory + "/device.json" }

  /// Runs `body` on the current state under the lock and writes the result back atomically.
  ///
  /// A missing store is created with a fresh device secret. Every vault's expired PIN repeat tag
  /// is removed first (`DeviceState.dropExpiredPINTags`), so `body` never sees one, and so are
  /// the copies of `device.json` that killed writers left (`removeLeftovers`).
  ///
  /// - Throws: `VaultError.integrity` when the document is corrupt, `VaultError.storage` on I/O
  ///   failure, or whatever `body` throws (then nothing is written).
  public func update<R>(_ body: (inout DeviceState) throws -> R) throws -> R {
    try PrivateFiles.ensurePrivateDirectory(directory)
    return try PrivateFiles.withExclusiveLock(directory + "/device.lock") {
      removeLeftovers()
      var state = try load() ?? DeviceState.fresh()
      let before = state
      state.dropExpiredPINTags(at: clock.wallNow)
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
  /// Expired PIN repeat tags are removed from the result.
  ///
  /// - Throws: `VaultError.storage` on I/O failure.
  public func replace(_ build: (DeviceState?) -> DeviceState) throws {
    try PrivateFiles.ensurePrivateDirectory(directory)
    try PrivateFiles.withExclusiveLock(directory + "/device.lock") {
      removeLeftovers()
      var state = build(try? load())
      state.dropExpiredPINTags(at: clock.wallNow)
      try save(state)
    }
  }

  /// The current state, or nil when there is none yet; creates nothing (for read-only views).
  ///
  /// - Throws: `VaultError.integrity` when the document is corrupt.
  public func peek() throws -> DeviceState? {
    try load()
  }

  /// The current state, read without the lock (writes replace the file atomically, so a read
  /// sees one whole version); a missing store is created under the lock.
  ///
  /// - Throws: `VaultError.integrity` when the document is corrupt, `.storage` on I/O failure.
  public func read() throws -> DeviceState {
    if let state = try load() { return state }
    return try update { $0 }
  }

  private func load() throws -> DeviceState? {
    guard let raw = try PrivateFiles.read(path) else { return nil }
    // The device secret is in here: refused when others could read or replace it.
    try FileSafety.checkPrivateFolder(directory)
    try FileSafety.checkPrivateFile(path)
    guard let state = DeviceState(decoding: raw), state.schema == 1
    else {
      throw VaultError.integrity(.device(.stateCorrupt(path: path)))
    }
    return state
  }

  /// Removes the copies of `device.json` (device secret included) that killed writers left.
  ///
  /// Those of 0.11.0 too. Only under `device.lock`, which every writer holds, so none of them is
  /// in use.
  private func removeLeftovers() {
    PrivateFiles.removeTemporaries(of: path, legacy: true)
  }

  private func save(_ state: DeviceState) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(state)
    try PrivateFiles.atomicWrite([UInt8](data), to: path) {
      if crashPoint == "device-before-rename" { kill(getpid(), SIGKILL) }
    }
  }
}
