import VaultCrypto

/// `device.json` decoded by hand, its one decoder (required fields, a null or absent optional,
/// each part's `isWellFormed` bounds), since every command reads it: the generic `JSONDecoder`
/// path cost a tenth of a `vault get`. `DeviceStateDecodingTests` checks it against what the
/// `Encodable` conformance writes.
extension DeviceState {
  /// The stored document `raw`, or nil when it is not a well-formed device state.
  package init?(decoding raw: [UInt8]) {
    guard let root = try? GuardedJSON(parsing: SecureBytes(copying: raw, packed: true)).root,
      let fields = try? JSONFields(root), let state = try? DeviceState(fields)
    else { return nil }
    self = state
  }

  private init(_ fields: JSONFields) throws {
    let secret = try [UInt8](base64: try fields.string("device_secret"), field: "device_secret")
    guard secret.count == DeviceSecret.byteCount else { throw JSONFields.Mismatch() }
    self.init(deviceSecret: try DeviceSecret(SecureBytes(copying: secret)))
    var wiped = secret
    wipe(&wiped)
    schema = try fields.integer("schema")
    pinAttempts = try Self.map(try fields.object("pin_attempts"), PINAttempts.init(fields:))
    sensor = try fields.value("sensor").map(JSONValue.init(json:))
    lastGuardedRead = try fields.optionalObject("last_guarded_read").map(Self.numbers) ?? [:]
    journalKeys = try fields.optionalObject("journal_keys").map(Self.strings) ?? [:]
    pendingDisables =
      try fields.optionalObject("pending_disables").map {
        try Self.map($0, PendingDisable.init(fields:))
      } ?? [:]
    headerDigests = try fields.optionalObject("header_digests").map(Self.strings) ?? [:]
    guessSeconds = try fields.optionalObject("guess_seconds").map(Self.numbers) ?? [:]
    shortPINs = Set(
      try (fields.optionalArray("short_pins") ?? []).map {
        guard let text = $0.text() else { throw JSONFields.Mismatch() }
        return text
      })
    states =
      try fields.optionalObject("states").map { try Self.map($0, RememberedState.init(fields:)) }
      ?? [:]
    writers =
      try fields.optionalObject("writers").map { try Self.map($0, WriterRecord.init(fields:)) }
      ?? [:]
    biometricStrikes =
      try fields.optionalObject("biometric_strikes").map {
        try Self.map($0, BiometricStrikes.init(fields:))
      } ?? [:]
    sealedDomains =
      try fields.optionalObject("sealed_domains").map {
        try Self.map($0, SealedDomainRecord.init(fields:))
      } ?? [:]
    vaultSettings =
      try fields.optionalObject("vault_settings").map {
        try Self.map($0) { VaultDeviceSettings(syncAuto: try $0.optionalBool("sync_auto")) }
      } ?? [:]
    guard timesAreWithinBounds else { throw JSONFields.Mismatch() }
  }

  /// Every member of `fields` decoded by `decode` from its object.
  private static func map<T>(_ fields: JSONFields, _ decode: (JSONFields) throws -> T) throws
    -> [String: T]
  {
    var out: [String: T] = [:]
    for key in fields.keys {
      guard let member = fields.value(key) else { throw JSONFields.Mismatch() }
      out[key] = try decode(JSONFields(member))
    }
    return out
  }

  private static func strings(_ fields: JSONFields) throws -> [String: String] {
    var out: [String: String] = [:]
    for key in fields.keys { out[key] = try fields.string(key) }
    return out
  }

  private static func numbers(_ fields: JSONFields) throws -> [String: Double] {
    var out: [String: Double] = [:]
    for key in fields.keys { out[key] = try fields.number(key) }
    return out
  }
}

extension BiometricStrikes {
  fileprivate init(fields: JSONFields) throws {
    self.init()
    guard let times = try fields.optionalArray("failures") else { throw JSONFields.Mismatch() }
    failures = try times.map {
      guard let number = $0.double else { throw JSONFields.Mismatch() }
      return number
    }
    recoveryRequiredSince = try fields.optionalNumber("recovery_required_since")
    ownRun = try fields.optionalObject("own_run").map { run in
      let count = try run.integer("failures")
      guard count >= 0 else { throw JSONFields.Mismatch() }
      return FailureRun(run: try run.unsigned("run"), failures: count)
    }
    let all = failures + [recoveryRequiredSince].compactMap { $0 }
    guard failures.count <= 1000, all.allSatisfy({ (0...1e11).contains($0) }) else {
      throw JSONFields.Mismatch()
    }
  }
}

extension SealedDomainRecord {
  fileprivate init(fields: JSONFields) throws {
    guard let bound = fields.value("passcode_bound")?.bool else { throw JSONFields.Mismatch() }
    self.init(digest: try fields.string("digest"), passcodeBound: bound)
  }
}

extension PINAttempts {
  fileprivate init(fields: JSONFields) throws {
    self.init()
    failures = try fields.integer("failures")
    lastWrongTag = try fields.optionalString("last_wrong_tag")
    lastWrongTagUntil = try fields.optionalNumber("last_wrong_tag_until")
    lastAttemptAt = try fields.optionalNumber("last_attempt_at")
    previousAttemptAt = try fields.optionalNumber("previous_attempt_at")
    inFlight = try fields.optionalArray("in_flight")?.map {
      guard let number = $0.double else { throw JSONFields.Mismatch() }
      return number
    }
    guard isWellFormed else { throw JSONFields.Mismatch() }
  }
}

extension PendingDisable {
  fileprivate init(fields: JSONFields) throws {
    self.init(reason: try fields.string("reason"), at: try fields.string("at"))
    guard isWellFormed else { throw JSONFields.Mismatch() }
  }
}

extension RememberedState {
  fileprivate init(fields: JSONFields) throws {
    self.init(generation: Int64(try fields.integer("generation")), mac: [])
    mac = try fields.string("mac")
    guard isWellFormed else { throw JSONFields.Mismatch() }
  }
}

extension WriterRecord {
  fileprivate init(fields: JSONFields) throws {
    let sequence = try fields.unsigned("sequence")
    self.init(
      deviceID: try fields.string("device_id"), secretKey: SecureBytes(count: 0),
      sequence: sequence)
    secretKey = try fields.string("secret_key")
    guard isWellFormed else { throw JSONFields.Mismatch() }
  }
}

extension JSONValue {
  /// A `GuardedJSON` value as `init(from:)` decodes it: a number is an `Int64` when it is a
  /// whole number in range, else a `UInt64`, else a `Double`.
  init(json value: GuardedJSON.Value) throws {
    switch value.kind {
    case .null: self = .null
    case .bool: self = .bool(value.bool ?? false)
    case .string:
      guard let text = value.text() else { throw JSONFields.Mismatch() }
      self = .string(text)
    case .number:
      if let number = value.integer {
        self = .integer(Int64(number))
      } else if let whole = value.unsigned {
        self = .unsigned(whole)
      } else if let number = value.double {
        self = .number(number)
      } else {
        throw JSONFields.Mismatch()
      }
    case .array: self = .array(try value.elements.map(JSONValue.init(json:)))
    case .object:
      var members: [String: JSONValue] = [:]
      for (key, member) in value.members { members[key] = try JSONValue(json: member) }
      self = .object(members)
    }
  }
}
