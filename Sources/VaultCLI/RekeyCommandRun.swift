import Glibc
import VaultCore

/// `vault rekey`: a new master key, journal keys and recovery code, after the new code has been
/// shown and typed back.
enum RekeyCommandRun {
  static let heading =
    "New recovery code (it replaces the old one once the rotation is done; keep it offline):"

  static func run(_ context: Context) throws {
    let unlocked = try context.open(.administer(reason: "rotate the master key"))
    let code = RecoveryCode.generate()
    do {
      try context.confirmNewRecoveryCode(code, heading: heading)
    } catch VaultError.invalidInput(let why) {
      throw VaultError.invalidInput(
        why + "; nothing was changed (the old recovery code still works)")
    }
    _ = try rotate(context, unlocked, code: code)
  }

  /// The rotation, and in a vault that syncs its publication: a sync first, then the rotation,
  /// which commits here only once it is pushed (`Vault.rekey`); a remote that moved meanwhile
  /// is synced again, up to 3 times.
  ///
  /// - Returns: the new master key.
  static func rotate(_ context: Context, _ unlocked: UnlockedVault, code: SecureBytes) throws
    -> SymmetricKey
  {
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    var attempts = 0
    while true {
      attempts += 1
      if repository.exists {
        SyncCommandsRun.report(
          try VaultSync(unlocked, repository: repository).run(), remote: repository.remoteURL())
      }
      do {
        var key: SymmetricKey?
        // From the commit to the message that says the old code is dead, an interrupt waits:
        // the user must never see the command end without learning which code is now in force.
        // A signal that arrives meanwhile is delivered after the report.
        try SignalHold.during(SignalHold.interrupts) {
          let done = try unlocked.rekey(
            recoveryCode: code, sync: repository.exists ? repository : nil)
          key = done.masterKey
          report(done)
          if let published = done.published {
            Output.error(
              "Pushed the rotation to \(Output.printable(repository.remoteURL() ?? "the remote"))"
                + " (commit \(published.prefix(12))): each other device takes the new key at its"
                + " next 'vault sync', with its PIN.")
          }
        }
        guard let key else { throw VaultError.storage("the rotation returned no key") }
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
    if done.droppedPending > 0 {
      Output.error(
        "Dropped \(done.droppedPending) pending journal row\(done.droppedPending == 1 ? "" : "s")"
          + " that no journal key opens (unreadable by anyone).")
    }
  }
}
