import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `vault status`.
struct StatusCommand: VaultCommand {
  static let about = CommandAbout(
    "status", "Show the vault's policy, biometry, PIN delay, agent and session without unlocking.")

  @FlagParameter(Keys.json) var json
  @FlagParameter(Keys.check) var check

  func run(_ context: Context) throws -> Int32 {
    if check {
      return Self.unlockedHere(context) ? ExitCode.success.rawValue : ExitCode.locked.rawValue
    }
    let info = try StatusReport.gather(context)
    Output.print(json ? info.json.rendered + "\n" : info.text)
    return ExitCode.success.rawValue
  }

  /// `status --check`: the agent holds the vault (plainly, or, with a `VAULT_SESSION`, by that
  /// session's grant); nothing is unlocked, renewed or printed.
  private static func unlockedHere(_ context: Context) -> Bool {
    guard let vault = try? context.openVault() else { return false }
    if StatusReport.agentExpiry(context, vault.vaultID) != nil { return true }
    return StatusReport.sessionExpiry(context, vault.vaultID) != nil
  }
}
