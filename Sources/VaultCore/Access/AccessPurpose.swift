import VaultFormat

/// What a command asks of the vault; `VaultAccess` turns it into the credentials it needs.
public enum AccessPurpose: Equatable, Sendable {
  /// Read or change entries and the journal: a session, else the PIN and the match the policy
  /// requires. `reason` is shown at the biometric prompt.
  case use(reason: String)
  /// Read one entry (its current version, or the kept `revision`): as `use`, plus a fresh
  /// check when the entry (or that version) is guarded and the key came from a session. The
  /// entry is opened once, by the access check itself. `action` says what the command does
  /// with it at the biometric prompt (`set a field of 'x'`); nil: `read 'x'`.
  case readEntry(EntryName, revision: Int64? = nil, action: String? = nil)
  /// Issue a session: always the PIN and the match the policy requires.
  case startSession
  /// Change the PIN or turn biometry off: always the PIN and the match the policy requires;
  /// never a session. `reason` is shown at the biometric prompt.
  case administer(reason: String)
  /// Activate (or re-activate) biometric unlock: the PIN, then a match that is sealed.
  case activateBiometry
  /// Set a new PIN, or turn biometry off, with the recovery code instead of the PIN.
  case recover
  /// Accept the file's state although it is older than, or not a descendant of, the one this
  /// device remembers (a backup restored on purpose): the PIN and the match the policy requires,
  /// never a session.
  case acceptOlderState
}

/// How the master key of an `UnlockedVault` was obtained.
public enum KeySource: Equatable, Sendable {
  /// From a valid session.
  case session
  /// From the unlock agent, in whose worker the command runs.
  case agent
  /// From the PIN (and the match the policy requires), in this command.
  case pin
  /// From the PIN and, for the match, a success by reuse of a recent device unlock (the
  /// `biometric_reuse_seconds` window): no match was witnessed, so guarded entries are left out
  /// or need their fresh check, as with a held key.
  case pinByReuse
  /// From the recovery code, in this command.
  case recoveryCode

  /// True for a key released by an earlier unlock (a session or the agent): reads never write,
  /// and a guarded entry needs its fresh check.
  public var isHeld: Bool { self == .session || self == .agent }

  /// True when a guarded entry needs its fresh check (or is left out of a bulk read): a held
  /// key, or a success by reuse.
  public var withholdsGuarded: Bool { isHeld || self == .pinByReuse }
}
