import CPlatform
import Glibc
import VaultCore
import VaultFormat
import VaultSync

/// `vault sync`: one sync with the remote set up by `sync init`.
struct SyncCommand: VaultCommand {
  static let about = CommandAbout(
    "sync", "Carry the vault between your devices through a git repository.",
    discussion: """
      Run alone, commits this device's changes, fetches the remote, verifies it, merges it \
      record by record, and pushes; needs the key (the PIN and a match, or a session). 'vault \
      sync init REMOTE' sets it up: REMOTE is any git remote (a path, an ssh or https URL); a \
      local path that does not exist becomes a new bare repository. The repository holds only \
      sealed files under opaque names, with fixed commit messages, authors and dates: see SYNC \
      in vault(1). A remote that is older than what this device synced, or whose files do not \
      verify, is refused with exit 17 and nothing merged; git or the remote failing is exit 21.
      """)

  static let subcommands: [any VaultCommand.Type] = [
    SyncInitCommand.self, SyncCloneCommand.self, SyncDevicesCommand.self, SyncRevokeCommand.self,
  ]

  func run(_ context: Context) throws -> Int32 {
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    // No vault here at all is said as such (a new device clones), before the sync repository.
    _ = try context.openVault()
    guard repository.exists else {
      throw VaultError.syncFailed(.notSetUp(repository: repository.path))
    }
    let unlocked = try context.open(.use(reason: "sync the vault"))
    try SyncSupport.enrollIfNeeded(context, unlocked)
    let done: SyncReport
    do {
      done = try VaultSync(unlocked, repository: repository).run()
    } catch VaultError.rotatedElsewhere(let signer) {
      // A key from a session or the agent cannot open the new key's box: the PIN can.
      Output.error(
        "The vault's master key was rotated on another device (\(SyncWords.by(signer))); this"
          + " device takes the new key with its PIN.")
      let again = try context.open(.administer(reason: "take the vault's new master key"))
      done = try VaultSync(again, repository: repository).run()
    }
    SyncSupport.report(done, remote: repository.remoteURL())
    return ExitCode.success.rawValue
  }
}
