import Glibc
import VaultCore
import VaultCrypto
import VaultFormat
import VaultSync

/// `vault rekey`: a new master key, journal keys and recovery code, after the new code has been
/// shown and typed back.
struct RekeyCommand: VaultCommand {
  static let about = CommandAbout(
    "rekey", "Replace the master key, the journal keys and the recovery code.",
    discussion: """
      Asks for the PIN (and the match the policy requires), shows a new recovery code on \
      the terminal and asks for it back; only then, in one transaction, seals every entry, \
      revision, journal entry and content chunk again under a new master key, seals that \
      key to every device, makes a new journal key pair and writer key, and replaces the \
      recovery code. Interrupted before that, nothing changed. Every session is revoked, \
      the old recovery code stops working, and a copy of the old keys, sessions or device \
      state reads nothing written after. The PIN does not change. The code is shown on \
      the terminal (on standard error without one) and read back like the PIN (from \
      --pin-fd when given).
      """)

  @FlagParameter(Keys.noHold) var noHold

  func run(_ context: Context) throws -> Int32 {
    let unlocked = try context.open(.administer(reason: "rotate the master key"))
    try Self.syncBeforeRotation(context, unlocked)
    let current = try Self.currentCode(context, unlocked)
    let code = RecoveryCode.generate()
    do {
      try context.confirmNewRecoveryCode(code, heading: Self.heading)
    } catch let error {
      guard let why = ExitStatus.refusedInput(error) else { throw error }
      throw InputRefused(
        why + "; nothing was changed (the old recovery code still works)")
    }
    let key = try Self.rotate(context, unlocked, code: code, current: current)
    HoldAgain.after(context, vault: unlocked.vault, masterKey: key, noHold: noHold)
    return ExitCode.success.rawValue
  }

  static let heading =
    "New recovery code (it replaces the old one once the rotation is done; keep it offline):"

  /// The prompt for the code in force.
  static let currentPrompt = "Recovery code in force (other devices take the rotation by it): "

  /// The recovery code in force, asked for and checked when the rotation needs it
  /// (`Vault.needsCurrentCode`: other devices, which take the rotation only when the code
  /// authorized it); nil when it does not.
  ///
  /// - Parameter revoking: the id (base64) of a device revoked before the rotation.
  /// - Throws: `WrongCodeInForce` (exit 11) after the last try; what reading it throws.
  static func currentCode(
    _ context: Context, _ unlocked: UnlockedVault, revoking: String? = nil
  ) throws -> SecureBytes? {
    guard unlocked.vault.needsCurrentCode(revoking: revoking) else { return nil }
    return try codeInForce(context, unlocked, prompt: currentPrompt, wrong: .rotation)
  }

  /// The recovery code in force, asked for with `prompt` and checked (3 tries at a terminal).
  ///
  /// - Throws: `wrong` after the last try; what reading it throws.
  static func codeInForce(
    _ context: Context, _ unlocked: UnlockedVault, prompt: String, wrong: WrongCodeInForce
  ) throws -> SecureBytes {
    do {
      return try context.recoveryCode(prompt: prompt) { try unlocked.checkCurrentCode($0) }
    } catch VaultError.wrongRecoveryCode {
      throw wrong
    }
  }

  /// In a vault that syncs, a sync before anything else of a rotation; one that took a rotation
  /// made on another device ends the command before a new recovery code is shown (the key
  /// held here is not the vault's any more).
  ///
  /// - Throws: `VaultError.conflict` then; what a sync throws.
  static func syncBeforeRotation(_ context: Context, _ unlocked: UnlockedVault) throws {
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    guard repository.exists else { return }
    let done = try VaultSync(unlocked, repository: repository).run()
    SyncSupport.report(done, remote: repository.remoteURL())
    if done.tookRotation {
      throw RotationTakenFirst(meanwhile: false)
    }
  }

  /// The rotation, and in a vault that syncs its publication: a sync first, then the rotation,
  /// which commits here only once it is pushed (`Vault.rekey`); a remote that moved meanwhile
  /// is synced again, up to 3 times.
  ///
  /// - Returns: the new master key.
  static func rotate(
    _ context: Context, _ unlocked: UnlockedVault, code: SecureBytes, current: SecureBytes?
  ) throws -> SymmetricKey {
    var current = current
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    var attempts = 0
    while true {
      attempts += 1
      if repository.exists {
        let done = try VaultSync(unlocked, repository: repository).run()
        SyncSupport.report(done, remote: repository.remoteURL())
        if done.tookRotation {
          throw RotationTakenFirst(meanwhile: true)
        }
      }
      // A sync that brought another device in: the rotation needs the code in force now.
      if current == nil { current = try currentCode(context, unlocked) }
      do {
        var key: SymmetricKey?
        // From the commit to the message that says the old code is dead, an interrupt waits:
        // the user must never see the command end without learning which code is now in force.
        // A signal that arrives meanwhile is delivered after the report.
        try SignalHold.during(SignalHold.interrupts) {
          // The sync lock before the rotation's transaction, in the order a sync takes them.
          let done =
            try repository.exists
            ? repository.exclusively {
              try unlocked.rekey(
                recoveryCode: code, currentCode: current,
                publisher: SyncRotationPublisher(repository: repository))
            } : unlocked.rekey(recoveryCode: code, currentCode: current, publisher: nil)
          key = done.masterKey
          report(done)
          if let published = done.published {
            Output.error(
              "Pushed the rotation to \(Output.printable(repository.remoteURL() ?? "the remote"))"
                + " (commit \(published.prefix(12))): each other device takes the new key at its"
                + " next 'vault sync', with its PIN.")
          }
        }
        guard let key else { throw CommandFailed("the rotation returned no key") }
        return key
      } catch VaultError.remoteMoved where attempts < 3 {
        continue
      }
    }
  }

  static func report(_ done: Vault.Rekeyed) {
    Output.error(
      "Rotated the master key: \(done.records) record\(done.records == 1 ? "" : "s") and"
        + " \(done.chunks) content chunk\(done.chunks == 1 ? "" : "s") sealed again, the key sealed"
        + " to \(done.devices) device\(done.devices == 1 ? "" : "s"); the old recovery code no"
        + " longer works and every session was revoked.")
    if done.devices > 1 {
      Output.error(
        "The new key is sealed to the devices "
          + done.deviceIDs.map { String($0.prefix(8)) }.joined(separator: ", ")
          + ": revoke any you do not know ('vault sync revoke --rekey DEVICE').")
    }
    if done.droppedPending > 0 {
      Output.error(
        "Dropped \(done.droppedPending) pending journal row\(done.droppedPending == 1 ? "" : "s")"
          + " that no journal key opens (unreadable by anyone).")
    }
  }
}

/// A rotation that other devices take, or a revocation, asked for with a code that is not the
/// one in force: a wrong credential (11), as a wrong code is to `vault recover`, said in the
/// command's words.
struct WrongCodeInForce: ReportableError {
  var exitCode: ExitCode { .wrongCredential }
  let message: String

  /// For a rotation.
  static let rotation = WrongCodeInForce(
    message: "that is not the recovery code in force, which a rotation other devices take needs"
      + " (a code from before the last rotation no longer works); nothing was changed")
  /// For `vault sync revoke`.
  static let revocation = WrongCodeInForce(
    message: "that is not the recovery code in force, which revoking a device needs (a code from"
      + " before the last rotation no longer works); nothing was revoked")
}

/// A rotation another device made, taken by the sync before `vault rekey` rotates (18).
///
/// This device has the new key, and nothing else changed. `meanwhile`: the rotation arrived
/// after the new recovery code was shown, which was not put in force.
struct RotationTakenFirst: ReportableError {
  /// True when it arrived after the new recovery code was shown.
  let meanwhile: Bool

  var exitCode: ExitCode { .vaultChanged }

  var message: String {
    meanwhile
      ? "another device rotated the master key meanwhile, and this device has just taken the new"
        + " key; the recovery code shown was not put in force: run the command again"
      : "another device rotated the master key, and this device has just taken the new key;"
        + " nothing else was changed: run the command again to rotate it once more"
  }
}
