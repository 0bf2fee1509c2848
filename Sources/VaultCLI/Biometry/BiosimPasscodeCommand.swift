import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim passcode`.
struct BiosimPasscodeCommand: VaultCommand {
  static let about = CommandAbout(
    "passcode", "Set or remove the device passcode.",
    discussion: """
      Biometry needs a passcode: without one the preflight fails with passcodeNotSet \
      (LAError -5). Clearing it deletes every keychain item bound to it, so an activated \
      biometric unlock is disabled at its next use, and wipes the enrollment unless \
      --keep-enrollment.
      """)

  @FlagParameter(Keys.keepEnrollment) var keepEnrollment
  @ArgumentParameter(Keys.passcodeAction) var passcodeAction

  func run(_ context: Context) throws -> Int32 {
    let action = passcodeAction
    let keep = keepEnrollment
    guard action == .clear || !keep else {
      throw UsageError(message: "--keep-enrollment goes with clear", path: ["passcode"])
    }
    let before = try BiosimSupport.controls(context).status()
    try BiosimSupport.controls(context).setPasscode(action == .set, keepEnrollment: keep)
    switch action {
    case .set:
      Output.error(before.passcodeSet ? "A passcode was already set." : "A passcode is set.")
    case .clear:
      guard before.passcodeSet else {
        Output.error("No passcode was set.")
        return ExitCode.success.rawValue
      }
      let wiped = !keep && !before.enrolled.isEmpty
      Output.error(
        "The passcode was removed: biometry cannot be used without one, and every keychain item"
          + " bound to it is gone" + (wiped ? "; the enrollment was wiped." : "."))
    }
    return ExitCode.success.rawValue
  }
}
