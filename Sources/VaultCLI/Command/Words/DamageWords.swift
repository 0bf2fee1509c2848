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
}
