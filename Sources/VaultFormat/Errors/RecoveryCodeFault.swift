/// Why a typed recovery code is not one (`InputFault.recoveryCode`).
public enum RecoveryCodeFault: Equatable, Sendable {
  /// It is not 36 (or 32) symbols of the code's alphabet.
  case malformed
  /// Its check group does not match the other symbols (a typo); nothing was tried.
  case typo
}
