import CPlatform
import Glibc
import VaultCore
import VaultFormat
import VaultSync

/// `vault sync clone REMOTE`: a new device joins.
///
/// The vault file made from the remote with the recovery code, a new PIN for this device (as
/// `vault recover` sets it), then a sync that publishes this device's record. A failure before
/// the vault file exists leaves nothing behind.
struct SyncCloneCommand: VaultCommand {
  static let about = CommandAbout(
    "clone", "Join this device to a vault synced at REMOTE, with its recovery code.",
    discussion: """
      For a device with no vault yet: fetches REMOTE, asks for the vault's recovery code \
      (which opens it; a wrong code is refused before anything is written), verifies \
      every file, makes the vault file, then asks for a new PIN for this device twice (or \
      reads the code and the PIN as two lines from --pin-fd; a failure before the PIN is \
      set removes the vault file and repository it made) and syncs, so the other \
      devices learn of this one. This device gets its own PIN keyslot, journal writer key \
      and, with 'vault biometry activate', its own biometric activation.
      """)

  @ArgumentParameter(Keys.syncRemote) var syncRemote

  func run(_ context: Context) throws -> Int32 {
    let remote = try SyncSupport.checkedRemote(syncRemote)
    let folder = PrivateFiles.parentFolder(of: context.vaultPath)
    try PrivateFiles.ensureDirectory(folder)
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    let unfinished = repository.path + "/" + SyncSupport.cloneMarker
    // A clone killed before this device had its PIN left a vault file no PIN here opens, and its
    // repository with the marker: both go, and the clone starts again.
    if access(unfinished, F_OK) == 0 {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(context.vaultPath + suffix) }
      _ = SyncSupport.remove(tree: repository.path)
      Output.error(
        "vault: note: removed what an unfinished 'vault sync clone' left"
          + " (\(Output.printable(context.vaultPath)) and its sync repository); cloning again")
    }
    if access(context.vaultPath, F_OK) == 0 { throw VaultError.vaultExists(context.vaultPath) }
    if repository.exists { throw VaultError.staleSyncRepository(repository.path) }
    let cloned: VaultSync.Cloned
    do {
      try PrivateFiles.ensureDirectory(repository.path)
      let marker = open(unfinished, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard marker >= 0 else {
        throw CommandFailed("cannot write \(Output.printable(unfinished))")
      }
      close(marker)
      try repository.create(remote: remote)
      let code = try context.recoveryCode()
      cloned = try VaultSync.clone(
        into: context.vaultPath, environment: context.environment, repository: repository,
        recoveryCode: code)
      context.givenRecoveryCode = code
    } catch {
      _ = SyncSupport.remove(tree: repository.path)
      throw error
    }
    Output.error(
      "Made \(Output.printable(context.vaultPath)) from \(Output.printable(remote)) (commit"
        + " \(cloned.commit.prefix(12)), \(cloned.files) file\(cloned.files == 1 ? "" : "s")).")
    let unlocked: UnlockedVault
    do {
      unlocked = try RecoverCommand.recover(context)
    } catch {
      // Without this device's PIN the new vault file opens for nobody here: it goes, with the
      // repository, so that the command can simply be run again.
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(context.vaultPath + suffix) }
      _ = SyncSupport.remove(tree: repository.path)
      Output.error(
        "vault: note: removed the new vault file and its sync repository; run 'vault sync"
          + " clone' again")
      throw error
    }
    unlink(unfinished)
    SyncSupport.report(try VaultSync(unlocked, repository: repository).run(), remote: remote)
    return ExitCode.success.rawValue
  }
}
