/// Why a command finds the vault locked (`VaultError.locked`, exit 10): the fact, which the
/// command line words.
public enum LockReason: Equatable, Sendable {
  /// This device has no record in the vault's header.
  case noDeviceRecord
  /// The session token is not one vault issues.
  case malformedSessionToken
  /// The agent named by the session token holds no grant of it any more: its idle or hard limit
  /// passed, the vault was let go without a recorded reason, or the agent ended.
  case sessionEnded
  /// The session in VAULT_SESSION is a live grant for another vault, not this one.
  case sessionOfAnotherVault
  /// The session token was issued by release 0.12 or earlier (a session file).
  case sessionFromOlderRelease
  /// Every session of the vault was revoked, for `why`; `noTerminal` when there is also no
  /// terminal to ask for the PIN on.
  case sessionsRevoked(SessionRevocation, noTerminal: Bool)
  /// Neither a valid session nor a terminal to ask on.
  case noSessionNoTerminal
  /// The file at `path` is no longer the vault the agent was unlocked for.
  case agentVaultReplaced(path: String)
  /// The agent's master key does not open this vault.
  case agentKeyRotated
  /// This device's key pair did not open with its PIN, or its writer key is lost, and a new one
  /// needs the recovery code.
  case newKeyPairNeedsRecovery
  /// No terminal to read `what` from (a secret typed in, never read from a pipe).
  case noTerminalToRead(TerminalInput)
}

/// What a command would read from the terminal (`LockReason.noTerminalToRead`).
public enum TerminalInput: Equatable, Sendable {
  /// An entry's secret (`vault add`).
  case secret
  /// A field's value (`vault set`).
  case fieldValue
  /// A one-time code's secret (`vault otp --set`).
  case oneTimeCode
}

/// Why every session of a vault was ended, kept in a one-byte marker (`SessionLedger`), so that
/// a later use says why it is locked.
public enum SessionRevocation: UInt8, Sendable {
  /// `vault lock`.
  case lock = 1
  /// A new PIN (`vault passwd` or `vault recover`).
  case pinChange
  /// A biometric check found the enrollment changed, or biometry was disabled or re-activated.
  case biometricChange
  /// `vault rekey`.
  case rotation
  /// Biometric unlock was turned off.
  case biometryOff
}
