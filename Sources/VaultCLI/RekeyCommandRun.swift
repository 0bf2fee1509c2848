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
    // From the commit to the message that says the old code is dead, an interrupt waits: the
    // user must never see the command end without learning which code is now in force.
    // A signal that arrives meanwhile is delivered after the report.
    try SignalHold.during(SignalHold.interrupts) {
      report(try unlocked.rekey(recoveryCode: code))
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
