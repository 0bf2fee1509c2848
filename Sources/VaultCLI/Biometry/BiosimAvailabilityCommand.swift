import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim availability`.
struct BiosimAvailabilityCommand: VaultCommand {
  static let about = CommandAbout(
    "availability", "Make the sensor available, unavailable, disconnected or not paired.")

  @ArgumentParameter(Keys.availability) var availability

  func run(_ context: Context) throws -> Int32 {
    let value = availability
    try BiosimSupport.controls(context).setAvailability(value)
    Output.error("The sensor is now \(value.rawValue).")
    return ExitCode.success.rawValue
  }
}
