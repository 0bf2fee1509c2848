/// Why input was refused before anything was stored: which name, value or limit.
///
/// Thrown as `VaultError.invalidInput`; the command line gives the words (`InputWords`).
public enum InputFault: Equatable, Sendable {
  // MARK: Header, keyslots, devices, files, format 1, biometry

  /// A PIN that is no PIN at all (`PINFault`).
  case pin(PINFault)
  /// A typed recovery code that is not one (`RecoveryCodeFault`).
  case recoveryCode(RecoveryCodeFault)
  /// The text is not a vault id (32 hex digits).
  case notAVaultID(String)
}
