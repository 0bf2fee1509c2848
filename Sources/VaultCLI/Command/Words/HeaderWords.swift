import VaultFormat

/// The words of a malformed vault header: which field, and why.
enum HeaderWords {
  /// The phrase after "the vault header is malformed: ".
  static func phrase(_ fault: HeaderFault) -> String {
    switch fault {
    // MARK: Core, agent, journal
    case .noRecoverySlot: "no recovery slot"
    }
  }
}
