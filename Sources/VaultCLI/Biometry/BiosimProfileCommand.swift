import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim profile`.
struct BiosimProfileCommand: VaultCommand {
  static let about = CommandAbout(
    "profile", "Follow Apple's or Android's lockout rules.",
    discussion: """
      apple: five consecutive failed matches lock biometry until the PIN. android: every \
      fifth locks it for 30 seconds (ERROR_LOCKOUT), the twentieth until the PIN \
      (ERROR_LOCKOUT_PERMANENT). The failure count starts over.
      """)

  @ArgumentParameter(Keys.profile) var profile

  func run(_ context: Context) throws -> Int32 {
    try BiosimSupport.controls(context).setProfile(profile)
    switch profile {
    case .apple:
      Output.error("Apple's lockout: 5 consecutive failed matches lock biometry until the PIN.")
    case .android:
      Output.error(
        "Android's lockout: every 5th consecutive failed match locks biometry for 30 s, the 20th"
          + " until the PIN.")
    }
    return ExitCode.success.rawValue
  }
}
