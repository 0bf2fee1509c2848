import VaultFormat

/// The words of an integrity failure: which object failed which check.
enum DamageWords {
  /// The phrase after "integrity failure: " (and after "the sync remote was refused: " when a
  /// received file is damaged).
  static func phrase(_ damage: Damage) -> String {
    switch damage {
    // MARK: Core, agent, journal
    case .keys(let damage): phrase(damage)
    case .biometricSealMalformed: "the biometric seal is malformed"
    case .tables(let damage): phrase(damage)
    case .journalEntry(let id, let damage): "journal entry \(id.prefix(8)) " + phrase(damage)
    case .pendingJournalEntry(let id, let refusal, let more):
      "pending journal entry \(id.prefix(8)) is refused: \(JournalWords.reason(refusal))"
        + (more > 0 ? " (and \(more) more)" : "")
    case .session(let damage): phrase(damage)
    case .export(let damage): phrase(damage)
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
    case .unknownKind(let kind): "a record of the vault has an unknown kind (\(kind))"
    case .malformedRecord(let id): "record \(id.prefix(8)) is malformed"
    case .chunksMissingOrExtra(let name): "the content of '\(name)' has missing or extra chunks"
    case .chunksOfNoVersion: "content chunks of the vault belong to no entry or revision"
    case .unaccountedRows(let count): "\(count) row(s) of the vault cannot be accounted for"
    }
  }

  /// The words of a journal entry's failed check, after "journal entry ID ".
  static func phrase(_ damage: JournalEntryDamage) -> String {
    switch damage {
    case .failedAuthentication: "failed authentication"
    case .signedByNoAuthorizedWriter: "is signed by no authorized writer"
    case .storedUnderAnotherRevision: "is stored under another revision"
    }
  }

  /// The words of a session file's failed check.
  static func phrase(_ damage: SessionDamage) -> String {
    switch damage {
    case .vaultIDChanged:
      "the vault id in the header changed since this session was issued (the file was edited or"
        + " damaged)"
    case .malformed(let path?): "the session file \(path) is malformed"
    case .malformed(nil): "the session file is malformed"
    case .anotherVaultsID(let path): "the session file \(path) holds another vault's id"
    case .failedAuthentication(let path):
      "the session file \(path) failed authentication (it was edited or damaged)"
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
}
