import VaultFormat

/// The words of an integrity failure: which object failed which check.
enum DamageWords {
  /// The phrase after "integrity failure: " (and after "the sync remote was refused: " when a
  /// received file is damaged).
  static func phrase(_ damage: Damage) -> String {
    switch damage {
    // MARK: Transfer
    case .exportedContent(let name, _, _): "the content of '\(name)' is not its stored length"
    }
  }
}
