import CPlatform
import Glibc
import VaultCore
import VaultFormat
import VaultSync

/// `vault sync init REMOTE`: the repository beside the vault, then a first sync; on failure
/// the repository is removed again, so the command can be run again.
struct SyncInitCommand: VaultCommand {
  static let about = CommandAbout(
    "init", "Set up sync with REMOTE and sync once.",
    discussion: """
      Makes the sync repository beside the vault file (PATH.sync), with REMOTE as its \
      origin, and syncs: into an empty remote the whole vault is pushed; a remote that \
      holds this vault is merged. A remote that holds another vault is refused.
      """)

  @ArgumentParameter(Keys.syncRemote) var syncRemote

  func run(_ context: Context) throws -> Int32 {
    var remote = try SyncSupport.checkedRemote(syncRemote)
    // A relative path is the one from here, wherever `vault sync` runs later.
    if SyncSupport.isLocalPath(remote), !remote.hasPrefix("/") {
      var folder = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      guard getcwd(&folder, folder.count) != nil else {
        throw InputRefused(
          "the current folder cannot be read; give REMOTE as a full path")
      }
      let here = folder.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      remote = String(decoding: here, as: UTF8.self) + "/" + remote
    }
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    if repository.exists {
      throw VaultError.syncRepositoryExists(path: repository.path, remote: repository.remoteURL())
    }
    _ = try context.openVault()
    let unlocked = try context.open(.use(reason: "set up sync"))
    try SyncSupport.enrollIfNeeded(context, unlocked)
    var made: String?
    if SyncSupport.isLocalPath(remote), access(remote, F_OK) != 0 {
      // A new bare repository goes in a folder that exists: a mistyped folder is said, not made.
      let parent = PrivateFiles.parentFolder(of: remote)
      var status = stat()
      guard stat(parent, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
        throw InputRefused(
          "the folder \(Output.printable(parent)) does not exist; create it first, or give the"
            + " path of an existing repository")
      }
      try repository.createBare(at: remote)
      made = remote
    }
    do {
      try repository.create(remote: remote)
      let sync = try VaultSync(unlocked, repository: repository)
      // A base from an earlier sync repository means nothing to this one.
      if try sync.lastSync() != nil { try sync.forgetBase() }
      let done = try sync.run()
      if let made { Output.error("Made a new bare repository at \(Output.printable(made)).") }
      SyncSupport.report(done, remote: remote)
    } catch {
      _ = SyncSupport.remove(tree: repository.path)
      if let made { _ = SyncSupport.remove(tree: made) }
      throw error
    }
    return ExitCode.success.rawValue
  }
}
