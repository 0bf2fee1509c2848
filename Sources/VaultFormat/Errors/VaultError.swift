import VaultCrypto

/// Every failure the vault core reports, with the failure classes kept apart.
///
/// A malformed file never looks like a wrong PIN, and a tampered record never looks like a missing
/// one. The command-line layer maps each case to one message and one exit code.
public enum VaultError: Error, Equatable, Sendable {
  /// The PIN did not open the PIN keyslot. `attemptsBeforeDelay` counts down to the first delay.
  case wrongPIN(attemptsBeforeDelay: Int)
  /// A wrong PIN that started a delay: the next attempt is allowed after `seconds`.
  case wrongPINDelayed(seconds: Int)
  /// Too many wrong PINs: the next attempt is allowed after `seconds`.
  case pinDelay(seconds: Int)
  /// The PIN keyslot is bound to another device secret: a copied vault, or a reset device state.
  case otherDevice
  /// The recovery code did not open the recovery keyslot.
  case wrongRecoveryCode
  /// The passphrase of a `vault` export does not match its check (or the salt or KDF fields of
  /// its header, which are inputs of the key, were edited).
  case wrongPassphrase
  /// An integrity check failed: which object, which check (`Damage`).
  case integrity(Damage)
  /// The vault header could not be read: which field, why (`HeaderFault`).
  case malformedHeader(HeaderFault)
  /// The file's format version is newer (or older) than this build understands.
  case unsupportedVersion(Int)
  /// No entry with this (NFC-normalized) name.
  case notFound(String)
  /// The entry has no line with this field key; `keys` are the ones it has (`password` first).
  case noField(name: String, key: String, keys: [String])
  /// The content is not UTF-8 text (invalid UTF-8 or a NUL byte), so it has no lines or fields.
  case notText
  /// The entry's content (`length` bytes) is larger than `EntryStore.streamThreshold`: it is
  /// only streamed whole (`vault get NAME`), never read into memory to search, edit or select.
  case tooLarge(name: String, length: Int)
  /// The entry has no line `line`; it has `count` lines.
  case noLine(name: String, line: Int, count: Int)
  /// The entry was removed (it has a tombstone); `restore` brings it back.
  case removed(String)
  /// A program to run was not found on `PATH`.
  case programNotFound(String)
  /// A program to run was found but could not be started (`reason`: the `strerror` text).
  case programNotStarted(String, reason: String)
  /// The entry was purged: nothing of it is kept.
  case purged(String)
  /// No such revision of the entry is kept (nil: none at all).
  case revisionNotFound(name: String, revision: Int64?)
  /// No journal entry matches how it was asked for (an ID prefix, a date).
  case journalEntryNotFound(JournalLookup)
  /// The word is not a journal entry ID (1 to 32 hex digits).
  case notAJournalID(String)
  /// The entry (named) has no one-time code: no `otp` field and no `otpauth://` line.
  case noOneTimeCode(String)
  /// An entry with this name exists and overwriting was not asked for.
  case exists(String)
  /// Input was refused: which name, value or limit (`InputFault`). Nothing was stored.
  case invalidInput(InputFault)
  /// There is no vault at this path.
  case noVault(String)
  /// A vault already exists at this path (`init` refuses to overwrite).
  case vaultExists(String)
  /// The vault already has a sync repository (`vault sync init` or `sync clone` run again): its
  /// path, and the remote it syncs with when it has one.
  case syncRepositoryExists(path: String, remote: String?)
  /// A sync repository without its vault file (a clone killed while git still ran, a vault
  /// file removed by hand) is in the way of `vault sync clone`: its path.
  case staleSyncRepository(String)
  /// The key is needed, no valid session exists and there is no way to ask (no terminal).
  case locked(LockReason)
  /// The biometric sensor did not recognise the user within the evaluation's attempts.
  case biometricNotRecognised
  /// The biometric prompt was cancelled by the user, the system, the app or a timeout (the
  /// sensor's code says which); no counter changed.
  case biometricCancelled(SensorCode)
  /// The biometric prompt's fallback button was chosen (`userFallback`): vault has no PIN-only
  /// path to fall back to.
  case biometricFallback
  /// The simulated sensor is locked out after too many consecutive failed matches.
  case biometricLockout
  /// A guarded read while the sensor is locked out by failed matches of other vaults (or of
  /// biosim alone): the PIN does not stand in for this vault's match then.
  case biometricLockoutElsewhere
  /// A guarded read while the sensor is locked out by this vault's own failed matches: the PIN
  /// would stand in for the match, and there is no way to ask for it (no terminal, no PIN
  /// descriptor).
  case biometricLockoutPINNotAskable
  /// This vault's own lockout rule (`BiometricStrikes`): `failures` failed matches within 24
  /// hours, so its biometric checks need the recovery code; the PIN no longer clears the lockout.
  case biometricLockoutNeedsRecovery(failures: Int)
  /// No device passcode is set, and biometry cannot be used without one (`passcodeNotSet`).
  case passcodeNotSet
  /// A scripted sensor answer (`biosim next`) that no prompt could receive, and why; it was
  /// dropped.
  case sensorScript(BiometryScriptError)
  /// The enrollment (domain state) differs from the sealed value, for the reason given (such as
  /// "the biometric enrollment changed"); biometric unlock is now disabled and every session was
  /// revoked.
  case enrollmentChanged(String)
  /// Biometric unlock was disabled earlier (at `since`, ISO 8601 UTC, for `reason`) and has not
  /// been re-activated.
  case biometryDisabled(since: String, reason: String)
  /// The vault's policy needs biometry, and biometric unlock was never activated.
  case biometryNotActivated
  /// Nothing is enrolled on the sensor, so there is no match to ask for.
  case notEnrolled
  /// A biometric match is needed and there is no one to ask (no terminal, nothing queued).
  case biometricNotInteractive
  /// The sensor is unavailable (no hardware, not paired, disconnected): the sensor's code says
  /// which.
  case biometryUnavailable(SensorCode)
  /// A guarded read came less than a second after the previous one and was refused.
  case duplicateRequest
  /// The entry changed (or went away) while it was being edited; the edit was not applied.
  case conflict(Conflict)
  /// A file or folder other users could read or replace, refused: which, and what is wrong.
  case unsafePermissions(UnsafePath)
  /// No journal key of this vault was ever authenticated on this device, so nothing is sealed to
  /// the header's (it could have been swapped in).
  case journalKeyNotAuthenticated
  /// The vault changed while the command ran (another command wrote its header first); nothing
  /// was written.
  case vaultChanged(VaultChange)
  /// The vault file's state (generation `found`, MAC hex `foundMAC`) is older than, or not a
  /// descendant of, the one this device last saw (`seen`, `seenMAC`): the file or part of it was
  /// put back from another copy. `older` tells the two apart.
  case staleState(found: Int64, foundMAC: String, seen: Int64, seenMAC: String, older: Bool)
  /// A format-1 vault reached without a way to ask for the PIN: only an unlock migrates it.
  case formatOneNeedsUnlock
  /// The agent's socket (`socket`) is served by a process that is not vault's agent (`pid`,
  /// 0 when the kernel named none; `finding` is the rule of `AgentPeer` it failed): nothing
  /// was sent to it.
  case agentImpostor(socket: String, pid: Int32, finding: PeerFinding)
  /// A file or database operation failed: which, on what, why (`StorageFailure`).
  case storage(StorageFailure)
  /// Another process held the vault file's lock for longer than the command waits (`seconds`).
  case busy(seconds: Int)
  /// `git` or the sync remote failed or could not be reached (`what` says which); nothing was
  /// merged.
  case syncFailed(SyncFailure)
  /// The sync remote's master key was rotated on another device (`signer`: the hex id of the
  /// device that signed the newest rotation link, nil when it does not decode), and taking the
  /// new key needs this device's PIN: the key at hand came from a session or the agent.
  case rotatedElsewhere(signer: String?)
  /// The sync remote moved between this device's last sync and the push of a master-key
  /// rotation (`whilePushing`: during the push itself); nothing was rotated.
  case remoteMoved(whilePushing: Bool)
}

extension VaultError {
  /// `error` as the vault reports it: a `VaultError` as it is, a primitive's `CryptoError` as the
  /// failure class it is to the vault (an integrity failure, a malformed header's KDF values, a
  /// lack of memory); nil for any other error.
  public init?(_ error: any Error) {
    switch error {
    case let vault as VaultError: self = vault
    case let crypto as CryptoError: self = VaultError(crypto)
    default: return nil
    }
  }

  /// The failure class a primitive's refusal is to the vault, with the facts it carries.
  public init(_ crypto: CryptoError) {
    switch crypto {
    case .truncated(let object): self = .integrity(.sealed(object: object, .truncated))
    case .authenticationFailed(let object):
      self = .integrity(.sealed(object: object, .failedAuthentication))
    case .noStreamHeader(let object): self = .integrity(.sealed(object: object, .noStreamHeader))
    case .malformedStreamHeader(let object):
      self = .integrity(.sealed(object: object, .malformedStreamHeader))
    case .wrongPieceLength(let object):
      self = .integrity(.sealed(object: object, .wrongPieceLength))
    case .wrongLength(.salt, let expected, let found):
      self = .malformedHeader(.kdf(.saltLength(expected: expected, found: found)))
    case .wrongLength(let material, let expected, let found):
      self = .integrity(.wrongLength(material, expected: expected, found: found))
    case .signingKeyMismatch: self = .integrity(.signingKeyMismatch)
    case .kdfOutOfBounds(let parameter, let value):
      self = .malformedHeader(.kdf(.outOfBounds(parameter: parameter, value: value)))
    case .kdfProfileMismatch(let profile):
      self = .malformedHeader(.kdf(.profileMismatch(profile: profile)))
    case .kdfOutOfMemory(let mebibytes): self = .storage(.kdfOutOfMemory(mebibytes: mebibytes))
    case .outOfMemory(let bytes): self = .storage(.outOfMemory(bytes: bytes))
    }
  }
}

extension VaultError {
  /// Whether this is an integrity failure (`.integrity`).
  public var isIntegrityFailure: Bool {
    switch self {
    case .integrity: return true
    default: return false
    }
  }

  /// Whether this is a failed file or database operation (`.storage`).
  public var isStorageFailure: Bool {
    switch self {
    case .storage: return true
    default: return false
    }
  }
}
