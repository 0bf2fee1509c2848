import VaultCrypto
import VaultFormat

extension VaultSync {
  /// Every file of one commit, verified under one master key.
  struct WholeTree {
    /// The commit's state file, opened.
    var state: SyncStateFile
    /// The header it carries, its MAC verified.
    var header: Header
    /// Each record file: its path, its bytes as the tree holds them, its row.
    var records: [(path: String, bytes: [UInt8], row: RecordRow)]
    /// Each content file: its path, its bytes, its content.
    var contents: [(path: String, bytes: [UInt8], content: SyncFiles.Content)]
  }

  /// Reads and verifies every file of `commit` (whose state file is `stateBytes`) under
  /// `codec`'s key (`vault(5)` SYNC REPOSITORY): its layout and sizes, the state file, the
  /// header's MAC and vault id, every file opening, and the files aggregate of the whole tree.
  ///
  /// - Throws: `SyncError.refused` for a tree that does not verify; `.syncFailed` when
  ///   git fails.
  static func readWhole(
    _ commit: String, stateBytes: [UInt8], codec: SyncFiles, masterKey: SymmetricKey,
    repository: SyncRepository
  ) throws -> WholeTree {
    let changes = try repository.changes(from: nil, to: commit)
    try refusing { try checkLayout(changes) }
    let synced = changes.filter { isSynced($0.path) }
    if let state = changes.first(where: { $0.path == SyncFiles.statePath })?.newBlob {
      try checkSizes(synced, state: state, repository: repository)
    }
    let blobs = try repository.read(synced.compactMap(\.newBlob))
    return try refusing {
      let state = try SyncStateFile.open(stateBytes, codec: codec)
      guard constantTimeEqual(Header.mac(state.header, masterKey: masterKey), state.headerMAC)
      else { throw SyncError.refused(.headerFailedAuthentication) }
      let header = try Header.parse(state.header)
      guard header.vaultID == codec.vaultID else {
        throw SyncError.refused(.anotherVaultsHeader)
      }
      var tree = WholeTree(state: state, header: header, records: [], contents: [])
      var sum = Aggregate.zero
      for change in synced {
        guard let blob = change.newBlob, let bytes = blobs[blob] else {
          throw SyncError.refused(.fileNotGiven(path: change.path))
        }
        sum.add(codec.hash(path: change.path, bytes: bytes))
        if change.path.hasPrefix(SyncFiles.recordsFolder + "/") {
          tree.records.append(
            (change.path, bytes, try codec.openRecord(path: change.path, bytes: bytes)))
        } else {
          tree.contents.append(
            (change.path, bytes, try codec.openContent(path: change.path, bytes: bytes)))
        }
      }
      guard sum.bytes == state.files else {
        throw SyncError.refused(.filesNotNamed)
      }
      return tree
    }
  }
}
