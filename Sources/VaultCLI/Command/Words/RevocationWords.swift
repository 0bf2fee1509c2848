import VaultCore

extension RevocationError: ReportableError {
  /// A revocation refused before anything changed is invalid input (5).
  var exitCode: ExitCode { .invalidInput }

  /// One line for the user.
  var message: String {
    switch self {
    case .codeInForceNeeded:
      "revoking a device needs the recovery code in force; nothing was revoked"
    case .revokedDevicesFull(let maximum):
      "the vault has revoked \(maximum) devices, as many as it records"
    case .retiredWritersFull(let maximum):
      "the vault holds \(maximum) retired writer keys, as many as it can"
    }
  }
}
