import FoundationEssentials
import Glibc
import VaultCore
import VaultCrypto
import VaultFormat

extension VaultSync {
  /// What a clone read from the remote.
  public struct Cloned: Sendable {
    /// The remote's commit the vault file was made from.
    public var commit: String
    /// The records and contents it holds.
    public var files: Int
  }

  /// Makes the vault file at `path` from the remote's newest commit, for a device that joins
  /// with the recovery code (`vault sync clone`).
  ///
  /// The state file's public part gives the recovery slot; the code opens it (so a wrong code is
  /// refused before anything is read), then the state is verified as a sync verifies a remote
  /// (its header MAC, the files aggregate of the whole tree) and the file is built, under a
  /// temporary name, with the remote's header, every record and content, and a first state. The
  /// device has no record in the header yet: a recovery on the new file gives it its PIN keyslot.
  /// The header's enrollment key must be the code's, and every device record enrolled by it.
  ///
  /// - Throws: `VaultError.vaultExists` when `path` exists; `.syncFailed` when the remote holds
  ///   no vault or git fails; `.wrongRecoveryCode`; `SyncError.refused` for a remote that does not
  ///   verify; `.storage`.
  public static func clone(
    into path: String, environment: VaultEnvironment, repository: SyncRepository,
    recoveryCode: SecureBytes
  ) throws -> Cloned {
    if FileManager.default.fileExists(atPath: path) { throw VaultError.vaultExists(path) }
    guard let commit = try repository.fetch() else {
      throw VaultError.syncFailed(.noVaultBranch)
    }
    let changes = try repository.changes(from: nil, to: commit)
    guard let stateBlob = changes.first(where: { $0.path == SyncFiles.statePath })?.newBlob else {
      throw SyncError.refused(.noStateFile)
    }
    try refusing { try checkLayout(changes) }
    try checkSizes(changes, state: stateBlob, repository: repository)
    guard let stateBytes = try repository.read([stateBlob])[stateBlob] else {
      throw VaultError.syncFailed(.stateFileNotGiven)
    }
    let publicPart = try refusing { try SyncStateFile.readPublic(stateBytes) }
    let masterKey = try publicPart.recovery.open(
      code: recoveryCode, vaultID: publicPart.vaultID, kdf: publicPart.kdf)
    let codec = SyncFiles(vaultID: publicPart.vaultID, masterKey: masterKey)
    let tree = try readWhole(
      commit, stateBytes: stateBytes, codec: codec, masterKey: masterKey, repository: repository)
    // Only devices the code enrolled are in the vault this device joins.
    try refusing {
      guard let enrolled = tree.header.enrollmentKey else {
        throw SyncError.devicesNotEnrolled
      }
      let signer = try Enrollment.key(code: recoveryCode, vaultID: publicPart.vaultID)
      guard constantTimeEqual(enrolled, signer.publicKey) else {
        throw SyncError.refused(.enrollmentKeyNotTheCodes)
      }
      try tree.header.verifyEnrollments()
    }
    let (state, rows, contents) = (
      tree.state, tree.records.map(\.row), tree.contents.map(\.content)
    )
    let first = try Vault.makeFile(
      at: path, vaultID: publicPart.vaultID, masterKey: masterKey,
      header: (state.header, state.headerMAC)
    ) { write in
      for row in rows { try write.insert(row, keepingBox: false) }
      for content in contents {
        for (index, box) in content.boxes.enumerated() {
          try write.insert(
            ChunkRow(
              recordID: content.recordID, revision: content.revision, index: Int64(index),
              box: box))
        }
      }
    }
    if environment.crashPoint == "clone-after-file" { kill(getpid(), SIGKILL) }
    let vault = try Vault.open(path: path, environment: environment)
    // Every record as `vault check` verifies it: a device that holds the master key can seal
    // records that open but that the check refuses (a journal entry whose signature fails, a
    // revision without its entry), which a clone must not take either.
    do {
      _ = try refusing { try IntegrityCheck.verify(vault, masterKey: masterKey) }
    } catch {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
      throw error
    }
    try vault.device.update {
      vault.recordAuthenticatedHeader(in: &$0)
      // The new file starts a chain of its own: a device that held this vault before (its file
      // lost or removed) remembers a later state of the old file, which the clone replaces.
      $0.states[vault.vaultID.hex] = RememberedState(generation: first.generation, mac: first.mac)
    }
    return Cloned(commit: commit, files: rows.count + contents.count)
  }
}
