import VaultCore

extension RekeyError: ReportableError {
  /// A rotation refused before anything changed is invalid input (5).
  var exitCode: ExitCode { .invalidInput }

  /// One line for the user.
  var message: String {
    switch self {
    case .codeInForceNeeded:
      "rotating the master key of a vault with other devices needs the recovery code in force;"
        + " nothing was changed"
    case .retiredWritersInUse(let maximum):
      "the vault's journal holds entries signed by more than \(maximum) retired writer keys;"
        + " nothing was changed"
    }
  }
}
