import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim force-lockout`.
struct BiosimForceLockoutCommand: VaultCommand {
  static let about = CommandAbout(
    "force-lockout", "Lock the sensor as after too many failed matches elsewhere.")

  func run(_ context: Context) throws -> Int32 {
    try BiosimSupport.controls(context).forceLockout()
    Output.error(
      "The sensor is locked out; a correct vault PIN or 'biosim credential-verified' clears it.")
    return ExitCode.success.rawValue
  }
}
