import Biometry
import Glibc
import VaultAgent
import VaultCore
import VaultCrypto
import VaultFormat

/// `vault lock`.
struct LockCommand: VaultCommand {
  static let about = CommandAbout(
    "lock", "Lock the vault: the agent lets it go and every session is revoked.")

  func run(_ context: Context) throws -> Int32 {
    let vault = try context.openVault()
    let held =
      (try? AgentClient(environment: context.environment).status(vaultPath: vault.path))
      .flatMap { $0 } != nil
    SessionLedger(environment: context.environment).revokeAll(
      vaultID: vault.vaultID, vaultPath: vault.path, reason: .lock)
    Output.error(
      held
        ? "Locked \(vault.path): the agent let it go and every session was revoked."
        : "Locked \(vault.path): every session was revoked (the agent did not hold it).")
    return ExitCode.success.rawValue
  }
}
