import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim unlock-device`.
struct BiosimUnlockDeviceCommand: VaultCommand {
  static let about = CommandAbout(
    "unlock-device", "Unlock the device with a matching finger, face or iris at its lock screen.",
    discussion: """
      The anchor of the reuse window (touchIDAuthenticationAllowableReuseDuration): a \
      vault whose biometric_reuse_seconds setting is above 0 accepts it for 'vault \
      unlock' that many seconds, at most \(Int(SensorState.maximumReuse)).
      """)

  func run(_ context: Context) throws -> Int32 {
    try BiosimSupport.controls(context).unlockDevice()
    Output.error(
      "The device was unlocked with biometry; a vault that allows reuse accepts it for"
        + " \(Int(SensorState.maximumReuse)) s at most.")
    return ExitCode.success.rawValue
  }
}
