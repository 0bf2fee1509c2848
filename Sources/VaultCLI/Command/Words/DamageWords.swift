import VaultFormat

/// The words of an integrity failure: which object failed which check.
enum DamageWords {
  /// The phrase after "integrity failure: " (and after "the sync remote was refused: " when a
  /// received file is damaged).
  static func phrase(_ damage: Damage) -> String {
    switch damage {
    // MARK: Transfer
    case .exportedContent(let name, _, _): "the content of '\(name)' is not its stored length"

    // MARK: Sync
    case .syncFile(let path, let damage): "the sync file \(path) \(phrase(damage))"
    case .syncState(.notAStateFile): "the sync repository's state file is not one vault writes"
    case .syncState(.anotherVault): "the sync repository holds another vault"
    case .syncState(.malformed): "the sync repository's state file is malformed"
    case .contentWithoutChunks: "a content of the vault is missing its chunks"
    case .malformedCounter: "a counter record of the vault is malformed"

    // MARK: Header, keyslots, devices, files, format 1, biometry
    case .sealed(let object, let found): "\(object) \(words(found))"
    case .wrongLength(let material, let expected, let found):
      switch material {
      case .nonce, .salt: "a \(material.rawValue) is \(expected) bytes, not \(found)"
      case .signingSeed, .signingKey: "a \(material.rawValue) is \(found) bytes, not \(expected)"
      }
    case .signingKeyMismatch: "a signing key's public half does not match its seed"
    case .notAVaultFile(let path): "\(path) is not a vault file"
    case .sqliteHeader(let byte, let found, let expected):
      "the vault file's SQLite header is damaged (byte \(byte) is \(found), not \(expected))"
    case .headerFailedAuthentication: "the vault header failed authentication (the file was edited)"
    case .formatOne(let found): words(found)
    case .recoverySlot(let found): words(found)
    case .handoff(let found): words(found)
    case .device(let found): words(found)
    case .simulatedSensor(let found): words(found)
    }
  }

  // MARK: Sync

  /// What is wrong with a sync file, after its path.
  static func phrase(_ damage: SyncFileDamage) -> String {
    switch damage {
    case .malformed: "is malformed"
    case .truncated: "is truncated"
    case .unsyncedKind(let kind): "holds a record of a kind that is not synced (\(kind))"
    case .anotherRecord: "holds another record than its name says"

    }
  }

  // MARK: Header, keyslots, devices, files, format 1, biometry

  /// What a primitive found, after the object's name.
  static func words(_ damage: SealedDamage) -> String {
    switch damage {
    case .truncated: "is truncated"
    case .failedAuthentication: "failed authentication"
    case .noStreamHeader: "has no stream header"
    case .malformedStreamHeader: "has a malformed stream header"
    case .wrongPieceLength: "has a piece of the wrong length"
    }
  }

  /// What a check of a format-1 file found.
  static func words(_ damage: FormatOneDamage) -> String {
    switch damage {
    case .keyslotsEdited:
      "the vault header's KDF parameters or keyslots were edited (they do not match this"
        + " device's record)"
    case .copyOfMigratedVault:
      "this is a format 1 copy of a vault this device has already seen in format 2 (an old copy"
        + " was put back); nothing was read"
    case .malformedRow: "a format 1 row is malformed"
    case .unknownRowKind: "a format 1 row has an unknown kind"
    case .malformedMetadata: "an entry's metadata is malformed"
    case .missingOrExtraChunks(let name): "the content of '\(name)' has missing or extra chunks"
    case .misplacedChunks(let name): "the content of '\(name)' has misplaced chunks"
    case .longerThanRecorded(let name): "the content of '\(name)' is longer than recorded"
    case .shorterThanRecorded(let name): "the content of '\(name)' is shorter than recorded"
    }
  }

  /// What a check of the recovery slot found.
  static func words(_ damage: RecoverySlotDamage) -> String {
    switch damage {
    case .editedUnderRightCode:
      "the vault's recovery slot or KDF parameters were edited (the recovery code is right)"
    case .failedAuthentication: "the vault's recovery slot failed authentication"
    }
  }

  /// What a check of the remote's rotations found.
  static func words(_ damage: HandoffDamage) -> String {
    switch damage {
    case .fromNoKeyHeld(let maximum):
      "the remote's master key was rotated from none this device holds (more than \(maximum)"
        + " rotations ago, or the remote is not this vault's)"
    case .notConsecutive: "the remote's rotations do not follow one another"
    case .unknownSigner: "the remote's master key was rotated by a device this one does not know"
    case .notSigned: "a rotation of the remote's master key is not signed"
    case .notAuthorized:
      "a rotation of the remote's master key was not authorized with the vault's recovery code (a"
        + " device that holds the old key made it, or the remote was rolled back to before a"
        + " revocation)"
    case .sealedKeyNotRotated: "the master key sealed to this device is not the rotated one"
    }
  }

  /// What a check of a device record, its enrollment or this device's files found.
  static func words(_ damage: DeviceDamage) -> String {
    switch damage {
    case .secretLength(let found): "a device secret is 32 bytes, not \(found)"
    case .masterKeyBoundElsewhere: "the master key sealed to this device is bound elsewhere"
    case .notEnrolled: "the vault's devices are not enrolled with its recovery code"
    case .recordNotEnrolled(let id):
      "the device record \(id.prefix(8)) was not enrolled with the vault's recovery code (a"
        + " device that held the master key added or changed it)"
    case .revocationNotAuthorized(let id):
      "the revocation of device \(id.prefix(8)) was not authorized with the vault's recovery"
        + " code (a device that held the master key revoked it)"
    case .stateCorrupt(let path): "the device state \(path) is corrupt"
    }
  }

  /// What a check of the simulated sensor's state found.
  static func words(_ damage: SensorDamage) -> String {
    switch damage {
    case .malformedState: "the simulated sensor's state in the device state is malformed"
    case .unknownOutcome(let outcome):
      "the simulated sensor's queue holds an unknown outcome \(outcome.debugDescription)"
    case .counterAtMaximum(let field): "the simulated sensor's \(field) is at its maximum"
    }
  }
}
