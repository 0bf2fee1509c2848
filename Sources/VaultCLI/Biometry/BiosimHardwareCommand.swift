import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim hardware`.
struct BiosimHardwareCommand: VaultCommand {
  static let about = CommandAbout(
    "hardware", "Choose the sensor type (changing it wipes the enrollment).",
    discussion: """
      As a different device model: none, touch-id, face-id or optic-id. With --external \
      the sensor is removable (a keyboard with Touch ID), the only kind that can be \
      disconnected or not paired.
      """)

  @FlagParameter(Keys.external) var external
  @ArgumentParameter(Keys.sensorType) var sensorType

  func run(_ context: Context) throws -> Int32 {
    let type = sensorType
    guard !(external && type == .none) else {
      throw UsageError(message: "--external needs a sensor type, not none", path: ["hardware"])
    }
    let before = try BiosimSupport.controls(context).status()
    try BiosimSupport.controls(context).setHardware(type, external: external)
    let wiped = before.biometryType != type && !before.enrolled.isEmpty
    Output.error(
      "The sensor is now \(external ? "a removable " : "")\(type.displayName) (simulated)"
        + (wiped ? "; the enrollment was wiped." : "."))
    return ExitCode.success.rawValue
  }
}
