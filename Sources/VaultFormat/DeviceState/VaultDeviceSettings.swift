/// This device's settings for one vault (vault(5) DEVICE STATE, `vault_settings`), set with
/// `vault config`: nothing synced, no key needed.
public struct VaultDeviceSettings: Encodable, Equatable, Sendable {
  /// Runs `vault sync` in the background after each change (`sync.auto`); nil when never set
  /// here (release 0.12.0's git configuration is read instead).
  public var syncAuto: Bool?

  /// Settings; nil for each one never set.
  public init(syncAuto: Bool? = nil) {
    self.syncAuto = syncAuto
  }

  /// True when nothing is set: the entry is left out.
  public var isEmpty: Bool { syncAuto == nil }

  enum CodingKeys: String, CodingKey {
    case syncAuto = "sync_auto"
  }

  /// Encodes the settings that are set.
  public func encode(to encoder: Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeIfPresent(syncAuto, forKey: .syncAuto)
  }
}
