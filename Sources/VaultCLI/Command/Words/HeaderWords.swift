import VaultFormat

/// The words of a malformed vault header: which field, and why.
enum HeaderWords {
  /// The phrase after "the vault header is malformed: ".
  static func phrase(_ fault: HeaderFault) -> String {
    switch fault {
    // MARK: Records, state, SQLite, entries
    case .invalidBase64(let field): "\(field) is not valid"
    }
  }
}
