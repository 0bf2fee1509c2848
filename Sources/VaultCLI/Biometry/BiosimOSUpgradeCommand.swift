import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim os-upgrade`.
struct BiosimOSUpgradeCommand: VaultCommand {
  static let about = CommandAbout(
    "os-upgrade", "Simulate a major OS upgrade (the domain state changes).")

  func run(_ context: Context) throws -> Int32 {
    try BiosimSupport.controls(context).osUpgrade()
    Output.error("The OS was upgraded; every domain state changed.")
    return ExitCode.success.rawValue
  }
}
