import VaultCrypto

/// The members of one JSON object of a `GuardedJSON` text, read by key with their types
/// checked: how what every command reads (the header, an entry's metadata) is decoded without
/// Codable and its runtime type lookups.
///
/// A `null` member reads as absent, as `decodeIfPresent` reads it; a required member that is
/// absent, null or of another type, and a number that is not an integer in range, throw
/// `Mismatch`, which each caller turns into its own error.
struct JSONFields {
  /// A member missing, of another type, or out of range; or a value that is not an object.
  struct Mismatch: Error, Equatable {}

  /// The members in the order written (looked up one by one: records have about ten).
  private let members: [(key: String, value: GuardedJSON.Value)]

  /// The object's members (keys are unique: `GuardedJSON` refuses one twice).
  ///
  /// - Throws: `Mismatch` when `value` is not an object.
  init(_ value: GuardedJSON.Value) throws {
    guard value.kind == .object else { throw Mismatch() }
    members = value.members
  }

  /// The keys in the order written.
  var keys: [String] { members.map(\.key) }

  /// A number member, as the nearest `Double`.
  func number(_ key: String) throws -> Double {
    guard let number = try optionalNumber(key) else { throw Mismatch() }
    return number
  }

  /// A number member, or nil when absent or null.
  func optionalNumber(_ key: String) throws -> Double? {
    guard let member = value(key) else { return nil }
    guard let number = member.double else { throw Mismatch() }
    return number
  }

  /// The first key (in sorted order) that is not one of `known`, if any.
  func unknownKey(_ known: [String]) -> String? {
    members.map(\.key).filter { !known.contains($0) }.min()
  }

  /// The member `key` (compared byte for byte), or nil when it is absent or null.
  func value(_ key: String) -> GuardedJSON.Value? {
    guard let member = members.first(where: { $0.key.utf8.elementsEqual(key.utf8) })?.value,
      member.kind != .null
    else { return nil }
    return member
  }

  /// A string member.
  func string(_ key: String) throws -> String {
    guard let text = try optionalString(key) else { throw Mismatch() }
    return text
  }

  /// A string member, or nil when absent or null.
  func optionalString(_ key: String) throws -> String? {
    guard let member = value(key) else { return nil }
    guard let text = member.text() else { throw Mismatch() }
    return text
  }

  /// A `true` or `false` member.
  func bool(_ key: String) throws -> Bool {
    guard let flag = try optionalBool(key) else { throw Mismatch() }
    return flag
  }

  /// A `true` or `false` member, or nil when absent or null.
  func optionalBool(_ key: String) throws -> Bool? {
    guard let member = value(key) else { return nil }
    guard let flag = member.bool else { throw Mismatch() }
    return flag
  }

  /// An integer member (`-?[0-9]+` that fits an `Int`).
  func integer(_ key: String) throws -> Int {
    guard let member = value(key), let number = member.integer else { throw Mismatch() }
    return number
  }

  /// An integer member, or nil when absent or null.
  func optionalInteger(_ key: String) throws -> Int? {
    guard let member = value(key) else { return nil }
    guard let number = member.integer else { throw Mismatch() }
    return number
  }

  /// A non-negative integer member.
  func unsigned(_ key: String) throws -> UInt64 {
    let number = try integer(key)
    guard number >= 0 else { throw Mismatch() }
    return UInt64(number)
  }

  /// An object member.
  func object(_ key: String) throws -> JSONFields {
    guard let member = value(key) else { throw Mismatch() }
    return try JSONFields(member)
  }

  /// An object member, or nil when absent or null.
  func optionalObject(_ key: String) throws -> JSONFields? {
    guard let member = value(key) else { return nil }
    return try JSONFields(member)
  }

  /// An array member's elements.
  func array(_ key: String) throws -> [GuardedJSON.Value] {
    guard let elements = try optionalArray(key) else { throw Mismatch() }
    return elements
  }

  /// An array member's elements, or nil when absent or null.
  func optionalArray(_ key: String) throws -> [GuardedJSON.Value]? {
    guard let member = value(key) else { return nil }
    guard member.kind == .array else { throw Mismatch() }
    return member.elements
  }
}

extension KDFParameters {
  /// Decodes a header's `kdf` object (`profile`, `opslimit`, `memlimit`; its bounds are
  /// `validate`'s).
  ///
  /// - Throws: `JSONFields.Mismatch` for a member missing or of another type.
  init(_ fields: JSONFields) throws {
    self.init(
      profile: try fields.string("profile"), opsLimit: try fields.unsigned("opslimit"),
      memLimit: try fields.unsigned("memlimit"))
  }
}

extension DeviceRecord {
  /// Decodes a header's device record (its bounds are `validate`'s).
  ///
  /// - Throws: `JSONFields.Mismatch` for a member missing or of another type.
  init(_ fields: JSONFields) throws {
    var biometry: BiometryRecord?
    if let record = try fields.optionalObject("biometry") {
      guard let state = BiometryState(rawValue: try record.string("state")) else {
        throw JSONFields.Mismatch()
      }
      biometry = BiometryRecord(
        state: state, changedAt: try record.string("changed_at"),
        reason: try record.optionalString("reason"), seal: try record.optionalString("seal"))
    }
    self.init(
      deviceID: try fields.string("device_id"), deviceTag: try fields.string("device_tag"),
      publicKey: try fields.string("public_key"), pinSalt: try fields.string("pin_salt"),
      pinWrapped: try fields.string("pin_wrapped"), masterBox: try fields.string("master_box"),
      slotTag: try fields.string("slot_tag"), writerKey: try fields.string("writer_key"),
      biometry: biometry, enrollment: try fields.optionalString("enrollment"),
      enrollmentSerial: try fields.optionalInteger("enrollment_serial"),
      policy: try fields.optionalString("policy").map {
        guard let policy = Policy(rawValue: $0) else { throw JSONFields.Mismatch() }
        return policy
      })
  }
}

extension RecoverySlot {
  /// Decodes a header's recovery slot (its bounds are `validate`'s).
  ///
  /// - Throws: `JSONFields.Mismatch` for a member missing or of another type.
  init(_ fields: JSONFields) throws {
    self.init(
      salt: try fields.string("salt"), wrapped: try fields.string("wrapped"),
      verifier: try fields.optionalString("verifier"), tag: try fields.optionalString("tag"),
      enrollmentKey: try fields.optionalString("enrollment_key"))
  }
}

extension EntryStore.Body {
  /// Decodes an opened entry body as its `Codable` conformance does (members no release wrote
  /// are skipped, a null optional is absent), by hand and in one pass over its members: `list`
  /// decodes one per entry.
  ///
  /// - Returns: nil when the bytes `range` of `body` (all by default) are not such a JSON
  ///   object.
  init?(decoding body: SecureBytes, range: Range<Int>? = nil) {
    guard let root = try? GuardedJSON(parsing: body, range: range).root, root.kind == .object
    else {
      return nil
    }
    var name: String?
    var created: String?
    var updated: String?
    var guarded: Bool?
    var length: Int?
    var contentRevision: Int?
    var changed: String?
    var change: String?
    var stream: Bool?
    var contentID: String?
    var wellFormed = true
    root.forEachMember { key, value in
      guard value.kind != .null else { return true }
      wellFormed = false
      switch key {
      case "name": guard let text = value.text() else { return false }; name = text
      case "created": guard let text = value.text() else { return false }; created = text
      case "updated": guard let text = value.text() else { return false }; updated = text
      case "guarded": guard let flag = value.bool else { return false }; guarded = flag
      case "length": guard let number = value.integer else { return false }; length = number
      case "content_revision":
        guard let number = value.integer else { return false }
        contentRevision = number
      case "changed": guard let text = value.text() else { return false }; changed = text
      case "change": guard let text = value.text() else { return false }; change = text
      case "stream": guard let flag = value.bool else { return false }; stream = flag
      case "content_id": guard let text = value.text() else { return false }; contentID = text
      default: break
      }
      wellFormed = true
      return true
    }
    guard wellFormed, let name, let created, let updated, let guarded, let length,
      let contentRevision
    else { return nil }
    self.init(
      name: name, created: created, updated: updated, guarded: guarded, length: length,
      contentRevision: Int64(contentRevision), changed: changed, change: change, stream: stream,
      contentID: contentID)
  }
}
