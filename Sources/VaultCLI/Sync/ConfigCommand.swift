import Glibc
import VaultCore
import VaultFormat

/// `vault config`.
struct ConfigCommand: VaultCommand {
  static let about = CommandAbout(
    "config", "Show or change this device's settings for the vault (sync.auto).",
    discussion: """
      Alone, prints every setting as KEY VALUE; with KEY, its value; with KEY VALUE, sets \
      it. sync.auto (default off; the vault must sync, see 'vault sync init'): on, every \
      command that changes the vault starts 'vault sync' in the background when it is \
      done, and never waits for it. The background sync takes the key from a session or \
      the agent, as any command does; without one it cannot ask for the PIN and does \
      nothing. Its messages replace those of the one before in PATH.sync/auto-sync.log. \
      The setting is this device's (in the sync repository's git configuration), not \
      synced. Needs no key.
      """)

  @OptionalArgument(Keys.configKey) var configKey
  @OptionalArgument(Keys.configValue) var configValue

  func run(_ context: Context) throws -> Int32 {
    let name = configKey
    let value = configValue
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    if let value {
      _ = try context.openVault()
      guard repository.exists else {
        throw VaultError.syncFailed(.notSetUp(repository: repository.path))
      }
      try repository.setConfig(AutoSync.configKey, value == .on ? "true" : "false")
      Output.error(
        value == .on
          ? "Set sync.auto on: a command that changes the vault starts 'vault sync' in the"
            + " background (its messages in \(Output.printable(repository.path + "/" + AutoSync.logName)))."
          : "Set sync.auto off.")
      return ExitCode.success.rawValue
    }
    let shown = AutoSync.isOn(repository) ? "on" : "off"
    Output.print(name == nil ? "sync.auto \(shown)\n" : "\(shown)\n")
    return ExitCode.success.rawValue
  }
}
