import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// The vault handed to the agent again after a command that ended every hold and grant of it.
///
/// `vault biometry activate`, `passwd`, `recover` and `rekey`, run on a terminal (the user is
/// there) and without `--no-hold`, hand the agent the vault afresh, its new key or seal, as
/// `vault unlock` does, so an enrollment change or a new PIN costs one round of PIN and match,
/// not two (vault(1) SECURITY). Without a terminal, or with `--no-hold`, the vault stays locked.
enum HoldAgain {
  /// Hands the agent (started when none runs) `masterKey` for `vault`, with the default idle
  /// timeout, and says so; says why when it cannot, never failing the command that succeeded.
  static func after(_ context: Context, vault: Vault, masterKey: SymmetricKey, noHold: Bool) {
    guard wanted(context, noHold: noHold) else { return }
    do {
      try AgentLauncher.checkSocketPath(context.environment)
      func hold() throws {
        try AgentLauncher.ensureRunning(context.environment)
        try AgentClient(environment: context.environment).hold(
          vaultID: vault.vaultID, vaultPath: vault.path, key: masterKey,
          idle: SessionLedger.defaultIdle)
      }
      do {
        try hold()
      } catch {
        // The agent that held the vault may be ending now that it holds nothing: once more,
        // when a new one has started in its place.
        usleep(200_000)
        try hold()
      }
      // The reason every session ended stays recorded: a shell whose session it was is told
      // why, though the agent holds the vault again for the others.
      Output.error(
        "The agent holds \(vault.path) again for every shell of yours: it locks after"
          + " \(ExitStatus.duration(Int(SessionLedger.defaultIdle))) without use (at most 8 h),"
          + " or with 'vault lock'.")
    } catch {
      let why = ExitStatus.report(of: error)?.message ?? "\(error)"
      Output.error(
        "vault: note: the agent could not hold the vault again (\(why)); 'vault unlock' asks"
          + " for it")
    }
  }

  /// True when this run hands the vault to the agent again: on a terminal, not in the agent's
  /// own worker, without `--no-hold`.
  static func wanted(_ context: Context, noHold: Bool) -> Bool {
    !noHold && context.session == nil && context.terminal != nil
  }
}
