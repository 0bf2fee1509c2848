import VaultCrypto
import VaultFormat

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
  /// The PIN standing in for the one fresh check of the `count` guarded entries of an export (a
  /// PIN-only vault).
  case guardedEntries(count: Int)
  /// The PIN standing in for that check's biometric match while the sensor is locked out.
  case lockedOutGuardedEntries(count: Int)
}

/// Where the vault's credentials come from: a session token, a PIN, a recovery code.
///
/// The PIN is typed on the terminal or read from a descriptor. The command line supplies one
/// source; a command the unlock agent runs for a client also has the agent's key
/// (`heldKey`).
///
/// `VaultAccess` decides which of them a command needs and when to ask.
public protocol CredentialSource {
  /// The session token this process was given (`VAULT_SESSION`), or nil.
  var sessionToken: String? { get }
  /// The master key the unlock agent holds, when this command runs in the agent's worker for
  /// the vault it was unlocked for; nil otherwise.
  var heldKey: HeldKey? { get }
  /// Told that the held key no longer fits the vault at its path (another vault there, an
  /// edited header, a state that does not verify, a disabled biometry): the agent lets it go;
  /// with `everything`, after a biometric mismatch, the agent lets every vault go.
  func heldKeyRejected(everything: Bool)
  /// True when a PIN can be asked for at all (a terminal or a PIN descriptor).
  var canAskForPIN: Bool { get }
  /// How many PINs one command may ask for before a wrong one ends it: 3 on a terminal, 1 from a
  /// descriptor (a script's PIN does not change by asking again).
  var pinTries: Int { get }
  /// Told that the PIN just typed was wrong and that it will be asked for again.
  func pinRejected(_ error: VaultError)
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
  /// One PIN.
  public var pinTries: Int { 1 }
  /// Nothing to say.
  public func pinRejected(_ error: VaultError) {}
  /// No agent.
  public var heldKey: HeldKey? { nil }
  /// No agent to tell.
  public func heldKeyRejected(everything: Bool) {}
}

/// A master key the unlock agent holds, and the vault it was released for.
public struct HeldKey {
  /// The vault id the key was released for.
  public let vaultID: VaultID
  /// The master key.
  public let key: SymmetricKey
  /// True when a session's grant released it (the command carried `VAULT_SESSION`), false for
  /// the agent's plain hold.
  public let isGrant: Bool

  /// A held key.
  public init(vaultID: VaultID, key: SymmetricKey, isGrant: Bool = false) {
    self.vaultID = vaultID
    self.key = key
    self.isGrant = isGrant
  }
}
