import VaultFormat
import VaultJournal

/// The words of an integrity failure: which object failed which check.
enum DamageWords {
  /// The phrase after "integrity failure: " (and after "the sync remote was refused: " when a
  /// received file is damaged).
  static func phrase(_ damage: Damage) -> String {
    switch damage {
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

  // MARK: Records, state, SQLite, entries

  /// How the vault's state failed to authenticate the file.
  static func words(_ damage: StateDamage) -> String {
    switch damage {
    case .noValidState: "the vault has no valid state (its states table is damaged)"
    case .aggregateRow: "the vault's aggregate row is missing or malformed"
    case .headerFailedAuthentication:
      "the vault header failed authentication (the file was edited)"
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
