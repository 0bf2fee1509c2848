import Glibc
import VaultCore
import VaultFormat

/// `vault config`.
struct ConfigCommand: VaultCommand {
  static let about = CommandAbout(
    "config",
    "Show or change this device's settings for the vault (sync.auto), or yours (--global).",
    discussion: """
      Alone, prints every setting as KEY VALUE; with KEY, its value; with KEY VALUE, sets \
      it. Without --global, this device's settings for the vault, kept in the device state \
      (not synced, no key needed): sync.auto (default off): on, every command that changes \
      the vault starts 'vault sync' in the background when it is done, and never waits for \
      it, once the vault syncs ('vault sync init'). The background sync takes the key from \
      a session or the agent, as any command does; without one it cannot ask for the PIN \
      and does nothing. Its messages replace those of the one before in \
      PATH.sync/auto-sync.log. With --global, your settings for every vault, in \
      $XDG_CONFIG_HOME/vault/config: pinentry (default auto): the program that asks for \
      the PIN when there is no terminal: an absolute path to a pinentry program that only \
      you or root can change, tty for none (exit 10 without a terminal, as before), or \
      auto to look in /usr/bin.
      """)

  @FlagParameter(Keys.configGlobal) var global
  @OptionalArgument(Keys.configKey) var configKey
  @OptionalArgument(Keys.configValue) var configValue

  func validate(path: [String]) throws {
    guard let configKey else { return }
    if configKey.isGlobal && !global {
      throw UsageError(
        message: "\(configKey.rawValue) is your setting for every vault: vault config --global"
          + " \(configKey.rawValue)\(configValue == nil ? "" : " VALUE")", path: path)
    }
    if !configKey.isGlobal && global {
      throw UsageError(
        message: "\(configKey.rawValue) is this device's setting for one vault: vault config"
          + " \(configKey.rawValue)\(configValue == nil ? "" : " VALUE")", path: path)
    }
  }

  func run(_ context: Context) throws -> Int32 {
    if global { return try runGlobal(context) }
    let vault = try context.openVault()
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    if let text = configValue {
      guard let value = ConfigSwitch(rawValue: text) else {
        throw InputRefused("sync.auto is on or off, not '\(Output.printable(text))'")
      }
      try context.deviceStore.update {
        $0.vaultSettings[vault.vaultID.hex, default: VaultDeviceSettings()].syncAuto =
          value == .on
      }
      // Release 0.12.0 kept the setting in the repository's git configuration: the device
      // state's now decides, and the old one goes.
      if repository.exists, repository.configValue(AutoSync.configKey) != nil {
        try? repository.unsetConfig(AutoSync.configKey)
      }
      switch (value, repository.exists) {
      case (.on, true):
        Output.error(
          "Set sync.auto on: a command that changes the vault starts 'vault sync' in the"
            + " background (its messages in"
            + " \(Output.printable(repository.path + "/" + AutoSync.logName))).")
      case (.on, false):
        Output.error(
          "Set sync.auto on: it starts syncing in the background once the vault syncs ('vault"
            + " sync init').")
      case (.off, _):
        Output.error("Set sync.auto off.")
      }
      return ExitCode.success.rawValue
    }
    let device = try context.deviceStore.read()
    let shown =
      AutoSync.isSet(vaultID: vault.vaultID, device: device, repository: repository)
      ? "on" : "off"
    Output.print(configKey == nil ? "sync.auto \(shown)\n" : "\(shown)\n")
    return ExitCode.success.rawValue
  }

  /// `vault config --global`: `UserConfig`.
  private func runGlobal(_ context: Context) throws -> Int32 {
    var config = try UserConfig.read(context.environment)
    if let text = configValue, let configKey {
      let shown: String
      switch configKey {
      case .credentialFolder:
        // A folder is an entry name's first part: the name rules, without a trailing slash.
        guard UserConfig.Key.credentialFolder.accepts(text), text.trimmingBlanks == text
        else {
          throw InputRefused(
            "credential.folder is a folder of entry names, such as git, not"
              + " '\(Output.printable(text))'")
        }
        config[.credentialFolder] = text == CredentialFolder.standard ? nil : text
        shown = text
      default:
        let setting = try PinentrySetting(setting: text)
        config[.pinentry] = setting.stored
        shown = setting.description
      }
      try config.write(context.environment)
      Output.error(
        "Set \(configKey.rawValue) to \(Output.printable(shown)) in"
          + " \(Output.printable(UserConfig.path(context.environment))).")
      return ExitCode.success.rawValue
    }
    let values: [(ConfigName, String)] = [
      (.pinentry, PinentrySetting(stored: config[.pinentry]).description),
      (.credentialFolder, config[.credentialFolder] ?? CredentialFolder.standard),
    ]
    for (key, value) in values where configKey == nil || configKey == key {
      Output.print(configKey == nil ? "\(key.rawValue) \(value)\n" : "\(value)\n")
    }
    return ExitCode.success.rawValue
  }
}

/// A value of `vault config` sync.auto.
enum ConfigSwitch: String {
  /// Turned on.
  case on
  /// Turned off.
  case off
}
