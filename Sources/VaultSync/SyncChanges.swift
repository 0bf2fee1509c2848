import VaultFormat

/// One record that changed on one side since the base.
///
/// Its file before (nil: it was added) and after (nil: it was removed). A rename moves the file
/// to another bucket's folder under the same name.
struct SyncRecordChange {
  /// The file's path and row at the base.
  var old: (path: String, row: RecordRow)?
  /// The file's path and row now.
  var new: (path: String, row: RecordRow)?
}

/// A remote commit other than the base, verified (`vault(5)` Synchronizing): its state file,
/// its header, and what changed in it since the base.
struct IncomingCommit {
  /// The commit.
  var commit: String
  /// Its state file, opened.
  var state: SyncStateFile
  /// The records it changed, by file name.
  var records: [String: SyncRecordChange]
  /// The contents it added, by path.
  var addedContents: [String: SyncFiles.Content]
  /// The contents it removed, by path.
  var removedContents: [String: SyncFiles.Content]
}

extension RecordRow {
  /// True when both rows hold the same stored columns (their rowids aside).
  func isStored(as other: RecordRow?) -> Bool {
    guard let other else { return false }
    return recordID == other.recordID && lookup == other.lookup && kind == other.kind
      && revision == other.revision && box == other.box
  }
}
