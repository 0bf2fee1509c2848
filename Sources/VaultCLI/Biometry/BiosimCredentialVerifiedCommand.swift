import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim credential-verified`.
struct BiosimCredentialVerifiedCommand: VaultCommand {
  static let about = CommandAbout(
    "credential-verified", "Enter the device passcode at the lock screen (ends a lockout).")

  func run(_ context: Context) throws -> Int32 {
    let before = try BiosimSupport.controls(context).status()
    guard before.passcodeSet else {
      throw InputRefused(
        "no device passcode is set; set one with 'biosim passcode set'")
    }
    try BiosimSupport.controls(context).clearLockout()
    Output.error(
      before.isLockedOut
        ? "The passcode was entered; the lockout ended." : "The passcode was entered.")
    return ExitCode.success.rawValue
  }
}
