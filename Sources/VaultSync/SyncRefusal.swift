import VaultFormat

/// Which check the sync remote failed (`SyncError.refused`), with the facts of what was found.
///
/// Nothing of the remote is merged when it is refused. The command line gives the words
/// (`SyncWords`).
public enum SyncRefusal: Equatable, Sendable {
  // MARK: The remote's commit and tree

  /// The remote has no vault branch, but this device synced `synced` (a commit) with it: the
  /// branch was deleted or the remote replaced.
  case noVaultBranch(synced: String)
  /// The remote's state does not include `synced`, the commit this device last synced, or its
  /// commit does not descend from it: the remote was rolled back or forked.
  case rolledBack(synced: String)
  /// The remote's commit has no state file.
  case noStateFile
  /// The remote's state file is longer than any vault writes (`VaultSync.maximumStateFile`).
  case stateFileTooLong
  /// A record file of the remote is longer than any vault writes
  /// (`VaultSync.maximumRecordFile`).
  case recordFileTooLong
  /// The remote's commit holds a file at `path` that vault does not write.
  case unwrittenFile(path: String)
  /// The remote's commit removed the file at `path` (the state file or `.gitattributes`).
  case missingFile(path: String)
  /// The remote's commit holds the file at `path` as other than a plain file (git `mode`).
  case notPlainFile(path: String, mode: String)
  /// Git did not give the file at `path` of the remote's tree.
  case fileNotGiven(path: String)
  /// The remote's `.gitattributes` is not the one vault writes.
  case foreignAttributes

  // MARK: The remote's state file

  /// The header the remote's state file carries failed its MAC.
  case headerFailedAuthentication
  /// The header the remote's state file carries is another vault's.
  case anotherVaultsHeader
  /// The public part of the remote's state file is not its header's (the rotation links, the
  /// master boxes or the recovery slot differ).
  case publicPartNotHeaders
  /// The remote's files do not add up to the files aggregate its state file names.
  case filesNotNamed
  /// The handoff of the remote's state file has more links or master boxes than any vault
  /// writes.
  case handoffTooLong
  /// A file the remote holds failed one of the vault's own checks: the failure as it was thrown
  /// (a `VaultError.integrity`, `.malformedHeader` or `.unsupportedVersion` of the header it
  /// carries).
  case damaged(VaultError)

  // MARK: The remote's header

  /// The remote changed the vault's recovery slot outside a rotation.
  case recoverySlotChanged
  /// The remote changed the vault's KDF parameters or journal keys outside a rotation.
  case kdfOrJournalKeysChanged
  /// The remote changed the vault's rotation links outside a rotation.
  case rotationLinksChanged
  /// The remote changed the policy the vault's new devices start with.
  case policyChanged
  /// Another device revoked this one (`deviceID`, in hex) from the vault.
  case thisDeviceRevoked(deviceID: String)
  /// The remote retired a writer key of device `deviceID` (in hex) without a revocation made
  /// with the recovery code.
  case writerRetiredWithoutRevocation(deviceID: String)

  // MARK: A rotation made on another device

  /// The remote's master key was rotated (the newest link signed by `signer`, a device id in
  /// hex, nil when it does not decode) and this device never synced.
  case rotatedBeforeFirstSync(signer: String?)
  /// This vault's devices are not enrolled with its recovery code yet (a vault made before
  /// release 0.10.0), so a rotation cannot be taken.
  case notEnrolled
  /// The enrollment key of the remote's header is not the recovery code's (`vault sync clone`).
  case enrollmentKeyNotTheCodes
  /// The enrollment key of the remote's header is not the one its newest rotation authorized.
  case enrollmentKeyNotAuthorized
  /// The journal key pair of the remote's header does not match.
  case journalKeysDoNotMatch
  /// The remote's public journal key is malformed.
  case journalKeyMalformed
  /// The remote holds a record of an unknown kind.
  case unknownRecordKind
  /// A journal entry of the remote does not open under the new journal key.
  case journalEntryDoesNotOpen
  /// The remote's header dropped the device record `deviceID` (in hex) without a revocation.
  case deviceDropped(deviceID: String)
  /// The remote's header has no record of this device.
  case noRecordOfThisDevice

  // MARK: A record the remote changed

  /// The record file `record` (the 32 hex digits of its name) holds a device's own sync record,
  /// which no device pushes.
  case syncRecordPushed(record: String)
  /// The remote removed the counter record `record` without its entry.
  case counterRemoved(record: String)
  /// A content the remote's earlier version of record `record` named belongs to no entry or
  /// revision now.
  case contentOrphaned(record: String)
  /// The remote changed the kept revision record `record`, which never changes.
  case revisionChanged(record: String)
  /// The remote lowered the counter record `record`.
  case counterLowered(record: String)
  /// The remote put back an earlier version of the record `record`: `revision` after
  /// `after`.
  case earlierRevision(record: String, revision: Int64, after: Int64)
}
