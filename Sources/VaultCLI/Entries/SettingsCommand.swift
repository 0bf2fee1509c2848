import VaultCore
import VaultFormat

/// `vault settings`.
struct SettingsCommand: VaultCommand {
  static let about = CommandAbout(
    "settings", "Show or change the vault's settings (history retention, biometric reuse).",
    discussion: """
      Alone, prints every setting as KEY VALUE. With KEY, prints its value; with KEY VALUE, \
      sets it (a whole number) and applies it at once. history_keep (default 10) keeps that \
      many newest revisions of each entry whatever their age; history_days (default 90) keeps \
      every revision replaced less than that many days ago (the current version is never \
      counted). A revision is dropped only when it is beyond both, when its entry is next \
      changed or a setting changes; 0 and 0 keep no history. biometric_reuse_seconds (default \
      0, at most 300) lets a device unlock with biometry that recent ('biosim unlock-device') \
      stand in for the match of 'vault unlock'; see BIOMETRICS in vault(1).
      """)

  @OptionalArgument(Keys.setting) var setting
  @OptionalArgument(Keys.settingValue) var settingValue

  func run(_ context: Context) throws -> Int32 {
    let text = settingValue
    var value: Int64?
    if let text {
      guard let setting else { preconditionFailure("VALUE follows KEY") }
      guard let number = Int64(text), setting.key.range.contains(number) else {
        throw InputRefused(
          "\(setting.rawValue) is a whole number from \(setting.key.range.lowerBound) to"
            + " \(setting.key.range.upperBound), not '\(Output.printable(text))'")
      }
      value = number
    }
    // Widening the reuse window is a change of policy: the PIN and a fresh match in this
    // command, never a session or a success by reuse.
    let purpose: AccessPurpose =
      setting == .biometricReuse && value != nil
      ? .administer(reason: "change the reuse window of biometric unlock")
      : .use(reason: "read or change the vault's settings")
    let store = try context.open(purpose).entries
    if let setting, let value {
      let (_, pruned) = try store.set(setting.key, to: value)
      Output.error(
        "Set \(setting.rawValue) to \(value)"
          + (pruned > 0 ? "; dropped \(pruned) kept revision\(pruned == 1 ? "" : "s")." : "."))
      return ExitCode.success.rawValue
    }
    let settings = try store.settings()
    if let setting {
      Output.print("\(settings.value(setting.key))\n")
      return ExitCode.success.rawValue
    }
    for name in SettingName.allCases {
      Output.print("\(name.rawValue) \(settings.value(name.key))\n")
    }
    return ExitCode.success.rawValue
  }
}
