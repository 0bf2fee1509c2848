import VaultFormat

/// The words of a malformed vault header: which field, and why.
enum HeaderWords {
  /// The phrase after "the vault header is malformed: ".
  static func phrase(_ fault: HeaderFault) -> String {
    switch fault {
    // MARK: Header, keyslots, devices, files, format 1, biometry
    case .body(let fault): words(fault)
    case .unknownField(let object, let name): "unknown \(words(object)) field '\(name)'"
    case .unknownPolicy(let policy): "unknown policy '\(policy)'"
    case .unknownBiometryState(let state): "unknown biometry state '\(state)'"
    case .vaultIDLength(let found): "a vault id is 16 bytes, not \(found)"
    case .deviceRecords(let fault): words(fault)
    case .lists(let fault): words(fault)
    case .keyslots(let fault): words(fault)
    case .kdf(let fault): words(fault)

    // MARK: Records, state, SQLite, entries
    case .invalidBase64(let field): "\(field) is not valid"
    }
  }

  // MARK: Header, keyslots, devices, files, format 1, biometry

  /// Why the body is not a header at all.
  static func words(_ fault: HeaderBodyFault) -> String {
    switch fault {
    case .missing: "the vault has no header"
    case .tooLarge: "the header is larger than 64 KiB"
    case .notAJSONObject: "the header is not a JSON object"
    case .noFormatVersion: "the header has no format version"
    case .fieldsNotValid: "the header fields are not valid"
    }
  }

  /// The object whose members are checked, as "unknown OBJECT field" names it.
  static func words(_ object: HeaderObject) -> String {
    switch object {
    case .header: "header"
    case .rotation: "rotation"
    case .handoff: "handoff"
    case .revocation: "revocation"
    case .retiredWriter: "retired writer"
    case .deviceRecord: "device record"
    case .biometry: "biometry"
    case .recoverySlot: "recovery slot"
    }
  }

  /// Why the device records are refused.
  static func words(_ fault: DeviceRecordFault) -> String {
    switch fault {
    case .count(let maximum): "the header needs 1 to \(maximum) device records"
    case .sharedIDOrTag: "two device records share an id or a tag"
    case .enrolledWithoutKey: "a device record is enrolled in a header with no enrollment key"
    case .notEnrolled: "a device record is not enrolled"
    case .enrollmentSerialOutOfBounds(let serial): "enrollment_serial \(serial) is out of bounds"
    case .activeBiometryWithoutSeal: "an active biometry record has no seal"
    }
  }

  /// Why a list of the header is refused.
  static func words(_ fault: HeaderListFault) -> String {
    switch fault {
    case .rotationsOutOfOrder: "the header's rotations are out of order or bounds"
    case .tooManyHandoffs(let maximum): "the header holds more than \(maximum) handoffs"
    case .revokedDevicesInvalid(let maximum):
      "the header's revoked_devices repeat an id, name a device it holds, or exceed \(maximum)"
    case .revocationsNotOnePerDevice:
      "the header's revocations are not one for each revoked device of an enrolled header"
    case .revocationMissing: "a revoked device of an enrolled header has no revocation"
    case .tooManyRetiredWriters(let maximum):
      "the header holds more than \(maximum) retired writer keys"
    }
  }

  /// Why the keyslots are refused.
  static func words(_ fault: KeyslotFault) -> String {
    switch fault {
    case .formatOneSlots: "the header needs one pin and one recovery keyslot"
    case .noPINSlot: "no PIN slot"
    case .noRecoverySlot: "no recovery slot"
    case .verifierWithoutTag: "the recovery slot has a verifier without a tag"
    }
  }

  /// Why the Argon2id parameters or a salt are refused.
  static func words(_ fault: KDFFault) -> String {
    switch fault {
    case .saltLength(let expected, let found): "a salt is \(expected) bytes, not \(found)"
    case .outOfBounds(let parameter, let value): "Argon2id \(parameter) \(value) is out of bounds"
    case .profileMismatch(let profile): "Argon2id profile '\(profile)' does not match its values"
    }
  }
}
