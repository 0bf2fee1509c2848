/// Which PIN is being asked for: the command line turns it into words on the terminal.
public enum PINRequest: Equatable, Sendable {
  /// The PIN, to unlock.
  case unlock
  /// The current PIN, before it is changed.
  case current
  /// The PIN standing in for a guarded entry's fresh check (a PIN-only vault).
  case guardedEntry(EntryName)
  /// The PIN standing in for a guarded entry's biometric check while the sensor is locked out.
  case lockedOutGuardedEntry(EntryName)
}

/// Where the vault's credentials come from: a session token, a PIN, a recovery code.
///
/// The PIN is typed on the terminal or read from a descriptor. The command line supplies one
/// source; an agent will be another.
///
/// `VaultAccess` decides which of them a command needs and when to ask.
public protocol CredentialSource {
  /// The session token this process was given (`VAULT_SESSION`), or nil.
  var sessionToken: String? { get }
  /// True when a PIN can be asked for at all (a terminal or a PIN descriptor).
  var canAskForPIN: Bool { get }
  /// Asks for a PIN.
  ///
  /// - Throws: `VaultError.noTerminal` when there is no way to ask; `.cancelled` or
  ///   `.invalidInput` for what was typed.
  func pin(_ request: PINRequest) throws -> PIN
  /// Asks for the recovery code, in canonical form.
  ///
  /// - Throws: as `pin(_:)`, and `.wrongRecoveryCode` for a malformed code.
  func recoveryCode() throws -> SecureBytes
  /// Told of the vault as soon as `VaultAccess` released its key for `.readEntry`, before the
  /// entry is read: a failure that follows (no such name) can then be explained from the names
  /// without asking for a credential again. Does nothing by default.
  func keyReleased(_ vault: UnlockedVault)
}

extension CredentialSource {
  /// Nothing to keep.
  public func keyReleased(_ vault: UnlockedVault) {}
}
