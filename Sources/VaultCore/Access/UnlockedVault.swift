import VaultAgent
import VaultCrypto
import VaultFormat
import VaultJournal

/// A vault whose master key `VaultAccess` released for one purpose, and the operations that
/// purpose allows: entries and the journal for any, PIN changes and biometry changes only after
/// the PIN or the recovery code in this command, sessions only after an unlock.
///
/// The rules that follow an operation are kept here, not left to the caller: a PIN change, a
/// recovery and a deactivation revoke every session; a recovery on another device disables a
/// seal made elsewhere.
public final class UnlockedVault {
  /// The vault.
  public let vault: Vault
  /// Its master key, verified against the header MAC.
  public let masterKey: SymmetricKey
  /// How the key was obtained.
  public let source: KeySource
  /// What it was opened for.
  public let purpose: AccessPurpose
  /// For `.readEntry`, the entry, opened once by the access check; nil for other purposes.
  public private(set) var entry: OpenedEntry?

  let gate: BiometricGate

  /// Verifies the vault's state with the key (`Vault.verifyState`) before anything is read; for
  /// `.acceptOlderState`, verifies it under the key and makes the device remember it.
  ///
  /// - Throws: `VaultError.integrity` or `.staleState` when the state does not verify.
  init(
    vault: Vault, gate: BiometricGate, masterKey: SymmetricKey, source: KeySource,
    purpose: AccessPurpose
  ) throws {
    self.vault = vault
    self.gate = gate
    self.masterKey = masterKey
    self.source = source
    self.purpose = purpose
    if purpose == .acceptOlderState {
      acceptedState = try vault.acceptOlderState(masterKey: masterKey)
    } else {
      try vault.verifyState(masterKey: masterKey, checkedHeader: !source.isHeld)
    }
    // Only a header whose state verified is this device's reference from now on (its journal
    // key, its digest for the refusals made before a PIN).
    if !source.isHeld {
      try vault.device.update { vault.recordAuthenticatedHeader(in: &$0) }
    }
  }

  /// For `.acceptOlderState`: the generation the device remembered and the one it now accepts.
  public private(set) var acceptedState: (remembered: Int64?, accepted: Int64)?

  /// The entry store (subkeys derived once).
  public private(set) lazy var entries = EntryStore(vault: vault, masterKey: masterKey)

  /// The journal.
  ///
  /// - Throws: as `JournalStore.init`.
  public func journal() throws -> JournalStore {
    try JournalStore(vault: vault, masterKey: masterKey)
  }

  /// Finds `name` (its metadata decrypted once) or its kept `revision`, runs `guardCheck` when
  /// it is guarded, then decrypts its content.
  func openEntry(
    _ name: EntryName, revision: Int64? = nil, guardCheck: () throws -> Void
  ) throws {
    func read(_ withheld: (EntryMetadata) -> Bool) throws -> (EntryMetadata, SecureBytes?) {
      if let revision {
        let read = try entries.read(name, revision: revision, withholding: withheld)
        return (read.metadata, read.content)
      }
      let read = try entries.read(name, withholding: withheld)
      return (read.metadata, read.content)
    }
    // One read when the entry is not guarded; a guarded one is checked before its content is
    // decrypted, then read again (a guard is never removed, so the check still holds). A large
    // content is not read here: `streamEntry` reads it.
    let first = try read { $0.guarded || $0.isLarge }
    if let content = first.1 {
      entry = OpenedEntry(metadata: first.0, content: content)
      return
    }
    if first.0.guarded { try guardCheck() }
    let (metadata, content) = first.0.isLarge ? (first.0, nil) : try read(\.isLarge)
    entry = OpenedEntry(metadata: metadata, content: content)
  }

  /// For `.readEntry` of a large entry (`entry?.metadata.isLarge`): hands its content to
  /// `deliver` piece by piece (`EntryStore.chunkSize` bytes at most), from the version the
  /// access check opened.
  ///
  /// - Precondition: opened for `.readEntry`.
  /// - Throws: `VaultError.conflict` when the entry changed since the check; `.integrity`, found
  ///   only when its piece is reached (what was handed over before is not the content); what
  ///   `deliver` throws.
  public func streamEntry(_ deliver: (UnsafeRawBufferPointer) throws -> Void) throws {
    guard case .readEntry(let name, let revision, _) = purpose, let opened = entry else {
      preconditionFailure("streamEntry needs a vault opened for .readEntry")
    }
    try entries.stream(name, revision: revision, expecting: opened.metadata, deliver: deliver)
  }

  /// What a PIN change did besides setting the PIN.
  public struct PINChange: Equatable, Sendable {
    /// True when biometric unlock was sealed on another device and is now disabled.
    public var disabledForeignSeal: Bool
    /// Seconds of one core one guess of the new PIN costs here.
    public var guessSeconds: Double
  }

  /// Sets a new PIN bound to this device and revokes every session.
  ///
  /// After a recovery on another device, a seal made there is disabled (it can never match this
  /// sensor).
  ///
  /// - Precondition: opened for `.administer` or `.recover`.
  /// - Throws: `VaultError.storage` on failure.
  @discardableResult
  public func changePIN(to pin: PIN) throws -> PINChange {
    precondition(purpose.isAdministrative, "a PIN change needs the PIN or the recovery code")
    let moved = try !vault.isBound(to: vault.device.read().deviceSecret)
    // A device that joins by a recovery gets its record with biometric unlock disabled (a seal
    // belongs to another device's sensor): `setPIN` writes it so.
    let seconds = try vault.setPIN(pin, masterKey: masterKey)
    return PINChange(
      disabledForeignSeal: moved && vault.policy.requiresBiometry, guessSeconds: seconds)
  }

  /// Rotates the master key (`Vault.rekey`).
  ///
  /// Every record, chunk and journal entry is sealed again, the recovery slot is made for
  /// `recoveryCode`, every session is revoked. This value holds the
  /// old key afterwards: open the vault again to use it.
  ///
  /// - Precondition: opened for `.administer`.
  /// - Throws: as `Vault.rekey`.
  package func rekey(
    recoveryCode: SecureBytes, currentCode: SecureBytes? = nil,
    publisher: (any RotationPublisher)? = nil
  ) throws -> Vault.Rekeyed {
    precondition(purpose.isAdministrative, "a rotation needs the PIN in this command")
    return try vault.rekey(
      masterKey: masterKey, recoveryCode: recoveryCode, currentCode: currentCode,
      publisher: publisher)
  }

  /// Checks that `code` (canonical form) is the recovery code in force, before a rotation that
  /// needs it (`Vault.needsCurrentCode`) shows a new one.
  ///
  /// - Throws: as `Vault.checkedEnrollmentKey`.
  public func checkCurrentCode(_ code: SecureBytes) throws {
    _ = try vault.checkedEnrollmentKey(code: code)
  }

  /// Enrolls the devices of a header no code enrolled yet with `code` (`Vault.enroll`).
  ///
  /// - Throws: as `Vault.enroll`.
  public func enroll(code: SecureBytes) throws {
    try vault.enroll(code: code, masterKey: masterKey)
  }

  /// Asks for a biometrics-only match and seals its domain state; the policy becomes PIN +
  /// biometry.
  ///
  /// - Precondition: opened for `.activateBiometry`.
  /// - Throws: the mapped sensor failure; nothing is written unless the match succeeds.
  public func activateBiometry() throws -> BiometricSeal {
    precondition(purpose == .activateBiometry, "activation needs the PIN in this command")
    return try BiometricBinding(vault: vault, gate: gate).activate(
      masterKey: masterKey, reason: "activate biometric unlock")
  }

  /// Makes the vault PIN-only and revokes every session.
  ///
  /// - Precondition: opened for `.administer` or `.recover`.
  /// - Throws: `VaultError.storage` on failure.
  public func deactivateBiometry() throws {
    precondition(purpose.isAdministrative, "deactivation needs the PIN and a match, or recovery")
    try BiometricBinding(vault: vault, gate: gate).deactivate(masterKey: masterKey)
  }

  /// Issues a session: the unlock agent listening for this environment (which the caller
  /// started) holds the master key as a grant, served only to requests carrying the token
  /// (vault(5), SESSIONS).
  ///
  /// - Precondition: opened for `.startSession`.
  /// - Parameter idle: the grant's idle timeout in seconds.
  /// - Returns: the token, naming the folder of the agent that holds the grant.
  /// - Throws: `VaultError.vaultChanged` when the header changed since the unlock began (no
  ///   session is issued); `AgentError.notRunning` or `.keyNotTaken` when no agent took it; as
  ///   `AgentSocket.connect`.
  public func issueSession(idle: Double) throws -> SessionToken {
    precondition(purpose == .startSession, "a session is issued only by an unlock")
    // A PIN change or a disable since this unlock began: the PIN it checked may be the old one.
    guard try vault.headerIsCurrent() else {
      throw VaultError.vaultChanged(.headerChangedSincePINChecked)
    }
    let token = try AgentClient(environment: vault.environment).grant(
      vaultID: vault.vaultID, vaultPath: vault.path, key: masterKey, idle: idle)
    SessionLedger(environment: vault.environment).clearRevocation(vault.vaultID)
    return token
  }
}

extension AccessPurpose {
  /// Purposes that authorize PIN and biometry changes.
  var isAdministrative: Bool {
    switch self {
    case .administer, .recover: true
    default: false
    }
  }
}
