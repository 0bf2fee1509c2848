import CPlatform
import Glibc
import VaultCore
import VaultFormat
import VaultSync

/// `vault sync revoke DEVICE`: the record removed with the PIN and a match, then a sync when
/// the vault syncs; a failed sync leaves the revocation for the next.
struct SyncRevokeCommand: VaultCommand {
  static let about = CommandAbout(
    "revoke", "Remove a device from the vault: its PIN keyslot and its writer key.",
    discussion: """
      Needs the PIN and a match (never a session). Removes DEVICE's record from the \
      vault's header, so its PIN opens nothing the next syncs carry, moves its journal \
      writer key to the retired ones (its entries so far still verify, none it signs \
      later is taken), and syncs, so every device learns it; a revoked device's own sync \
      is then refused (exit 17). The revoked device still holds the master key and so \
      everything synced until now, and anything synced later that it obtains: the \
      command syncs first (a rotation another device made is taken then, and the command \
      stops with exit 18 before anything changes: run it again); with --rekey it then also rotates the master key (a new recovery \
      code, shown and typed back, as 'vault rekey') and syncs the rotation, so the revoked \
      device reads nothing written after it; each other device takes the new key at its \
      next 'vault sync', with its PIN. See SYNC in vault(1).
      """)

  @FlagParameter(Keys.rekey) var rekey
  @ArgumentParameter(Keys.syncDevice) var syncDevice

  func run(_ context: Context) throws -> Int32 {
    let named = syncDevice
    // Refusals that need no key come before the PIN and the match (the header is checked again
    // once the key has authenticated it).
    let opened = try context.openVault()
    try SyncSupport.hintingRekey(rekey) { try opened.requireOther(opened.device(named: named)) }
    let unlocked = try context.open(.administer(reason: "revoke a device"))
    let repository = try GitRepository(
      path: GitRepository.path(forVault: context.vaultPath), environment: context.environment)
    try SyncSupport.hintingRekey(rekey) {
      try unlocked.vault.requireOther(unlocked.vault.device(named: named))
    }
    // Whatever the remote holds first (a rotation another device made, above all): a device
    // revoked here before its rotation was taken would leave this one unable to follow it.
    try RekeyCommand.syncBeforeRotation(context, unlocked)
    // The code in force authorizes the revocation (and, with --rekey, the rotation after it).
    let current =
      unlocked.vault.isEnrolled
      ? try RekeyCommand.codeInForce(
        context, unlocked,
        prompt: rekey
          ? "Recovery code in force (it authorizes the revocation and the rotation): "
          : "Recovery code in force (it authorizes the revocation): ",
        wrong: .revocation)
      : rekey
        ? try RekeyCommand.currentCode(
          context, unlocked, revoking: try unlocked.vault.device(named: named).deviceID) : nil
    let code = rekey ? RecoveryCode.generate() : nil
    if let code {
      do {
        try context.confirmNewRecoveryCode(code, heading: RekeyCommand.heading)
      } catch let error {
        guard let why = ExitStatus.refusedInput(error) else { throw error }
        throw InputRefused(why + "; nothing was revoked or rotated")
      }
    }
    let record = try unlocked.vault.device(named: named)
    try unlocked.vault.revoke(record, masterKey: unlocked.masterKey, code: current)
    let id = record.deviceIDBytes.hex.prefix(8)
    Output.error("Revoked the device \(id): its PIN keyslot and writer key are gone.")
    if let code {
      do {
        _ = try RekeyCommand.rotate(context, unlocked, code: code, current: current)
      } catch {
        // A rotation another device made, taken meanwhile, does not carry the revocation (it
        // was signed with the old code): the device is not revoked any more.
        if unlocked.vault.header.revokedDevices?.contains(record.deviceID) == true {
          Output.error(
            "vault: note: the device is revoked here; the master key was not rotated (the old"
              + " recovery code still works): run 'vault rekey'")
        } else {
          Output.error(
            "vault: note: another device's rotation came first and the revocation made here, signed"
              + " with the old code, did not reach the vault: nothing is revoked or rotated; run"
              + " the command again with the new recovery code")
        }
        throw error
      }
      return ExitCode.success.rawValue
    }
    Output.error(
      "It still holds the master key and can read what it synced: 'vault rekey' rotates the key"
        + " (a new recovery code), after which its copy reads nothing written later.")
    guard repository.exists else { return ExitCode.success.rawValue }
    do {
      SyncSupport.report(
        try VaultSync(unlocked, repository: repository).run(), remote: repository.remoteURL())
    } catch {
      Output.error("vault: note: the revocation is stored here; 'vault sync' publishes it")
      throw error
    }
    return ExitCode.success.rawValue
  }
}
