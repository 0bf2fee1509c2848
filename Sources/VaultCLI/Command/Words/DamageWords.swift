import VaultFormat
import VaultJournal

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
    // MARK: Core, agent, journal
    case .keys(let damage): phrase(damage)
    case .biometricSealMalformed: "the biometric seal is malformed"
    case .tables(let damage): phrase(damage)
    case .session(let damage): phrase(damage)
    case .export(let damage): phrase(damage)

    // MARK: Records, state, SQLite, entries
    case .state(let state): words(state)
    case .malformedRow(let table): "\(words(table)) of the vault is malformed"
    case .database(let damage): words(damage)
    case .record(let damage): words(damage)
    case .malformedBox(let object): "\(object) is malformed"
    case .content(let name, let damage): "the content of '\(name)' \(words(damage))"
    case .journalEntry(let damage): words(damage)
    case .pendingJournalEntryRefused(let hexID, let reason, let others):
      "pending journal entry \(hexID.prefix(JournalStore.shortIDLength)) is refused: "
        + phrase(reason) + (others > 0 ? " (and \(others) more)" : "")
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
    case .copyOfMigratedVault:
      "this is a format 1 copy of a vault this device has already seen in format 2 (an old copy"
        + " was put back); nothing was read"
    case .malformedRow: "a format 1 row is malformed"
    case .unknownRowKind: "a format 1 row has an unknown kind"
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

  // MARK: Core, agent, journal

  /// The words of a key of the header that does not match.
  static func phrase(_ damage: KeyDamage) -> String {
    switch damage {
    case .editedSinceAuthenticated:
      "the vault header was edited since this device last authenticated it"
    case .keyslotsEdited:
      "the vault header's KDF parameters or keyslots were edited (they do not match this"
        + " device's record)"
    case .masterBoxEdited:
      "the master key sealed to this device does not open (the vault header's master_box was"
        + " edited)"
    case .enrollmentKeyNotRecoveryCodes:
      "the vault's enrollment key is not its recovery code's (the recovery slot was edited by"
        + " whoever held the master key)"
    case .recoverySlotHoldsAnotherKey: "the recovery slot does not hold the vault's master key"
    case .writerKeyNotHeaders:
      "this device's writer key is not the one in the vault's header; unlock with the PIN once,"
        + " then rotate"
    case .journalKeyDiffers:
      "the vault's journal key differs from the one this device last authenticated; nothing was"
        + " written"
    }
  }

  /// The words of what the vault's tables hold that no record accounts for.
  static func phrase(_ damage: TableDamage) -> String {
    switch damage {
    case .structure(let findings):
      "the database structure is damaged: \(findings.first ?? "no answer")"
        + (findings.count > 1 ? " (and \(findings.count - 1) more)" : "")
    case .unwrittenKinds(let count): "\(count) record(s) of a kind this version does not write"
    case .malformedRecord(let id): "record \(id.prefix(8)) is malformed"
    case .chunksOfNoVersion: "content chunks of the vault belong to no entry or revision"
    case .unaccountedRows(let count): "\(count) row(s) of the vault cannot be accounted for"
    }
  }

  /// The words of what a held key found about its vault file.
  static func phrase(_ damage: SessionDamage) -> String {
    switch damage {
    case .vaultIDChanged:
      "the vault id in the header changed since the vault was unlocked (the file was edited or"
        + " damaged)"
    }
  }

  /// The words of an export's failed check.
  static func phrase(_ damage: ExportDamage) -> String {
    switch damage {
    case .cutShortInHeader: "the export is cut short inside its header"
    case .endsBeforeFirstMessage: "the export is cut short: it ends before its first message"
    case .endsWithoutFinalMessage(let messages):
      "the export is cut short: it ends after \(messages) message\(messages == 1 ? "" : "s")"
        + " without its final one"
    case .bytesAfterFinalMessage: "bytes follow the export's final message"
    case .unknownTag(let message): "message \(message) of the export has an unknown tag"
    case .shortMessage(let message):
      "the export is cut short: message \(message) is short and not the final one"
    }
  }

  // MARK: Records, state, SQLite, entries

  /// How the vault's state failed to authenticate the file.
  static func words(_ damage: StateDamage) -> String {
    switch damage {
    case .noValidState: "the vault has no valid state (its states table is damaged)"
    case .aggregateRow: "the vault's aggregate row is missing or malformed"
    case .stateFailedAuthentication:
      "the vault's state failed authentication (the file was edited)"
    case .headerOrAggregateNotAuthenticated:
      "the vault's header or aggregate is not the one its state authenticates (an older header or"
        + " rows were put back)"
    case .recordsNotAuthenticated:
      "the vault's records are not the ones its state authenticates (a record was deleted, added"
        + " or put back from an older copy)"
    case .chunksNotAuthenticated:
      "the vault's content chunks are not the ones its state authenticates (a chunk was changed,"
        + " deleted, added or put back)"
    case .recordsShareIDOrName: "two records of the vault share an id or a name"
    case .oversizedChunk: "the vault holds an oversized content chunk"
    case .chunkMissing: "a content chunk of the vault is missing"
    case .chunkTooShort: "a content chunk of the vault is too short to be a box"
    }
  }

  /// A row of `table`, as a malformed one is named.
  static func words(_ table: VaultTable) -> String {
    switch table {
    case .records: "a record row"
    case .chunks: "a content chunk row"
    case .states: "a state row"
    }
  }

  /// What SQLite or the schema check found.
  static func words(_ damage: DatabaseDamage) -> String {
    switch damage {
    case .notADatabase: "the vault file is not a valid database"
    case .damaged(let message): "the vault file is damaged (\(message))"
    case .lengthOutOfBounds: "the vault file is damaged (a stored length is out of bounds)"
    case .malformedSchemaRow: "the vault's schema has a malformed row"
    case .schemaChanged(let change):
      "the vault's schema was changed: \(words(change)) (a trigger, view or index could make"
        + " writes do nothing)"
    }
  }

  /// How the schema differs from the format's.
  static func words(_ change: SchemaChange) -> String {
    switch change {
    case .extraObject(let type, let name, let format): "\(type) '\(name)' is not format \(format)'s"
    case .missingOrChanged(let format): "a table or index of format \(format) is missing or changed"
    }
  }

  /// The check a record failed.
  static func words(_ damage: RecordDamage) -> String {
    switch damage {
    case .unknownKind(let kind): "a record of the vault has an unknown kind (\(kind))"
    case .nameIndex(let name): "the name index of '\(name)' is damaged"
    case .notAnEntry: "a record under an entry's name is not an entry"
    case .entryOfAnotherName(let name): "the entry stored under '\(name)' belongs to another name"
    case .malformedEntryMetadata: "an entry's metadata is malformed"
    case .malformedTombstone: "a tombstone of the vault is malformed"
    case .malformedRevision: "a revision record of the vault is malformed"
    case .misplacedSettings: "a settings record of the vault is misplaced"
    case .malformedSettings: "the vault's settings record is malformed"
    case .malformedCounter: "a counter record is malformed"
    case .counterOfUnknownName(let recordID):
      "counter record \(recordID.hex.prefix(8)) has a name of no known form"
    case .malformedSyncRecord: "this device's sync record is malformed"
    case .orphanRevision(let name, let revision):
      "revision \(revision) of '\(name)' belongs to no entry"
    case .orphanCounter(let entryID):
      "the one-time code counter of record \(entryID.hex.prefix(8)) belongs to no entry"
    case .orphanChunks(let count): "\(count) content chunk(s) belong to no entry or revision"
    }
  }

  /// The check a content failed, after "the content of 'NAME' ".
  static func words(_ damage: ContentDamage) -> String {
    switch damage {
    case .streamWithoutContentID: "is a stream without a content id"
    case .missingOrExtraChunks: "has missing or extra chunks"
    case .missingOrOversizedChunk: "has a missing or oversized chunk"
    case .noStreamHeader: "has no stream header"
    case .cutShortOrRunsPastEnd: "is cut short or runs past its end"
    case .wrongChunkLength: "has a chunk of the wrong length"
    case .nonzeroPadding: "has nonzero padding"
    }
  }

  /// The check a journal entry failed.
  static func words(_ damage: JournalEntryDamage) -> String {
    switch damage {
    case .malformed: "a journal entry is malformed"
    case .copiedFromAnotherVault: "a journal entry was copied from another vault"
    case .copiedFromAnotherEntry: "a journal entry was copied from another entry"
    case .zeroSequenceOrRevision: "a journal entry has a sequence or revision of 0"
    case .malformedTime: "a journal entry has a malformed time"
    case .wrongLength: "a journal entry has the wrong length"
    case .nonzeroPadding: "a journal entry has nonzero padding"
    case .signatureDoesNotVerify: "a journal entry's writer signature does not verify"
    case .failedAuthentication(let recordID):
      "journal entry \(recordID.hex.prefix(8)) failed authentication"
    case .signedByNoAuthorizedWriter(let recordID):
      "journal entry \(recordID.hex.prefix(8)) is signed by no authorized writer"
    case .storedUnderAnotherRevision(let recordID):
      "journal entry \(recordID.hex.prefix(8)) is stored under another revision"
    case .malformedRow: "the row is malformed"
    case .copyOfFoldedEntry: "a copy of an entry already in the journal"
    case .sequenceReused(let sequence):
      "its writer's sequence number \(sequence) was already used (a replayed entry)"
    }
  }
}
