import VaultFormat

/// The words of the per-vault settings (`vault settings`), which the core knows by name, bounds
/// and default only.
public enum SettingWords {
  /// What a setting means, one sentence for the manual (capitalised, no final period).
  public static func meaning(of key: VaultSettings.Key) -> String {
    switch key.name {
    case VaultSettings.historyKeep.name:
      "How many of an entry's newest revisions are kept, whatever their age"
    case VaultSettings.historyDays.name:
      "For how many days after it was replaced a revision is kept, whatever its rank"
    case VaultSettings.biometricReuse.name:
      "For how many seconds after the device was unlocked with biometry ('biosim unlock-device')"
        + " that unlock stands in for the match 'vault unlock' asks for (0, never, by default)"
    default: key.name
    }
  }
}
