import CPlatform
import Glibc
import VaultCore
import VaultFormat
import VaultSync

/// `sync` and `sync init`.
enum SyncCommandsRun {
  /// `vault sync`: one sync with the remote set up by `sync init`.
  static func sync(_ context: Context) throws {
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    // No vault here at all is said as such (a new device clones), before the sync repository.
    _ = try context.openVault()
    guard repository.exists else {
      throw VaultError.syncFailed(
        "this vault is not set up for sync (no \(Output.printable(repository.path))); run 'vault"
          + " sync init REMOTE' first")
    }
    let unlocked = try context.open(.use(reason: "sync the vault"))
    try enrollIfNeeded(context, unlocked)
    let done: SyncReport
    do {
      done = try VaultSync(unlocked, repository: repository).run()
    } catch VaultError.rotatedElsewhere(let by) {
      // A key from a session or the agent cannot open the new key's box: the PIN can.
      Output.error(
        "The vault's master key was rotated on another device (\(by)); this device takes the"
          + " new key with its PIN.")
      let again = try context.open(.administer(reason: "take the vault's new master key"))
      done = try VaultSync(again, repository: repository).run()
    }
    report(done, remote: repository.remoteURL())
  }

  /// A vault made before release 0.10.0 has no enrollment key: its devices are enrolled with
  /// the recovery code, asked for once (`vault(5)` ENROLLMENT), before it syncs.
  private static func enrollIfNeeded(_ context: Context, _ unlocked: UnlockedVault) throws {
    guard !unlocked.vault.isEnrolled else { return }
    Output.error(
      "This vault's devices are not enrolled with its recovery code yet (a vault made before"
        + " release 0.10.0): the recovery code enrolls them, once, so that only it can add a"
        + " device.")
    let code = try context.recoveryCode()
    try unlocked.enroll(code: code)
    Output.error("Enrolled the vault's \(unlocked.vault.header.devices.count) device record(s).")
  }

  /// `vault sync init REMOTE`: the repository beside the vault, then a first sync; on failure
  /// the repository is removed again, so the command can be run again.
  static func initialize(_ context: Context) throws {
    var remote = try checkedRemote(context)
    // A relative path is the one from here, wherever `vault sync` runs later.
    if isLocalPath(remote), !remote.hasPrefix("/") {
      var folder = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      guard getcwd(&folder, folder.count) != nil else {
        throw VaultError.invalidInput(
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
    try enrollIfNeeded(context, unlocked)
    var made: String?
    if isLocalPath(remote), access(remote, F_OK) != 0 {
      // A new bare repository goes in a folder that exists: a mistyped folder is said, not made.
      let parent = PrivateFiles.parentFolder(of: remote)
      var status = stat()
      guard stat(parent, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
        throw VaultError.invalidInput(
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
      report(done, remote: remote)
    } catch {
      _ = remove(tree: repository.path)
      if let made { _ = remove(tree: made) }
      throw error
    }
  }

  /// `vault sync clone REMOTE`: a new device joins.
  ///
  /// The vault file made from the remote with the recovery code, a new PIN for this device (as
  /// `vault recover` sets it), then a sync that publishes this device's record. A failure before
  /// the vault file exists leaves nothing behind.
  static func clone(_ context: Context) throws {
    let remote = try checkedRemote(context)
    let folder = PrivateFiles.parentFolder(of: context.vaultPath)
    try PrivateFiles.ensureDirectory(folder)
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    let unfinished = repository.path + "/" + cloneMarker
    // A clone killed before this device had its PIN left a vault file no PIN here opens, and its
    // repository with the marker: both go, and the clone starts again.
    if access(unfinished, F_OK) == 0 {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(context.vaultPath + suffix) }
      _ = remove(tree: repository.path)
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
        throw VaultError.storage("cannot write \(Output.printable(unfinished))")
      }
      close(marker)
      try repository.create(remote: remote)
      let code = try context.recoveryCode()
      cloned = try VaultSync.clone(
        into: context.vaultPath, environment: context.environment, repository: repository,
        recoveryCode: code)
      context.givenRecoveryCode = code
    } catch {
      _ = remove(tree: repository.path)
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
      _ = remove(tree: repository.path)
      Output.error(
        "vault: note: removed the new vault file and its sync repository; run 'vault sync"
          + " clone' again")
      throw error
    }
    unlink(unfinished)
    report(try VaultSync(unlocked, repository: repository).run(), remote: remote)
  }

  /// `body`; with `--rekey`, a device revoked already is refused with the hint that `vault
  /// rekey` rotates the key.
  private static func hintingRekey<R>(_ rekey: Bool, _ body: () throws -> R) throws -> R {
    do {
      return try body()
    } catch VaultError.invalidInput(let why) where rekey && why.hasSuffix("revoked already") {
      throw VaultError.invalidInput(why + "; 'vault rekey' rotates the master key")
    }
  }

  /// The file in the sync repository that marks a `vault sync clone` not finished yet.
  static let cloneMarker = "vault-clone-unfinished"

  /// `vault sync devices [--json]`: the header's device records, with their commit counts as of
  /// the last sync, then the revoked ids.
  static func devices(_ context: Context) throws {
    let unlocked = try context.open(.use(reason: "list the devices"))
    let vault = unlocked.vault
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    let vector =
      repository.exists
      ? try VaultSync(unlocked, repository: repository).lastSync()?.vector : nil
    let own = vault.localDevice?.deviceID
    let revoked = vault.header.revokedDeviceHexIDs
    let rows = vault.header.devices.map { device in
      let hex = device.deviceIDBytes.hex
      return (
        id: hex, biometry: device.biometry?.state.rawValue ?? "off",
        commits: vector?.counts[hex] ?? 0, this: device.deviceID == own
      )
    }
    if context.flag(Keys.json) {
      let items =
        rows.map { row in
          JSONOutput.object([
            ("device", .string(row.id)), ("this", .bool(row.this)),
            ("biometry", .string(row.biometry)), ("commits", .number(Int(row.commits))),
            ("revoked", .bool(false)),
          ])
        }
        + revoked.map { id in
          JSONOutput.object([
            ("device", .string(id)), ("this", .bool(false)), ("biometry", .null),
            ("commits", .number(Int(vector?.counts[id] ?? 0))), ("revoked", .bool(true)),
          ])
        }
      Output.print(JSONOutput.array(items).rendered + "\n")
      return
    }
    for row in rows {
      let commits = "\(row.commits) commit\(row.commits == 1 ? "" : "s")"
      Output.print(
        "\(row.id.prefix(8))  \(row.biometry + String(repeating: " ", count: max(0, 8 - row.biometry.count)))"
          + "  \(commits)\(row.this ? "  (this device)" : "")\n")
    }
    for id in revoked { Output.print("\(id.prefix(8))  revoked\n") }
    if vector == nil {
      Output.error("vault: note: this device has not synced yet; commits count from its first sync")
    }
  }

  /// `vault sync revoke DEVICE`: the record removed with the PIN and a match, then a sync when
  /// the vault syncs; a failed sync leaves the revocation for the next.
  static func revoke(_ context: Context) throws {
    let named = try context.argument(Keys.syncDevice)
    let rekey = context.flag(Keys.rekey)
    // Refusals that need no key come before the PIN and the match (the header is checked again
    // once the key has authenticated it).
    let opened = try context.openVault()
    try hintingRekey(rekey) { try opened.requireOther(opened.device(named: named)) }
    let unlocked = try context.open(.administer(reason: "revoke a device"))
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    try hintingRekey(rekey) {
      try unlocked.vault.requireOther(unlocked.vault.device(named: named))
    }
    // Whatever the remote holds first (a rotation another device made, above all): a device
    // revoked here before its rotation was taken would leave this one unable to follow it.
    try RekeyCommand.syncBeforeRotation(context, unlocked)
    // The code in force authorizes the revocation (and, with --rekey, the rotation after it).
    let current =
      unlocked.vault.isEnrolled
      ? try RekeyCommand.codeInForce(
        context, unlocked,
        prompt: rekey
          ? "Recovery code in force (it authorizes the revocation and the rotation): "
          : "Recovery code in force (it authorizes the revocation): ",
        wrong: .revocation)
      : rekey
        ? try RekeyCommand.currentCode(
          context, unlocked, revoking: try unlocked.vault.device(named: named).deviceID) : nil
    let code = rekey ? RecoveryCode.generate() : nil
    if let code {
      do {
        try context.confirmNewRecoveryCode(code, heading: RekeyCommand.heading)
      } catch VaultError.invalidInput(let why) {
        throw VaultError.invalidInput(why + "; nothing was revoked or rotated")
      }
    }
    let record = try unlocked.vault.device(named: named)
    try unlocked.vault.revoke(record, masterKey: unlocked.masterKey, code: current)
    let id = record.deviceIDBytes.hex.prefix(8)
    Output.error("Revoked the device \(id): its PIN keyslot and writer key are gone.")
    if let code {
      do {
        _ = try RekeyCommand.rotate(context, unlocked, code: code, current: current)
      } catch {
        // A rotation another device made, taken meanwhile, does not carry the revocation (it
        // was signed with the old code): the device is not revoked any more.
        if unlocked.vault.header.revokedDevices?.contains(record.deviceID) == true {
          Output.error(
            "vault: note: the device is revoked here; the master key was not rotated (the old"
              + " recovery code still works): run 'vault rekey'")
        } else {
          Output.error(
            "vault: note: another device's rotation came first and the revocation made here, signed"
              + " with the old code, did not reach the vault: nothing is revoked or rotated; run"
              + " the command again with the new recovery code")
        }
        throw error
      }
      return
    }
    Output.error(
      "It still holds the master key and can read what it synced: 'vault rekey' rotates the key"
        + " (a new recovery code), after which its copy reads nothing written later.")
    guard repository.exists else { return }
    do {
      report(try VaultSync(unlocked, repository: repository).run(), remote: repository.remoteURL())
    } catch {
      Output.error("vault: note: the revocation is stored here; 'vault sync' publishes it")
      throw error
    }
  }

  /// REMOTE, refused when it is empty, holds a newline or starts with '-' (git would read an
  /// option).
  private static func checkedRemote(_ context: Context) throws -> String {
    let remote = try context.argument(Keys.syncRemote).text
    guard !remote.isEmpty, !remote.hasPrefix("-"), !remote.contains("\n") else {
      throw VaultError.invalidInput("REMOTE must be a git remote: a path or a URL")
    }
    return remote
  }

  /// True for a remote git reads as a local path: no URL scheme and no `host:` of ssh's short
  /// form before the first slash.
  static func isLocalPath(_ remote: String) -> Bool {
    if remote.contains("://") { return false }
    guard let colon = remote.firstIndex(of: ":") else { return true }
    guard let slash = remote.firstIndex(of: "/") else { return false }
    return slash < colon
  }

  private static func remove(tree path: String) -> Bool {
    vault_remove_tree_at(AT_FDCWD, path, 0) == 0
  }

  static func report(_ done: SyncReport, remote: String?) {
    let with = remote.map { " with \(Output.printable($0))" } ?? ""
    if done.tookRotation {
      Output.error(
        "Took the vault's new master key from the remote; every session of this vault was"
          + " revoked (run 'vault unlock' again).")
    }
    for line in done.conflicts { Output.error(Output.printable(line)) }
    if done.received == 0 && done.sent == 0 && !done.headerReceived {
      Output.error("Up to date\(with) (commit \(done.commit.prefix(12))).")
      return
    }
    Output.error(
      "Synced\(with): \(done.received) record\(done.received == 1 ? "" : "s") received, "
        + "\(done.sent) file\(done.sent == 1 ? "" : "s") sent"
        + (done.headerReceived ? ", the vault's header (its devices) updated" : "")
        + " (commit \(done.commit.prefix(12))).")
  }
}
