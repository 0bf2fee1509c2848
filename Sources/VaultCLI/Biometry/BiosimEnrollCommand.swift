import Biometry
import FoundationEssentials
import Glibc
import VaultAgent
import VaultCore
import VaultFormat

/// `biosim enroll`.
struct BiosimEnrollCommand: VaultCommand {
  static let about = CommandAbout(
    "enroll", "Enroll a finger, face or iris (the domain state changes).",
    discussion: """
      Needs a device passcode. Touch ID holds five fingers, Face ID one appearance and \
      one alternate, Optic ID one enrollment.
      """)

  @OptionParameter(Keys.label) var label

  func run(_ context: Context) throws -> Int32 {
    let template = try BiosimSupport.controls(context).enroll(label: label?.text)
    Output.error("Enrolled '\(template.label)'; the domain state changed.")
    return ExitCode.success.rawValue
  }
}
