import Glibc
import VaultCore
import VaultFormat

/// `vault config sync.auto on`: after a command that changed the vault, a `vault sync` started
/// in the background (a new session, no terminal, its messages in `PATH.sync/auto-sync.log`),
/// which the command never waits for.
///
/// The setting is this device's, for this vault: `vault.autosync` in the sync repository's own
/// git configuration. The background sync takes the key as any command does, from a session or
/// the agent; without one it cannot ask for the PIN, and says so in the log.
enum AutoSync {
  /// The git configuration key of the setting.
  static let configKey = "vault.autosync"
  /// The file, in the sync repository, that holds the last background sync's messages.
  static let logName = "auto-sync.log"

  /// The commands after which no background sync starts: sync itself, and those that publish
  /// or set up what they change themselves.
  static let excluded: Set<String> = ["sync", "rekey", "init", "config", "recover"]

  /// True when this device turned sync.auto on for the vault `vaultID`: its setting in the
  /// device state, else release 0.12.0's in the sync repository's git configuration.
  static func isSet(vaultID: VaultID, device: DeviceState, repository: GitRepository) -> Bool {
    if let set = device.vaultSettings[vaultID.hex]?.syncAuto { return set }
    return repository.exists && repository.configValue(configKey) == "true"
  }

  /// True when the vault syncs and sync.auto is set for it (`isSet`).
  static func isOn(_ context: Context, repository: GitRepository) -> Bool {
    guard repository.exists, let vault = try? context.openVault(),
      let device = try? context.deviceStore.read()
    else { return false }
    return isSet(vaultID: vault.vaultID, device: device, repository: repository)
  }

  /// Starts the background sync when `path`'s command committed a write and sync.auto is on;
  /// never fails the command (a sync that could not start is noted in the log).
  static func afterCommand(_ context: Context, path: [String]) {
    guard Vault.committedWrites > RunScope.current.writesAtStart, let first = path.first,
      !excluded.contains(first),
      let repository = try? GitRepository(
        path: GitRepository.path(forVault: context.vaultPath), environment: context.environment),
      isOn(context, repository: repository)
    else { return }
    let log = open(
      repository.path + "/" + logName,
      O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard log >= 0 else { return }
    defer { close(log) }
    let started = Subprocess.startDetached(
      RunScope.current.executable, ["sync", "--vault", context.vaultPath],
      environment: context.environment.variables, output: log)
    if started == nil {
      let note = Array("vault: error: the background sync could not be started\n".utf8)
      _ = note.withUnsafeBytes { Glibc.write(log, $0.baseAddress, $0.count) }
    }
  }
}

/// A key of `vault config`.
public enum ConfigName: String, ChoiceValue {
  /// Sync in the background after every change (this device's, for one vault).
  case syncAuto = "sync.auto"
  /// The program that asks for the PIN without a terminal (yours, for every vault: --global).
  case pinentry
  /// The folder of git's credentials (yours, for every vault: --global).
  case credentialFolder = "credential.folder"

  /// True for a key of `UserConfig` (`--global`).
  var isGlobal: Bool { self != .syncAuto }
}
